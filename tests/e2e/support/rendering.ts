import type { Page } from '@playwright/test';

/**
 * A slow phone's page: `path` arrives with an image at its end that is answered after `ms`, so the
 * page's load event comes that late.
 */
export async function holdLoadBack(page: Page, path: string, ms: number) {
  await page.route(path, async (route) => {
    const html = await (await route.fetch()).text();
    await route.fulfill({
      contentType: 'text/html',
      body: html.replace('</body>', '<img src="/slow.png" alt=""></body>'),
    });
  });
  await page.route('**/slow.png', async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.fulfill({ status: 404, body: '' });
  });
}

/**
 * Sends the pages matching `url` as the server would without rendering them: the browser renders
 * them and reads their data itself. For a test that fakes what a client's page reads from the API
 * (the server renders those pages with the real answers, decision 021).
 */
export async function renderedByTheBrowser(page: Page, url: RegExp) {
  await page.route(url, async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const html = (await response.text())
      .replace(/<div id="root">[\s\S]*<\/div>/, '<div id="root"></div>')
      // The first paint's hold on the content the server rendered (site/critical-css.ts).
      .replace(/<link rel="expect"[^>]*>/, '')
      .replace(/<script type="application\/json" id="page-data">[\s\S]*?<\/script>/, '');
    await route.fulfill({ response, body: html });
  });
}

/** Keeps the page's <h1> as parsed from the server's HTML, before any script of the page runs. */
export async function keepParsedHeading(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive')
        (window as unknown as { parsedHeading: Element | null }).parsedHeading = document.querySelector('h1');
    });
  });
}

/**
 * Reaches for the page and waits until the app has taken it over: React owns its <h1> (it marks the
 * nodes it has taken over). Returns whether that <h1> is the very node the browser parsed
 * (keepParsedHeading), i.e. the app adopted the server's HTML instead of replacing it.
 */
export async function appTookOver(page: Page): Promise<boolean> {
  await reachFor(page);
  await page.waitForFunction(() => {
    const heading = document.querySelector('h1');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
  });
  return page.evaluate(() => {
    const parsed = (window as unknown as { parsedHeading?: Element | null }).parsedHeading;
    return parsed?.isConnected === true && parsed === document.querySelector('h1');
  });
}

/**
 * What a person does before their tap reaches a button: the pointer moves over the page (on a phone a
 * finger touches it or scrolls). A form the app takes over on first use (decision 051) waits for it;
 * Playwright's click waits for the button to be enabled before it moves the pointer, so a test whose
 * first step is a tap on Send moves it first.
 */
export async function reachFor(page: Page) {
  await page.mouse.move(8, 8);
  await page.mouse.move(16, 24);
}

/**
 * Waits until the page's scripts have run: the app has taken it over (React marks the nodes it owns;
 * a form the app takes over on first use is reached for first), or, on a page the app does not take
 * over (the home page, decision 050), its hero has its photos.
 */
export async function waitForPageScripts(page: Page) {
  await reachFor(page);
  await page.waitForFunction(() => {
    if (document.querySelector('meta[name="app"][content="none"]'))
      return document.querySelectorAll('section[data-slides] img').length > 1;
    return Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__reactFiber$'));
  });
}
