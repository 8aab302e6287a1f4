import type { APIRequestContext, Page } from '@playwright/test';
import { messages } from '#shared/messages';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { appTookOver, holdLoadBack, keepParsedHeading, renderedByTheBrowser } from './support/rendering';
import { depositInvoiceLink, sentQuoteLink } from './support/staff';

const rendered = [
  { path: '/', heading: 'Sac Handyman Services' },
  { path: '/get-a-quote', heading: 'Get a Quote' },
  { path: '/contact', heading: 'Contact' },
  { path: '/quote-request-status', heading: 'Check The Status of Your Quote Request' },
];

/** Serves `url` with every stylesheet the app would link once it is painted (main.tsx), after its own rules. */
async function withAppStylesheets(page: Page, url: string) {
  await page.route(url, async (route) => {
    const html = await (await route.fetch()).text();
    const listed = JSON.parse(/<script type="application\/json" id="app-styles">(.*?)<\/script>/.exec(html)![1]!);
    const links = (listed as string[]).map((href) => `<link rel="stylesheet" href="${href}">`).join('');
    await route.fulfill({ contentType: 'text/html', body: html.replace('</head>', `${links}</head>`) });
  });
}

test.describe('with scripts off', () => {
  test.use({ javaScriptEnabled: false });

  test('the public pages arrive rendered, styled for the screen, with the top bar and footer', async ({ page }) => {
    const phone = device() === 'phone';
    for (const p of rendered) {
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText('Admin Login');
      // One menu per screen width, chosen by CSS: the phone's short buttons or the full menu.
      await expect(page.getByRole('link', { name: phone ? 'Quote Status' : 'Quote Request Status' })).toBeVisible();
      await expect(page.getByRole('link', { name: phone ? 'Quote Request Status' : 'Quote Status' })).toBeHidden();
    }
    // The home page arrives with the first hero photo only; the app brings the others (issue 34).
    await page.goto('/');
    await expect(page.locator('section[aria-label="Welcome"] img')).toHaveCount(1);
    // A form cannot be sent the browser's way (a GET with the client's details in the address).
    await page.goto('/contact');
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  test('the public pages paint from their own HTML: with every stylesheet held back they look the same (issue 34)', async ({
    page,
  }) => {
    for (const p of rendered) {
      await page.goto(p.path);
      const styled = await page.screenshot({ fullPage: true });
      // What a phone paints before the stylesheets arrive: the rules the page carries, nothing else.
      await page.route('**/*.css', (route) => route.abort());
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      const firstPaint = await page.screenshot({ fullPage: true });
      if (!firstPaint.equals(styled)) await screenshot(page, `first-paint${p.path.replace(/\W+/g, '-')}`);
      expect(firstPaint.equals(styled), `${p.path} painted without its stylesheets differs from the page`).toBe(true);
      await page.unroute('**/*.css');
    }
  });

  test('the first paint’s rules are the whole look: the app’s stylesheets, added, change nothing on screen (issue 34)', async ({
    page,
  }) => {
    for (const p of rendered) {
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      const asSent = await page.screenshot({ fullPage: true });
      // The page with every stylesheet the app would link (main.tsx) in its <head>, after its own rules.
      await withAppStylesheets(page, p.path);
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      await expect.poll(() => page.locator('link[rel="stylesheet"]').count()).toBeGreaterThan(1);
      const withStylesheets = await page.screenshot({ fullPage: true });
      if (!withStylesheets.equals(asSent)) await screenshot(page, `with-stylesheets${p.path.replace(/\W+/g, '-')}`);
      expect(withStylesheets.equals(asSent), `${p.path} looks different once the app's stylesheets arrive`).toBe(true);
      await page.unroute(p.path);
    }
  });

  test('back-office pages are left to the browser', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.locator('#root')).toBeEmpty();
  });
});

test('the app takes over the page the server sent without replacing it', async ({ page }) => {
  await keepParsedHeading(page);
  for (const p of rendered.filter((r) => r.path !== '/')) {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
    // The app runs once the page is painted: its <h1> is then the very node the browser parsed.
    expect(await appTookOver(page), p.path).toBe(true);
  }
});

