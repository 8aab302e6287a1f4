import type { Page } from '@playwright/test';
import { jobberExport } from '../helpers/jobber-export';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, depositInvoiceLink, sentQuoteLink, signInAs } from './support/staff';

// Client records that fit real clients (issue 28.4, 28.6, 28.7), at phone and desktop width.

const stamp = () => `${Date.now().toString(36)}${test.info().project.name.slice(0, 1)}`;
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('the office enters a phoned-in client without an e-mail: found by phone, and every screen says nothing is e-mailed', async ({
  page,
}) => {
  await signInAs(page, await apiToken(page.request));
  const name = `Nomail ${stamp()}`;
  const digits = String(1000 + Math.floor(Math.random() * 9000));
  await page.goto('/admin/quote-requests/new');
  const form = page.getByRole('form', { name: 'Phoned-in request' });
  await form.getByLabel('First Name').fill('Walt');
  await form.getByLabel('Last Name').fill(name);
  await form.getByLabel('Street').fill('12 Elm St');
  await form.getByLabel('City').fill('Davis');
  await form.getByLabel('State').fill('CA');
  await form.getByLabel('Zip').fill('95616');
  await form.getByLabel('Specifications').fill('Fix the back gate latch.');
  await form.getByRole('button', { name: 'Save request' }).click();
  // Neither an e-mail nor a phone: said at the e-mail.
  await expect(form.getByText('Give an e-mail or a phone number')).toBeVisible();
  await form.getByLabel('Phone').fill(`(530) 555-${digits}`);
  await form.getByRole('button', { name: 'Save request' }).click();
  await expect(page.getByText(/Request Q\w+ entered/)).toBeVisible();

  // Said on the request and in its Quote Builder.
  await expect(page.getByText('No e-mail on file: nothing is e-mailed to this client', { exact: true })).toHaveCount(2);
  // Entered by the office, it opens at its Quote Builder: no Accept step (issue 28.10).
  await expect(page.getByRole('heading', { name: 'Quote Builder' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Accept Quote Request' })).toHaveCount(0);
  // The quote builder says sending e-mails nobody.
  await expect(page.getByText(/gets nothing by e-mail/)).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'clients-no-email-request');
  // Sent, it is kept and said not e-mailed.
  await page.getByRole('button', { name: 'Add Material' }).click();
  const material = page.getByRole('dialog', { name: 'Add Material' });
  await material.getByLabel(/^Name/).fill('Gate latch');
  await material.getByLabel(/^Unit Price/).fill('24.50');
  await material.getByLabel(/^Quantity/).fill('1');
  await material.getByRole('button', { name: 'Add' }).click();
  await expect(material).toBeHidden();
  await page.getByRole('button', { name: 'Send Quote' }).click();
  await expect(page.getByText(/^Quote QT\d+ saved; not e-mailed \(no e-mail on file\)$/)).toBeVisible();
  await expect(page.getByText('Not e-mailed: there is no e-mail on file for this client.')).toBeVisible();
  await screenshot(page, 'clients-no-email-quote-sent');

  // The name links to the client's page.
  await page.getByRole('link', { name: `Walt ${name}` }).click();
  await expect(page.getByRole('heading', { name: `Walt ${name}`, level: 1 })).toBeVisible();
  await expect(page.getByText('No e-mail on file: nothing is e-mailed to this client')).toBeVisible();
  await expect(page.getByTestId('client-balance')).toHaveText('Nothing owed');
  expect(await fitsWidth(page)).toBe(true);
  await expectNoAxeViolations(page);
  await screenshot(page, 'clients-no-email-client');

  // Listed and found by phone, with "No e-mail".
  await page.goto('/admin/clients');
  await page.getByLabel('Search clients').fill(`555${digits}`);
  await expect(page.getByText(/^1 client$/)).toBeVisible();
  // A table row at 1280 px, a card at 375 px.
  const listed = page.locator('tr, li').filter({ hasText: `Walt ${name}` });
  await expect(listed.getByText('No e-mail', { exact: true })).toBeVisible();
  await screenshot(page, 'clients-no-email-list');
});

test("a client's page shows their invoices and what they owe; their name links to it from the job, the invoice and the lists", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Owes Client ${stamp()}`;
  const link = new URL(await sentQuoteLink(request, name, waitForMail, { deposit: { kind: 'percent', value: 20 } }));
  await depositInvoiceLink(request, link, name, waitForMail);
  await signInAs(page, await apiToken(page.request));

  await page.goto(`/admin/jobs?search=${encodeURIComponent(name)}`);
  await page.getByRole('link', { name }).first().click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  // Deposit: 20% of $125.00 and its 8% tax = $27.00.
  await expect(page.getByTestId('client-balance')).toHaveText('Balance owed: $27.00');
  const invoices = page.getByRole('region', { name: 'Invoices' });
  await expect(invoices.getByText('Sent', { exact: true })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await expectNoAxeViolations(page);
  await screenshot(page, 'clients-invoices-and-balance');

  await invoices.getByRole('link', { name: /^INV-/ }).click();
  await expect(page.getByRole('heading', { name: /INV-/, level: 1 })).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  // The job page links to the client page too.
  await page.getByRole('region', { name: 'Jobs' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Job', level: 1 })).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  // And the request page and the request and invoice lists.
  await page.goto(`/admin/invoices?search=${encodeURIComponent(name)}`);
  await expect(page.getByRole('link', { name })).toBeVisible();
  await page.goto(`/admin/quote-requests?search=${encodeURIComponent(name)}`);
  await expect(page.getByRole('link', { name })).toBeVisible();
});

test('a full Jobber export is imported: every phone, the billing address, a formula row refused alone and named by its spreadsheet row', async ({
  page,
}) => {
  await signInAs(page, await apiToken(page.request));
  const tag = String(100 + Math.floor(Math.random() * 900));
  await page.goto('/admin/data');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'jobber-clients.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(jobberExport(tag)),
  });
  await expect(page.getByText(/7 rows → 4 clients: \d new, \d already on file/)).toBeVisible();
  await expect(page.getByText('Row 5: Column "Display Name" starts with "="', { exact: false })).toBeVisible();
  await expect(page.getByText('Row 6: E-mail and phone are missing', { exact: false })).toBeVisible();
  await expect(page.getByText('Mobile Phone #s → Phone')).toBeVisible();
  await expect(page.getByText('Billing Street 1 → Billing street', { exact: true })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'clients-jobber-preview');
  await page.getByRole('button', { name: /^Import 4 clients$/ }).click();
  await expect(page.getByText('Import finished')).toBeVisible();

  await page.goto(`/admin/clients?search=${encodeURIComponent(`ann.${tag}@home.test`)}`);
  await page.getByRole('link', { name: `Ann ${tag} Lee` }).click();
  await expect(page.getByRole('heading', { name: `Ann ${tag} Lee`, level: 1 })).toBeVisible();
  await expect(page.getByText('PO Box 44, Sacramento, CA 95812')).toBeVisible();
  await expect(page.getByText(`Other phones: Work 916-555-${tag}2`)).toBeVisible();
  await expect(page.getByRole('link', { name: `(916) 555-${tag}1` })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'clients-imported-client');
  expect(device()).toMatch(/phone|desktop/);
});
