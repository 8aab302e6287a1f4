import fs from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { formatMoney, toCents } from '#shared/money';
import { pdfText } from '../helpers/pdf';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, SHARED_STATE, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, sentQuoteLink, signInAs } from './support/staff';

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;

/**
 * A job sold for 10 deck boards at $12.50 with a 20% deposit ($25 + $2 tax, invoiced on acceptance),
 * completed by its crew with 2 deck screws ($0.45 each, priced by the office).
 */
async function completedJob(request: APIRequestContext, name: string) {
  const link = new URL(await sentQuoteLink(request, name, waitForMail, { deposit: { kind: 'percent', value: 20 } }));
  const quoteId = link.pathname.split('/').pop()!;
  await request.post(`/api/client-quotes/${quoteId}/answer`, {
    data: { action: 'accept', token: link.searchParams.get('token'), signatureName: name },
  });
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const { jobs } = await (
    await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(name)}`, { headers: admin })
  ).json();
  const jobId = jobs[0]._id as string;
  const crew = await createEmployee(request);
  await request.post(`/api/jobs/${jobId}/assign`, { headers: admin, data: { workers: [{ _id: crew.id }] } });
  const worker = { authorization: `Bearer ${await apiToken(request, crew.username, crew.password)}` };
  const screws = randomUUID();
  await request.patch(`/api/my/jobs/${jobId}/status`, { headers: worker, data: { status: 'In Progress' } });
  await request.put(`/api/my/jobs/${jobId}/materials/${screws}`, {
    headers: worker,
    data: { name: 'Deck screws', quantity: 2 },
  });
  await request.put(`/api/jobs/${jobId}/materials/${screws}`, {
    headers: admin,
    data: { name: 'Deck screws', quantity: 2, unitPrice: 0.45 },
  });
  const done = await request.post(`/api/my/jobs/${jobId}/complete`, { headers: worker });
  expect(done.status()).toBe(200);
  return jobId;
}

/** The deposit's invoice reached the client on acceptance. */
async function depositMail(name: string) {
  return waitForMail(emailOf(name), /^Deposit invoice INV-/);
}

// It counts the business's revenue before and after its payments: alone, after the others.
test(
  'a deposit invoiced on acceptance and paid; the completed job becomes an invoice with the crew’s extras and the deposit credited; the client opens it on a phone; a partial then a final payment make it Paid, with receipts; the dashboard and the reports count the money',
  { tag: SHARED_STATE },
  async ({ page, request, browser }) => {
    test.skip(device() !== 'desktop', 'the office invoices at a desk; the client part runs at 375 px below');
    test.setTimeout(240_000);
    const name = `Invoice Client ${Date.now().toString(36)}`;
    const jobId = await completedJob(request, name);
    const adminToken = await apiToken(request);
    const before = await (
      await request.get('/api/dashboard', { headers: { authorization: `Bearer ${adminToken}` } })
    ).json();

    expect(await pdfText((await depositMail(name)).attachments[0]!.content)).toContain('Deposit for quote');

    // The office takes the deposit (a card in person) on its invoice, from the job page.
    await signInAs(page, adminToken);
    await page.goto(`/admin/jobs/${jobId}`);
    // The notice of the unpaid deposit comes with its own answer and pushes the page down: once it is
    // there, the link is tapped where it stays (a CI run's tap landed beside it, and the page stayed).
    await expect(page.getByRole('link', { name: 'Open the deposit invoice' })).toBeVisible();
    await page.getByRole('link', { name: 'Open deposit invoice' }).click();
    await expect(page.getByText('Balance due: $27.00')).toBeVisible();
    await page.getByRole('button', { name: 'Record a payment' }).click();
    const depositDialog = page.getByRole('dialog', { name: 'Record a payment' });
    await depositDialog.getByLabel(/^Method/).click();
    await page.getByRole('option', { name: 'card in person' }).click();
    await depositDialog.getByRole('heading', { name: 'Record a payment' }).click();
    await depositDialog.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText(/is paid; receipt e-mailed/)).toBeVisible();
    await page.getByRole('link', { name: /^job / }).click();
    await expect(page.getByText(/paid\. The final invoice takes it off/)).toBeVisible();
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await expect(page.getByRole('heading', { name: 'Invoice (draft)' })).toBeVisible();
    await expect(page.getByLabel('Line 1 description')).toHaveValue('Deck boards');
    await expect(page.getByLabel('Line 2 description')).toHaveValue('Deck screws (used on the job)');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await page.getByLabel('Line 3 description').fill('Haul-away fee');
    await page.getByLabel('Line 3 unit price').fill('15');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Draft saved')).toBeVisible();
    await page.getByRole('button', { name: 'Send invoice' }).click();
    await page
      .getByRole('dialog', { name: 'Send this invoice?' })
      .getByRole('button', { name: 'Send invoice' })
      .click();
    const heading = page.getByRole('heading', { name: /^Invoice INV-\d{4}-\d{4}$/ });
    await expect(heading).toBeVisible();
    const number = (await heading.textContent())!.replace('Invoice ', '');
    // $125.00 + $0.90 + $15.00 = $140.90, 8% tax $11.27: $152.17, less the $27.00 deposit: $125.17.
    await expect(page.getByLabel('Totals')).toContainText(/Less deposit INV-\d{4}-\d{4}/);
    await expect(page.getByText('Balance due: $125.17')).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, 'invoice-sent');

    // The client, on a phone, from the e-mail.
    const mail = await waitForMail(emailOf(name), new RegExp(`^Invoice ${number}`));
    expect(await pdfText(mail.attachments.find((a) => a.contentType === 'application/pdf')!.content)).toContain(
      'Deck screws (used on the job)',
    );
    const link = /https?:\/\/\S+\/invoice\/\S+/.exec(mail.text!)![0];
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true });
    const client = await phone.newPage();
    await client.goto(new URL(link).pathname + new URL(link).search);
    await expect(client.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
    await expect(client.getByText('Balance due')).toBeVisible();
    await expect(client.getByLabel('Totals')).toContainText('$125.17');
    const pdf = await client.request.get(
      (await client.getByRole('link', { name: 'Download the PDF' }).getAttribute('href'))!,
    );
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(await pdfText(await pdf.body())).toContain(number);
    await expectNoAxeViolations(client);
    await screenshot(client, 'client-invoice', { device: 'phone' });

    // The office records a check for part of it, then the rest.
    await page.getByRole('button', { name: 'Record a payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record a payment' });
    await dialog.getByLabel(/^Amount/).fill('100');
    await dialog.getByLabel(/^Check number/).fill('2051');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText('Payment recorded; receipt e-mailed')).toBeVisible();
    await expect(page.getByText('Partially Paid')).toBeVisible();
    await expect(page.getByText('Balance due: $25.17')).toBeVisible();
    await page.getByRole('button', { name: 'Record a payment' }).click();
    await dialog.getByLabel(/^Method/).click();
    await page.getByRole('option', { name: 'cash' }).click();
    await dialog.getByRole('heading', { name: 'Record a payment' }).click();
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByText(`Invoice ${number} is paid; receipt e-mailed`)).toBeVisible();
    await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Record a payment' })).toHaveCount(0);
    await waitForMail(emailOf(name), new RegExp(`^Receipt for invoice ${number}`));

    // The client's page says it is paid; the dashboard counts the money received, without the tax.
    await client.reload();
    await expect(client.getByText('Paid', { exact: true }).first()).toBeVisible();
    await expect(client.getByLabel('Totals')).toContainText('$0.00');
    await phone.close();
    await page.goto('/admin');
    await expect(page.getByRole('button', { name: /^Revenue:/ })).toContainText(
      formatMoney(toCents(before.revenue) + 14090),
    );
    await page.goto('/admin/invoices');
    await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText('Paid');
    // Found by its number, listed under Paid and not under Overdue; the filter is kept in the address.
    await page.getByLabel('Search invoices').fill(number);
    await expect(page.getByRole('status')).toHaveText('1 invoice');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Overdue' }).click();
    await expect(page.getByText('No invoices match.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Paid', exact: true }).click();
    await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText('Paid');
    await page.reload();
    await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText('Paid');
    expect(new URL(page.url()).searchParams.get('status')).toBe('Paid');

    // The Reports page: revenue by month, the funnel, the averages, and the files for a spreadsheet.
    await page.goto('/admin/reports');
    await expect(page.getByRole('heading', { name: 'Revenue by month' })).toBeVisible();
    // This month's bar (the months before may be empty, drawn at no height).
    await expect(page.locator('.recharts-bar-rectangle').last()).toBeVisible();
    await expect(page.getByLabel('Funnel')).toContainText('Paid in full');
    await expect(page.getByText('From a finished job to its last payment:')).toContainText(/\d+(\.\d)? days?|0 days/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Payments (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('payments.csv');
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain(`,${number},${name},check,2051,100,`);
    await expectNoAxeViolations(page);
    await screenshot(page, 'reports');
  },
);

test('the office edits a draft invoice on a phone: each line is a card, nothing scrolls sideways, the amount follows the quantity', async ({
  page,
  request,
}) => {
  test.skip(device() !== 'phone', 'the phone layout of the draft editor');
  test.setTimeout(180_000);
  const name = `Phone Draft ${Date.now().toString(36)}`;
  const jobId = await completedJob(request, name);
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const draft = await (await request.post(`/api/jobs/${jobId}/invoice`, { headers: admin })).json();
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/invoices/${draft._id}`);
  const lines = page.getByRole('group', { name: 'Invoice lines' });
  await expect(lines.getByLabel('Line 1 description')).toHaveValue('Deck boards');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await lines.getByLabel('Line 1 quantity').fill('12');
  await expect(lines.getByText('Amount: $150.00')).toBeVisible();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('group', { name: 'Invoice lines' }).getByLabel('Line 1 quantity')).toHaveValue('12');
  await expectNoAxeViolations(page);
  await screenshot(page, 'invoice-draft');
});

