import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForPageScripts } from './support/rendering';

const pages = [
  { path: '/', heading: 'Sac Handyman Services', name: 'home' },
  { path: '/get-a-quote', heading: 'Get a Quote', name: 'get-a-quote' },
  { path: '/get-a-quote/success', heading: 'Sent!', name: 'quote-sent' },
  { path: '/contact', heading: 'Contact', name: 'contact' },
  { path: '/thank-you', heading: 'Thanks for contacting the provider!', name: 'thank-you' },
  { path: '/quote-request-status', heading: 'Check The Status of Your Quote Request', name: 'status-lookup' },
  { path: '/quote/accepted', heading: 'Thank You!', name: 'quote-accepted' },
  { path: '/quote/declined', heading: 'Successfully declined', name: 'quote-declined' },
  { path: '/unauthorized', heading: 'Unauthorized', name: 'unauthorized' },
  { path: '/this/does/not/exist', heading: 'Page Not Found', name: 'not-found' },
];

for (const p of pages) {
  test(`${p.path} shows "${p.heading}" and passes axe`, async ({ page }) => {
    await page.goto(p.path);
    await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('Admin Login');
    await expectNoAxeViolations(page);
    await screenshot(page, p.name);
  });
}

// Issue 11, item 6: a malformed hash in a link must not break the page.
for (const path of ['/#%', '/contact#%E0%A4%A', '/get-a-quote#%zz']) {
  test(`${path} opens the page, loaded fresh`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Wait until the page's scripts have run, then look again.
    await waitForPageScripts(page);
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  });
}

test('on a phone the top bar is made of finger-sized buttons and no service name breaks inside a word (issue 13.17)', async ({
  page,
}) => {
  test.skip(device() !== 'phone', 'the phone top bar');
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' }).first();
  for (const name of ['Get A Quote', 'Contact', 'Quote Status']) {
    const box = await nav.getByRole('link', { name }).boundingBox();
    expect(box?.height, name).toBeGreaterThanOrEqual(44);
  }
  const home = await page.getByRole('link', { name: /home$/ }).first().boundingBox();
  expect(home?.height).toBeGreaterThanOrEqual(44);
  expect(home?.width).toBeGreaterThanOrEqual(44);
  // Each word of the label sits on one line: "Moulding" is not cut into "Mouldin" + "g".
  const service = page.getByText('Casing/Trim/Moulding');
  await service.scrollIntoViewIfNeeded();
  const wordsSplit = await service.evaluate((element) => {
    const text = element.firstChild?.parentElement ?? element;
    const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
    let split = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const word = (node.textContent ?? '').replace('/', '');
      if (word && new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) split++;
    }
    return split;
  });
  expect(wordsSplit).toBe(0);
});
