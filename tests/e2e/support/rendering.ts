import type { Page } from '@playwright/test';

/**
 * Sends the pages matching `url` as the server would without rendering them: the browser renders
 * them and reads their data itself. For a test that fakes what a client's page reads from the API
 * (the server renders those pages with the real answers, decision 019).
 */
export async function renderedByTheBrowser(page: Page, url: RegExp) {
  await page.route(url, async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const html = (await response.text())
      .replace(/<div id="root">[\s\S]*<\/div>/, '<div id="root"></div>')
      .replace(/<script type="application\/json" id="page-data">[\s\S]*?<\/script>/, '');
    await route.fulfill({ response, body: html });
  });
}
