import type { Page } from '@playwright/test';
import { formatArrivalWallTimes } from '#shared/arrival-window';
import { futureDate } from '../helpers/dates';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createQuoteRequest } from './support/staff';

const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;

/** The page as a client meets it: loaded fresh from the e-mailed link, then reloaded; both must say the same. */
async function openFresh(page: Page, link: string, check: () => Promise<void>) {
  await page.goto(link);
  await check();
  await page.reload();
  await check();
}

test('the status page follows the job from the request to the last payment, with links to each document', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const name = `Status Client ${device()} ${Date.now().toString(36)}`;
  const email = emailOf(name);
  const created = await createQuoteRequest(request, name);
  const thanks = await waitForMail(email, /Quote Number/);
  const statusLink = /http:\/\/127\.0\.0\.1:\d+\/quote-request-status\/[0-9a-f]{24}/.exec(thanks.text ?? '')![0];
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const ok = async (method: 'post' | 'put' | 'patch' | 'get', url: string, data?: object) => {
    const res = await request[method](url, { headers: admin, ...(data ? { data } : {}) });
    expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  const status = page.getByText(/^Status:/);
  const steps = page.getByRole('heading', { name: 'Step by step' });
  const neverAfterTheWork = async () => {
    await expect(page.getByText(/will be in touch to schedule/)).toHaveCount(0);
    await expect(page.getByText(/Next visit/)).toHaveCount(0);
    await expect(page.getByText('Visit booked', { exact: true })).toHaveCount(0);
  };

  // 1. Received.
  await openFresh(page, statusLink, async () => {
    await expect(page.getByRole('heading', { name: `Quote Request #${created.quoteNumber}` })).toBeVisible();
    await expect(status).toHaveText('Status: Pending');
    await expect(steps).toBeVisible();
    await expect(page.getByText('Request received')).toBeVisible();
  });

  // 2. Quote sent: the page links to the quote (the e-mail's signed link).
  await ok('put', `/api/quoterequest/markAccepted/${created._id}`);
  await ok('post', '/api/quotes/sendQuote', {
    quoteRequestId: created._id,
    clientName: name,
    projectName: 'Door replacement',
    materials: [{ name: 'Interior door', unitPrice: 180, quantity: 2 }],
    labor: [{ hourlyRate: 80, hours: 2 }],
  });
  const quoteMail = await waitForMail(email, /^Your quote QT/);
  const quoteLink = new URL(/http:\/\/127\.0\.0\.1:\d+\/quote\/QT\d{8}\?token=[\w.-]+/.exec(quoteMail.text ?? '')![0]);
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Quote Sent');
    await expect(page.getByRole('link', { name: 'View your quote' })).toHaveAttribute(
      'href',
      new RegExp(`^${quoteLink.pathname}\\?token=`),
    );
  });

  // 3. Accepted by the client.
  const quoteId = quoteLink.pathname.split('/').pop()!;
  const answered = await request.post(`/api/client-quotes/${quoteId}/answer`, {
    data: { action: 'accept', token: quoteLink.searchParams.get('token'), signatureName: name },
  });
  expect(answered.ok()).toBe(true);
  const jobId = (await ok('get', `/api/jobs/by-quote-request/${created._id}`))._id as string;
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Accepted');
    await expect(page.getByText(/will be in touch to schedule the work/)).toBeVisible();
  });

  // 4. A visit booked (one yesterday, one the day after tomorrow): the next one is announced.
  const yesterday = futureDate(-1);
  const later = futureDate(2);
  await ok('post', `/api/jobs/${jobId}/visits`, { date: yesterday, start: '09:00', end: '11:00' });
  await ok('post', `/api/jobs/${jobId}/visits`, { date: later, start: '13:00', end: '15:00' });
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Visit booked');
    await expect(
      page.getByText(
        `Next visit: ${formatArrivalWallTimes({ date: later, start: '13:00', end: '15:00', arriving: true })}`,
      ),
    ).toBeVisible();
    await expect(page.getByText(/will be in touch to schedule/)).toHaveCount(0);
  });
  await screenshot(page, 'status-visit-booked');
  // Its visit is moved or called off on the client's own page, linked from here (issue 31).
  await page.getByRole('link', { name: 'Reschedule or cancel it on your page' }).click();
  await expect(page.getByRole('heading', { name: /^Your visits/ })).toBeVisible();
  await expect(page.getByText('This link has expired')).toHaveCount(0);

  // 5. The job is completed: the report is linked; no visit is announced any more.
  await ok('patch', `/api/jobs/${jobId}/status`, { status: 'In Progress' });
  await ok('patch', `/api/jobs/${jobId}/status`, { status: 'Completed' });
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Work done');
    await neverAfterTheWork();
    await expect(
      page.getByText(formatArrivalWallTimes({ date: yesterday, start: '09:00', end: '11:00', arriving: true })),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Job report (PDF)' })).toBeVisible();
  });
  const report = await request.get((await page.getByRole('link', { name: 'Job report (PDF)' }).getAttribute('href'))!);
  expect(report.headers()['content-type']).toBe('application/pdf');

  // 6. The invoice is sent: Due, with its balance and its link.
  const draft = await ok('post', `/api/jobs/${jobId}/invoice`);
  const sent = await ok('post', `/api/invoices/${draft._id}/send`);
  const money = (dollars: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(dollars);
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Invoice due');
    await neverAfterTheWork();
    await expect(page.getByText(`Due · ${sent.number} · Balance ${money(sent.balance)}`)).toBeVisible();
  });
  await expectNoAxeViolations(page);
  await screenshot(page, 'status-invoice-due');

  // 7. Partly paid.
  await ok('post', `/api/invoices/${draft._id}/payments`, { method: 'cash', paidOn: futureDate(0), amount: 100 });
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Partly paid');
    await neverAfterTheWork();
    await expect(page.getByText(`Partly paid · ${sent.number} · Balance ${money(sent.balance - 100)}`)).toBeVisible();
  });

  // 8. Paid.
  await ok('post', `/api/invoices/${draft._id}/payments`, {
    method: 'check',
    reference: '2231',
    paidOn: futureDate(0),
    amount: sent.balance - 100,
  });
  await openFresh(page, statusLink, async () => {
    await expect(status).toHaveText('Status: Paid');
    await expect(page.getByText('Paid in full. Thank you for your business!')).toBeVisible();
    await expect(page.getByText(`Paid · ${sent.number} · Balance ${money(0)}`)).toBeVisible();
    await neverAfterTheWork();
  });
  await screenshot(page, 'status-paid');

  // The invoice's link, opened fresh from the page: the server answers 200 with the client's invoice.
  const invoiceHref = (await page.getByRole('link', { name: 'View your invoice' }).getAttribute('href'))!;
  const loaded = await page.goto(invoiceHref);
  expect(loaded?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: `Invoice ${sent.number}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: `Invoice ${sent.number}` })).toBeVisible();

  // By the typed number (the lookup form), the same steps without links or amounts.
  await page.goto('/quote-request-status');
  await page.getByLabel(/^Quote Number/).fill(created.quoteNumber);
  await page.getByRole('button', { name: 'Check Quote Request Status' }).click();
  await expect(status).toHaveText('Status: Paid');
  await neverAfterTheWork();
  await expect(page.getByRole('link', { name: /View your|Job report/ })).toHaveCount(0);
  await expect(page.getByText(/Balance/)).toHaveCount(0);
  await expect(page.getByText(/links in our e-mails/)).toBeVisible();
  await screenshot(page, 'status-by-number');
});
