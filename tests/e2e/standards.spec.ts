import { device, expect, test } from './support/fixtures';
import { nuHtmlErrors, pa11yErrors } from './support/standards';
import { waitForMail } from './support/mail';
import { waitForPageScripts } from './support/rendering';
import { createQuoteRequest, sentQuoteLink } from './support/staff';

/** Every page a visitor or client can open, and the sign-in page (issue 13.14, 13.15). */
async function publicPages(request: Parameters<typeof createQuoteRequest>[0]) {
  const name = `Standards ${device()} ${Date.now().toString(36)}`;
  const created = await createQuoteRequest(request, name);
  const quoteLink = new URL(await sentQuoteLink(request, `${name} quote`, waitForMail));
  // The client's own page (decision 036), from the link the quote's e-mail carries.
  const quoteMail = await waitForMail(
    `${`${name} quote`.toLowerCase().replace(/\W+/g, '.')}@home.test`,
    /^Your quote QT/,
  );
  const clientPage = new URL(/https?:\/\/\S+\/your-page\/\S+/.exec(String(quoteMail.text))![0]);
  return [
    '/',
    '/get-a-quote',
    '/get-a-quote/success',
    '/contact',
    '/thank-you',
    '/quote-request-status',
    `/quote-request-status/${created._id}`,
    `${quoteLink.pathname}${quoteLink.search}`,
    `${clientPage.pathname}${clientPage.search}`,
    '/quote/accepted',
    '/quote/declined',
    '/unauthorized',
    '/no/such/page',
    '/login',
  ];
}

test('every public page and the sign-in page pass the W3C Nu HTML Checker, as served and as rendered', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const documents: { name: string; html: string }[] = [];
  for (const path of await publicPages(request)) {
    documents.push({ name: `${path} (served)`, html: await (await request.get(path)).text() });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // Rendered: once the app has taken the page over (on the home page, once its own script has run).
    await waitForPageScripts(page);
    documents.push({ name: `${path} (rendered)`, html: await page.content() });
  }
  const errors = await nuHtmlErrors(documents);
  expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
});

test('every public page and the sign-in page pass pa11y (HTML_CodeSniffer, WCAG 2 AA)', async ({ request }) => {
  test.setTimeout(240_000);
  const base = test.info().project.use.baseURL ?? process.env.E2E_BASE_URL!;
  const viewport = test.info().project.use.viewport ?? { width: 1280, height: 800 };
  const urls = (await publicPages(request)).map((path) => new URL(path, base).toString());
  const errors = await pa11yErrors(urls, viewport);
  expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
});