// Decision 050: the home page has nothing to fill in, so no React runs on it: the page as sent, with
// its focus ring, its links to the pages the server renders, and its hero turning.
test('the home page works as the server sent it: the app is not loaded, its links lead on, its photos turn', async ({
  page,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.clock.install();
  await page.goto('/');
  const slides = page.locator('section[aria-label="Welcome"] img');
  await expect(slides).toHaveCount(5);
  await page.waitForLoadState('networkidle');
  expect(asked.filter((path) => /\/assets\/(start|react|client)-[^/]+\.js$/.test(path))).toEqual([]);
  expect(asked.filter((path) => path.endsWith('.css'))).toEqual([]);
  const heading = page.getByRole('heading', { level: 1, name: 'Sac Handyman Services' });
  expect(await heading.evaluate((h) => Object.keys(h).some((key) => key.startsWith('__react')))).toBe(false);
  // A keyboard user sees where the focus is with the rules the page came with.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveCSS('outline-style', 'solid');
  // Its calls to action are links to the pages the server renders, which the app then takes over.
  await keepParsedHeading(page);
  await page.locator('section[aria-label="Welcome"]').getByRole('link', { name: 'Get a Quote' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Get a Quote' })).toBeVisible();
  expect(await appTookOver(page)).toBe(true);
  await screenshot(page, 'home-without-app-then-get-a-quote');
});

// Decision 052: a public page asks for nothing of the app before its own photo and first paint. On a
// slow network the entry's request, made while the page was parsed, cost the paint a round trip.
test('a public page asks for its script only once it has loaded, under the site’s security policy', async ({
  page,
}) => {
  for (const path of ['/', '/get-a-quote']) {
    const entryAskedAt: number[] = [];
    let loadedAt = Number.POSITIVE_INFINITY;
    const onRequest = (r: { url(): string }) => {
      if (/\/assets\/index-[\w-]+\.js$/.test(new URL(r.url()).pathname)) entryAskedAt.push(Date.now());
    };
    const onLoad = () => (loadedAt = Math.min(loadedAt, Date.now()));
    page.on('request', onRequest);
    page.on('load', onLoad);
    await holdLoadBack(page, path, 1500);
    await page.goto(path);
    await expect.poll(() => entryAskedAt.length, path).toBe(1);
    expect(entryAskedAt[0], path).toBeGreaterThanOrEqual(loadedAt);
    // And it runs: the policy allows the loader by its hash (the page fixture fails on a CSP violation).
    if (path === '/') await expect(page.locator('section[aria-label="Welcome"] img')).toHaveCount(5);
    else {
      await page.getByLabel('First Name').focus();
      await expect(page.locator('main form button[type="submit"]').first()).toBeEnabled();
    }
    await page.unrouteAll();
    page.off('request', onRequest);
    page.off('load', onLoad);
  }
});

test('a visitor who reaches for a form before its script is there has the app at once, without another touch', async ({
  page,
}) => {
  let loaded = false;
  let entryAskedBeforeLoad = false;
  page.on('load', () => (loaded = true));
  page.on('request', (r) => {
    if (/\/assets\/index-[\w-]+\.js$/.test(new URL(r.url()).pathname)) entryAskedBeforeLoad ||= !loaded;
  });
  await holdLoadBack(page, '/contact', 3000);
  await page.goto('/contact', { waitUntil: 'domcontentloaded' });
  await page.mouse.move(20, 200);
  await page.mouse.move(40, 240);
  await expect(page.locator('html[data-reached]')).toBeAttached();
  // The app runs before the page has loaded, on that one move: Send wakes.
  await expect(page.locator('main form button[type="submit"]').first()).toBeEnabled();
  expect(entryAskedBeforeLoad).toBe(true);
  expect(loaded).toBe(false);
});

// Decision 051: a form's fields work as the browser's own, so the app takes the page over when the
// visitor first reaches for it, not while the phone paints and lays it out. Its files are fetched by
// then, so it runs at once.
test('a form page runs the app when the visitor first reaches for it, its files already fetched', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  for (const [path, first] of [
    ['/get-a-quote', 'focus'],
    ['/contact', 'scroll'],
    ['/quote-request-status', 'key'],
  ] as const) {
    asked.length = 0;
    if (path === '/contact') {
      // A slow phone: the page's load event comes late (an image held back 2 s), after the app has asked
      // for its files. Chromium warned, 3 s after that event, of stylesheets preloaded and not used, in
      // the console of a visitor who only reads (the page fixture fails on a console warning).
      await holdLoadBack(page, path, 2000);
    }
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    // Fetched while the visitor reads, not run: React owns no node, and what needs it waits.
    expect(
      asked.some((p) => /\/assets\/start-[^/]+\.js$/.test(p)),
      path,
    ).toBe(true);
    const heading = page.getByRole('heading', { level: 1 });
    const owned = () => heading.evaluate((h) => Object.keys(h).some((key) => key.startsWith('__react')));
    expect(await owned(), path).toBe(false);
    // Its stylesheets too, fetched for later: none is linked yet.
    expect(
      asked.some((p) => /\/assets\/[^/]+\.css$/.test(p)),
      path,
    ).toBe(true);
    await expect(page.locator('link[rel="stylesheet"][href^="/assets/"]')).toHaveCount(0);
    const submit = page.locator('main form button[type="submit"]').first();
    await expect(submit).toBeDisabled();
    // A visitor who reads a while (on /contact, past the 3 s after the late load event).
    await page.waitForTimeout(path === '/contact' ? 4000 : 500);
    expect(await owned(), path).toBe(false);
    if (first === 'focus') await page.getByLabel('First Name').focus();
    if (first === 'scroll') await page.mouse.wheel(0, 200);
    if (first === 'key') await page.keyboard.press('Tab');
    await expect(submit, path).toBeEnabled();
    expect(await owned(), path).toBe(true);
    await expect(page.locator('link[rel="stylesheet"][href^="/assets/"]').first()).toBeAttached();
  }
});

test('a home page the server could not render is drawn by the app, its photos turning', async ({ page }) => {
  await renderedByTheBrowser(page, /\/$/);
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Sac Handyman Services' })).toBeVisible();
  const slides = page.locator('section[aria-label="Welcome"] img');
  await expect(slides).toHaveCount(5);
  await page.clock.runFor(7000);
  await expect(slides.nth(1)).toHaveAttribute('data-active', '');
});

test('what a visitor types before the app takes over is kept and sent', async ({ page }) => {
  const tag = `${device()}-${Date.now()}`;
  // Hold the app back until the visitor has typed.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/start-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/contact', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('First Name').fill('Early');
  await page.getByLabel('Last Name').fill(tag);
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  release();
  await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
  await page.getByLabel('Email').fill('early@home.test');
  await page.getByLabel('Message').fill('Typed while the page was loading.');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(messages.contactSuccess)).toBeVisible();
  await waitForMail('owner@handyman.test', new RegExp(`Contact request from Early ${tag}`));
});

/**
 * A client's three pages from their e-mails: the quote (sent with a deposit), the request's status,
 * and, once the client has accepted, the deposit's invoice.
 */
async function clientPages(request: APIRequestContext) {
  const name = `Rendered Client ${Date.now().toString(36)}`;
  const quote = new URL(await sentQuoteLink(request, name, waitForMail, { deposit: { kind: 'percent', value: 20 } }));
  const quoteId = quote.pathname.split('/').pop()!;
  const invoice = await depositInvoiceLink(request, quote, name, waitForMail);
  return [
    {
      name: 'quote',
      url: quote.pathname + quote.search,
      heading: 'Your Quote',
      shows: 'Deck boards',
      // Its reads (…?token=); the page's one "opened" note is a POST of its own, checked below.
      api: /\/api\/client-quotes\/[^/]+\?/,
    },
    {
      name: 'status',
      url: `/quote-request-status/${quoteId}`,
      heading: `Quote Request #${quoteId}`,
      shows: 'Accepted',
      api: /\/api\/quoterequest\/status\//,
    },
    {
      name: 'invoice',
      url: invoice.pathname + invoice.search,
      heading: /^(Deposit invoice|Invoice) INV-/,
      shows: 'Balance due',
      api: /\/api\/client-invoices\/[^/]+\?/,
    },
  ];
}

// Issue 24, item 12: a client's quote, invoice and status pages took 4–5 s to paint on a slow phone
// link (the app, then the page's code, then its data, all before anything showed); the invoice link
// even answered 404. They now arrive rendered with the client's data, as the public pages do.
test('a client’s quote, invoice and status pages arrive rendered with their data, and the app takes them over without asking again', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const pages = await clientPages(request);

  const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize()! });
  const plain = await noScript.newPage();
  for (const p of pages) {
    const response = await plain.goto(p.url);
    expect(response?.status(), p.name).toBe(200);
    // Their data stays out of every cache.
    expect(response?.headers()['cache-control'], p.name).toBe('no-store');
    await expect(plain.getByRole('heading', { level: 1, name: p.heading }), p.name).toBeVisible();
    await expect(plain.getByText(p.shows).first(), p.name).toBeVisible();
    await expect(plain.getByRole('contentinfo')).toContainText('Admin Login');
    // It paints from its own HTML (decision 052, session 40): no stylesheet holds the first paint, and
    // the app's stylesheets, added, change nothing on screen.
    await expect(plain.locator('head link[rel="stylesheet"]'), p.name).toHaveCount(0);
    const asSent = await plain.screenshot({ fullPage: true });
    await withAppStylesheets(plain, p.url);
    await plain.goto(p.url);
    await expect(plain.locator('head link[rel="stylesheet"]').first(), p.name).toBeAttached();
    await expect(plain.getByRole('heading', { level: 1, name: p.heading }), p.name).toBeVisible();
    const withStylesheets = await plain.screenshot({ fullPage: true });
    if (!withStylesheets.equals(asSent)) await screenshot(plain, `with-stylesheets-client-${p.name}`);
    expect(
      withStylesheets.equals(asSent),
      `the client's ${p.name} page looks different with the app's stylesheets`,
    ).toBe(true);
    await plain.unroute(p.url);
  }
  await noScript.close();

  await keepParsedHeading(page);
  const asked: string[] = [];
  page.on('request', (r) => asked.push(r.url()));
  for (const p of pages) {
    asked.length = 0;
    await page.goto(p.url);
    expect(await appTookOver(page), p.name).toBe(true);
    await expect(page.getByText(p.shows).first(), p.name).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The browser used the answers the page came with instead of reading them again.
    expect(
      asked.filter((url) => p.api.test(url)),
      p.name,
    ).toEqual([]);
    // The quote page, now running in the browser, tells the office it was opened: once (issue 25 note).
    if (p.name === 'quote') expect(asked.filter((url) => url.endsWith('/opened'))).toHaveLength(1);
    await screenshot(page, `client-${p.name}-rendered`);
  }
});

