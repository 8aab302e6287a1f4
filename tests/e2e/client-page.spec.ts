import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { addDays, todayIn } from '#shared/dates';
import { createTokenService } from '../../src/server/lib/tokens';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, depositInvoiceLink, sentQuoteLink, signInAs } from './support/staff';

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
const pageLinkIn = (text: string | false | undefined) =>
  new URL(/https?:\/\/\S+\/your-page\/\S+/.exec(String(text))![0]);

/** Nothing on the page is wider than the screen: no sideways scrolling at 375 px. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

/** Issue 29, the client's page (decision 036), at 375 px and at 1280 px. */
test('the client opens their page from the link in an e-mail, sees the quote, the visit and the invoice, and asks for new work', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const name = `Hub Client ${device()} ${Date.now().toString(36)}`;
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const quoteLink = new URL(
    await sentQuoteLink(request, name, waitForMail, { deposit: { kind: 'percent', value: 25 } }),
  );
  await depositInvoiceLink(request, quoteLink, name, waitForMail);
  const { jobs } = await (
    await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers: admin })
  ).json();
  const date = addDays(todayIn('America/Los_Angeles'), 4);
  const booked = await request.post(`/api/jobs/${jobs[0]._id}/visits`, {
    headers: admin,
    data: { date, start: '09:00', end: '11:00', confirm: true },
  });
  expect(booked.status()).toBeLessThan(300);

  // The visit's e-mail carries the link to the client's page, as every e-mail to them does.
  const visitMail = await waitForMail(emailOf(name), /visit/i);
  const link = pageLinkIn(visitMail.text);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const quotes = page.getByRole('region', { name: 'Your quotes' });
  await expect(quotes.getByText('Accepted')).toBeVisible();
  await expect(quotes.getByRole('link', { name: /^PDF of quote QT\d{8}$/ })).toBeVisible();
  const visits = page.getByRole('region', { name: 'Your visits' });
  await expect(visits.getByText('Coming')).toBeVisible();
  const ics = visits.getByRole('link', { name: /to your calendar$/ });
  const calendar = await request.get(String(await ics.getAttribute('href')));
  expect(calendar.headers()['content-type']).toMatch(/^text\/calendar/);
  const invoices = page.getByRole('region', { name: 'Your invoices' });
  await expect(invoices.getByText(/^Deposit invoice INV-/)).toBeVisible();
  await expect(invoices.getByText('Due', { exact: true })).toBeVisible();
  await expect(page.getByText(/^You owe \$/)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, 'client-page');

  // The unpaid invoice opens on the client's invoice page (where it can be paid).
  await invoices.getByRole('link', { name: /^Open invoice INV-\S+ to pay$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Deposit invoice INV-/ })).toBeVisible();
  await page.goBack();

  // Request new work: their details and property are filled in.
  const form = page.getByRole('region', { name: 'Request new work' });
  await expect(form.getByLabel('Name')).toHaveValue(name);
  await expect(form.getByLabel('E-mail')).toHaveValue(emailOf(name));
  await expect(form.getByLabel('Where')).toHaveValue('0');
  await form.getByLabel('What should we do?').fill('Patch the hole in the garage drywall.');
  await form.getByRole('button', { name: 'Send the request' }).click();
  await expect(form.getByText(/we have your request Q[0-9A-F]+/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your requests' }).getByRole('listitem')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
});

test('an expired link e-mails a fresh one; the status lookup e-mails the link too; the office sees the page read-only', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Hub Expired ${device()} ${Date.now().toString(36)}`;
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  // A client the office entered on the phone without e-mailing them: no e-mail has carried their link.
  const entered = await request.post('/api/quoterequest/staff-entry', {
    headers: admin,
    data: {
      contactPerson: { name, email: emailOf(name), phone: '916-555-0144' },
      address: { street: '9 Oak Ave', city: 'Sacramento', state: 'CA', zip: '95816' },
      notes: 'Fix a sticking window.',
    },
  });
  expect(entered.status()).toBe(201);
  const { clients } = await (
    await request.get(`/api/clients?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers: admin })
  ).json();
  // A link signed by this server's key (DATA_DIR/secrets), as an old e-mail's would be.
  const dataDir = path.join(path.dirname(process.env.E2E_MAIL_DIR!), 'main');
  const key = new TextEncoder().encode(fs.readFileSync(path.join(dataDir, 'secrets', 'jwt-secret'), 'utf8').trim());
  const token = await createTokenService(key, 1).signScoped('client-page', clients[0]._id, 3600);
  await page.goto(`/your-page/${clients[0]._id}?token=${encodeURIComponent(token)}`);
  await expect(page.getByText('This link has expired', { exact: true })).toBeVisible();
  await screenshot(page, 'client-page-expired');
  await page.getByRole('button', { name: 'E-mail me a fresh link' }).click();
  await expect(page.getByText(/we have sent it the link to your page/)).toBeVisible();
  const fresh = pageLinkIn((await waitForMail(emailOf(name), /^Your page at/)).text);
  await page.goto(fresh.pathname + fresh.search);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  // "Check Status": the same offer, the same answer for an address on file.
  await page.goto('/quote-request-status');
  await page.getByLabel('Your e-mail address').fill(emailOf(name));
  await page.getByRole('button', { name: 'E-mail me my link' }).click();
  await expect(page.getByText(/we have sent it the link to your page/)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, 'status-lookup-email-my-link');

  // The office opens the client's page as the client sees it: read-only.
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/clients/${clients[0]._id}`);
  await page.getByRole('button', { name: 'See their page' }).click();
  const dialog = page.getByRole('dialog', { name: /as the client sees it/ });
  await expect(dialog.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send the request' })).toBeDisabled();
  await screenshot(page, 'client-page-staff-view', { fullPage: false });
});
