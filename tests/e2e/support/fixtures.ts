import { test as base, expect, type Page } from '@playwright/test';
import type { SettingsView } from '#shared/schemas/settings';
import { apiToken } from './staff';

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
 * The tag of a test that changes or counts what every test shares (the business's settings, the
 * dashboard's totals, the latest activity). Such tests run in the `…-shared-state` projects, each device
 * against a server of its own and one at a time, beside the rest, which run in two workers at once
 * against the first server (playwright.config.ts, decision 027).
 */
export const SHARED_STATE = '@shared-state';

/**
 * The tag of a test that changes the built files every server sends (a deploy of the crew app): it runs
 * in the `deploy` project, after every other test, when nothing else is being served.
 */
export const DEPLOY = '@deploy';

/** The device a project stands for, whatever its name: `phone` (375 px, touch) or `desktop` (1280 px). */
export function device(): 'phone' | 'desktop' {
  return (test.info().project.metadata as { device: 'phone' | 'desktop' }).device;
}

/**
 * The database behind the server this test talks to: the first server runs on PostgreSQL when the
 * suite has one (TEST_DATABASE_URL), the shared-state servers always on PGlite (global-setup.ts).
 */
export function serverDatabase(): 'postgres' | 'pglite' {
  const { baseURL } = test.info().project.use;
  const shared = baseURL === process.env.E2E_SHARED_BASE_URL || baseURL === process.env.E2E_SHARED_DESKTOP_BASE_URL;
  return !shared && process.env.E2E_MAIN_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * For tests that change the settings: puts the business's settings (and its logo) back as they were
 * after the test, as a fixture's teardown, which Playwright runs even after a test timed out or failed.
 */
export const testChangingSettings = test.extend<{ restoreSettings: void }>({
  restoreSettings: [
    async ({ request }, use) => {
      const headers = { authorization: `Bearer ${await apiToken(request)}` };
      const before = (await (await request.get('/api/settings', { headers })).json()) as SettingsView;
      await use();
      const { logoUrl, updatedAt: _u, ...values } = before;
      expect((await request.put('/api/settings', { headers, data: values })).status()).toBe(200);
      if (!logoUrl) await request.delete('/api/settings/logo', { headers });
    },
    { auto: true },
  ],
});

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

/**
 * Saves a full-page picture of the screen for a person to look at (screenshots/, not kept in git).
 * `E2E_SCREENSHOTS=off` (.ci/run) skips them: nobody looks at a fresh clone's pictures, and encoding
 * ~120 full pages costs the suite about half a minute on two cores. Nothing is asserted on them.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; device?: 'phone' | 'desktop' } = {},
) {
  if (process.env.E2E_SCREENSHOTS === 'off') return;
  const path = `screenshots/${name}-${options.device ?? device()}.png`;
  const fullPage = options.fullPage ?? true;
  // A full-page picture of a scrolled page (opened at #quote-builder) draws the fixed top bar and menu where
  // the window was scrolled to, with the page above them: "a gap above the top bar" that no screen shows.
  // The whole page is pictured from its top, then the scroll is put back.
  const scrolled = fullPage ? await page.evaluate(() => window.scrollY) : 0;
  if (scrolled) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage });
  if (scrolled) await page.evaluate((y) => window.scrollTo(0, y), scrolled);
}