test('an edited draft is sent in one press: the totals follow each change, a line is untaxed, the unpaid deposit is taken off and named (issue 24.1, 24.2, 24.4)', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const name = `One Press ${Date.now().toString(36)}`;
  const jobId = await completedJob(request, name);
  const deposit = await depositMail(name);
  const depositNumber = /^Deposit invoice (INV-\d{4}-\d{4})/.exec(deposit.subject ?? '')![1]!;
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs/${jobId}`);
  // Not paid yet: Create says so before the office bills the job.
  await expect(page.getByText(/\$27\.00 not paid yet/)).toBeVisible();
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByRole('heading', { name: 'Invoice (draft)' })).toBeVisible();
  const totals = page.getByLabel('Totals');
  // $125.00 + $0.90 = $125.90, all taxed (8%: $10.07), $135.97 less the whole $27.00 deposit: $108.97.
  await expect(totals).toContainText('Tax 8% on $125.90');
  await expect(totals).toContainText(`Less deposit ${depositNumber}`);
  await expect(totals).toContainText('$108.97');
  await expect(page.getByText(`Deposit ${depositNumber} is not paid yet`)).toBeVisible();
  // The office changes the boards to 12 and unticks the tax on the screws: the totals follow at once.
  await page.getByLabel('Line 1 quantity').fill('12');
  await page.getByLabel('Line 2 taxed').uncheck();
  // $150.00 + $0.90 = $150.90; tax 8% on $150.00 = $12.00; $162.90 less $27.00 = $135.90.
  await expect(totals).toContainText('Tax 8% on $150.00');
  await expect(totals).toContainText('$135.90');
  await screenshot(page, 'invoice-draft-live-totals');
  // No Save first: Send sends what is on the screen.
  await page.getByRole('button', { name: 'Send invoice' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this invoice?' });
  await expect(confirm).toContainText('Balance due: $135.90');
  await confirm.getByRole('button', { name: 'Send invoice' }).click();
  const heading = page.getByRole('heading', { name: /^Invoice INV-\d{4}-\d{4}$/ });
  await expect(heading).toBeVisible();
  const number = (await heading.textContent())!.replace('Invoice ', '');
  await page.reload();
  await expect(page.getByLabel('Totals')).toContainText('$135.90');
  const mail = await waitForMail(emailOf(name), new RegExp(`^Invoice ${number}`));
  const text = await pdfText(mail.attachments.find((a) => a.contentType === 'application/pdf')!.content);
  expect(text).toContain('Tax 8% on $150.00');
  expect(text).toContain(`Less deposit ${depositNumber}`);
  expect(text).toContain('$135.90');
  await expectNoAxeViolations(page);
  // More than the balance is refused with its message in the dialog, which stays open (no page error).
  await page.getByRole('button', { name: 'Record a payment' }).click();
  const paying = page.getByRole('dialog', { name: 'Record a payment' });
  await paying.getByLabel(/^Amount/).fill('200');
  await paying.getByRole('button', { name: 'Record payment' }).click();
  await expect(paying.getByRole('alert')).toHaveText('This payment is more than the balance of $135.90');
  await expectNoAxeViolations(page);
  await screenshot(page, 'invoice-overpayment', { fullPage: false });
  await paying.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Balance due: $135.90')).toBeVisible();
});