test('a sent quote’s buttons are disabled until the app runs, then answer the first tap', async ({
  page,
  request,
  browser,
}) => {
  // With an optional line: ticked before the app ran, the tick was undone when the app took the page over.
  const link = await sentQuoteLink(request, `Early Tap ${device()} ${Date.now().toString(36)}`, waitForMail, {
    materials: [
      { name: 'Deck boards', unitPrice: 12.5, quantity: 10 },
      { name: 'Deck stain', unitPrice: 40, quantity: 1, optional: true },
    ],
  });
  const buttons = ['Accept the quote', 'Decline', 'Request more info'];
  // As the server sent it: a tap there would do nothing, so it is not offered.
  const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize()! });
  const plain = await noScript.newPage();
  await plain.goto(link);
  await expect(plain.getByRole('heading', { level: 1, name: 'Your Quote' })).toBeVisible();
  for (const name of buttons) await expect(plain.getByRole('button', { name }), name).toBeDisabled();
  await expect(plain.getByRole('checkbox', { name: /Deck stain/ })).toBeDisabled();
  await screenshot(plain, 'client-quote-before-the-app');
  await noScript.close();
  // Once the app has taken the page over, one tap opens the question.
  await page.goto(link);
  await appTookOver(page);
  for (const name of buttons) await expect(page.getByRole('button', { name }), name).toBeEnabled();
  const option = page.getByRole('checkbox', { name: /Deck stain/ });
  await option.check();
  await expect(option).toBeChecked();
  await screenshot(page, 'client-quote-app-running');
  await page.getByRole('button', { name: 'Request more info' }).click();
  await expect(page.getByLabel(/^Your question/)).toBeVisible();
});
