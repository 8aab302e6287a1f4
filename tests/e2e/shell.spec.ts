import { expect, test } from './support/fixtures';

test('the home page loads with the business name', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Sac Handyman Services/);
  await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()}`);
});

test('an unknown path shows Page Not Found with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('routes match case-insensitively, as the footer link /Login expects', async ({ page }) => {
  await page.goto('/Quote/Accepted');
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
});

test('the API documentation opens in the browser under the site security policy', async ({ page }) => {
  await page.goto('/api/docs/');
  await expect(page.getByRole('heading', { name: /Handyman business API/ })).toBeVisible();
  // Every feature's section is listed, the last ones too (folded: Swagger UI stopped drawing an
  // unfolded list of this many operations after the third section).
  for (const section of ['health', 'quote requests', 'online payments', 'client page', 'visits'])
    await expect(page.getByRole('heading', { name: new RegExp(`^${section} Expand operation`) })).toBeVisible();
  await page.getByRole('heading', { name: /^quote requests Expand operation/ }).click();
  await page
    .getByRole('button', { name: /\/api\/quoterequest\/status\/\{quoteNumber\}/ })
    .first()
    .click();
  await expect(page.getByText('The status of a request, by its quote number').first()).toBeVisible();
});
