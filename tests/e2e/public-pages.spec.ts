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
