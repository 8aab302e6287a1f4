import { paths } from '#shared/paths';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, createQuoteRequest, signInAs, soldJobFor } from './support/staff';

/**
 * Issue 28, item 9: the dashboard's "Needs you today". The lists hold what every test makes, so this
 * test looks for its own records (the newest of their lists) rather than counting: it runs beside others.
 */
test('Needs you today lists an accepted request to quote and a sold job with no visit; each opens its record', async ({
  page,
  request,
}) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const toQuote = `Quote Me ${tag}`;
  const created = await createQuoteRequest(request, toQuote);
  expect((await request.put(`/api/quoterequest/markAccepted/${created._id}`, { headers: admin })).status()).toBe(200);
  const sold = `Schedule Me ${tag}`;
  const worker = await createEmployee(request, { fullName: `Needs Crew ${tag}` });
  const jobId = await soldJobFor(request, sold, worker.id, waitForMail);

  await signInAs(page, admin.authorization.slice('Bearer '.length));
  await page.goto(paths.admin.dashboard);
  const panel = page.getByRole('region', { name: 'Needs you today' });
  await expect(panel).toBeVisible();
  const requests = panel.getByRole('region', { name: 'Requests to quote' });
  const jobs = panel.getByRole('region', { name: 'Jobs with no visit' });
  await expect(requests.getByRole('link', { name: toQuote })).toBeVisible();
  await expect(jobs.getByRole('link', { name: sold })).toBeVisible();
  await expect(requests.getByText(`Request ${created.quoteNumber} · Sacramento`)).toBeVisible();
  // Every list says how many wait, for a screen reader too.
  for (const list of [
    "Today's visits",
    'Requests to quote',
    'Jobs with no visit',
    'Completed, not invoiced',
    'Unpaid deposits',
    'E-mails not delivered',
  ]) {
    await expect(panel.getByRole('region', { name: list }).getByLabel(/^\d+ waiting$/)).toBeVisible();
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await expectNoAxeViolations(page);
  await screenshot(page, 'needs-you-today');

  await jobs.getByRole('link', { name: sold }).click();
  await expect(page).toHaveURL(paths.admin.job(jobId));
  await expect(page.getByText(sold).first()).toBeVisible();

  await page.goBack();
  await panel.getByRole('region', { name: 'Requests to quote' }).getByRole('link', { name: toQuote }).click();
  await expect(page).toHaveURL(paths.admin.quoteRequest(created._id));
  await expect(page.getByText(toQuote).first()).toBeVisible();

  // The list behind it: the accepted requests.
  await page.goBack();
  await panel.getByRole('link', { name: /accepted request/i }).click();
  await expect(page).toHaveURL(/\/admin\/quote-requests\?status=Accepted$/);
  await expect(page.getByText(toQuote).first()).toBeVisible();
});
