import { test as base, expect, type Page } from '@playwright/test';

/**
 * A page that fails the test on any console error or warning, uncaught exception, CSP violation or
 * 5xx, so a broken screen cannot pass by looking right.
 */
export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    await reportCspViolations(page);
    page.on('console', (message) => {
      // Failed loads are judged by the response listener: a 4xx can be the expected answer.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(`console error: ${message.text()}`);
      if (message.type() === 'warning') problems.push(`console warning: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 500) problems.push(`HTTP ${response.status()} from ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await use(page);
    expect(problems, problems.join('\n')).toEqual([]);
  },
});

export { expect };

/**
 * Makes every Content-Security-Policy violation on the page a console error (which the page fixture
 * fails on). Chromium reports some only as DevTools issues, not in the console: an eval blocked
 * inside a try/catch (zod probing `new Function`) is one, which cost every page its Lighthouse
 * best-practices 100. The page's own `securitypolicyviolation` event sees them all.
 */
export async function reportCspViolations(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}` : '';
      console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}${where}`);
    });
  });
}

export async function screenshot(page: Page, name: string) {
  const project = test.info().project.name;
  await page.screenshot({ path: `screenshots/${name}-${project}.png`, fullPage: true });
}
