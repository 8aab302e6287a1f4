import { expectNoAxeViolations } from './support/axe';
import { expect, screenshot, test } from './support/fixtures';

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
    // Wait until the app has taken the page over (React marks the nodes it owns), then look again.
    await page.waitForFunction(() => {
      const heading = document.querySelector('h1');
      return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
    });
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  });
}
