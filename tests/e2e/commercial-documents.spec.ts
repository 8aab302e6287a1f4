import type { APIRequestContext, Page } from '@playwright/test';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, signInAs } from './support/staff';

// Issue 28.5's rest (decision 037): the company and the billing address on the client's quote and
// invoice, the PO number in the invoice draft, and a client's service addresses edited and removed.

const stamp = () => `${Date.now().toString(36)}${device().slice(0, 1)}`;
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** A company client with a billing address, a warehouse, and a request at the warehouse (by the API). */
async function commercialClient(request: APIRequestContext, tag: string) {
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const email = `ap.${tag}@acme-storage.test`;
  const contact = { name: `Pat Ortiz ${tag}`, email, phone: '916-555-0142' };
  const created = await request.post('/api/quoterequest/create', {
    data: {
      contactPerson: contact,
      address: { street: '100 Main St', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Front door closer.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const clientId = (await created.json()).quoteRequest.clientId as string;
  const changed = await request.put(`/api/clients/${clientId}`, {
    headers,
    data: {
      name: contact.name,
      phone: contact.phone,
      notes: '',
      companyName: `Acme Storage ${tag}`,
      billingAddress: { street: 'PO Box 77', city: 'Sacramento', state: 'CA', zip: '95812' },
    },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  const added = await request.post(`/api/clients/${clientId}/addresses`, {
    headers,
    data: { label: 'Warehouse', street: '2200 Industrial Blvd', city: 'West Sacramento', state: 'CA', zip: '95691' },
  });
  expect(added.status(), await added.text()).toBe(201);
  const warehouse = ((await added.json()).addresses as { _id: string; label: string }[]).find((a) => a.label)!;
  const entered = await request.post('/api/quoterequest/staff-entry', {
    headers,
    data: {
      contactPerson: contact,
      address: { street: 'x', city: 'x', state: 'CA', zip: '00000' },
      notes: 'Dock door spring is broken.',
      clientId,
      serviceAddressId: warehouse._id,
    },
  });
  expect(entered.status(), await entered.text()).toBe(201);
  return { headers, email, contact, clientId, requestId: (await entered.json()).quoteRequest._id as string };
}

/** The request's quote sent with a PO; the client's link to it. */
async function sendQuote(request: APIRequestContext, client: Awaited<ReturnType<typeof commercialClient>>, po: string) {
  const sent = await request.post('/api/quotes/sendQuote', {
    headers: client.headers,
    data: {
      quoteRequestId: client.requestId,
      clientName: client.contact.name,
      projectName: 'Dock door',
      materials: [{ name: 'Door spring', unitPrice: 120, quantity: 1 }],
      labor: [{ description: 'Replace the spring', hourlyRate: 90, hours: 2 }],
      poNumber: po,
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const mail = await waitForMail(client.email, /^Your quote QT/);
  return new URL(/http:\/\/127\.0\.0\.1:\d+\/quote\/QT\d{8}\?token=[\w.-]+/.exec(String(mail.text))![0]);
}

test("the company and billing address on the client's quote and invoice; the PO number edited in the draft", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = stamp();
  const client = await commercialClient(request, tag);
  const link = await sendQuote(request, client, `PO-${tag}`);

  // The client's quote page: whom it is for, where bills go, where the work is.
  await page.goto(link.pathname + link.search);
  const quote = page.getByRole('region', { name: 'Quote preview' });
  await expect(quote).toContainText(`Company: Acme Storage ${tag}`);
  await expect(quote).toContainText('Billing address: PO Box 77, Sacramento, CA 95812');
  await expect(quote).toContainText('Service address: 2200 Industrial Blvd, West Sacramento, CA 95691');
  await expect(quote).toContainText(`PO No.: PO-${tag}`);
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-quote-page');

  const answered = await request.post(`/api/client-quotes/${link.pathname.split('/').pop()}/answer`, {
    data: { action: 'accept', token: link.searchParams.get('token'), signatureName: client.contact.name },
  });
  expect(answered.status(), await answered.text()).toBe(200);
  const { jobs } = await (
    await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(client.contact.name)}`, {
      headers: client.headers,
    })
  ).json();
  const jobId = jobs[0]._id as string;
  for (const status of ['In Progress', 'Completed'])
    expect(
      (await request.patch(`/api/jobs/${jobId}/status`, { headers: client.headers, data: { status } })).status(),
    ).toBe(200);
  const invoice = await request.post(`/api/jobs/${jobId}/invoice`, { headers: client.headers });
  expect(invoice.status(), await invoice.text()).toBe(201);
  const invoiceId = (await invoice.json())._id as string;

  // The draft: the quote's PO is there to change; Save keeps it.
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/invoices/${invoiceId}`);
  await expect(page.getByTestId('invoice-company')).toHaveText(`Acme Storage ${tag}`);
  const po = page.getByRole('textbox', { name: 'PO number' });
  await expect(po).toHaveValue(`PO-${tag}`);
  await po.fill(`  PO-${tag}-B  `);
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-invoice-draft');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'PO number' })).toHaveValue(`PO-${tag}-B`);
  await page.getByRole('button', { name: 'Send invoice' }).click();
  // The server's answer, so a refused send says why (a CI run saw the draft stay, session 33).
  const sending = page.waitForResponse(
    (res) => new URL(res.url()).pathname === `/api/invoices/${invoiceId}/send` && res.request().method() === 'POST',
  );
  await page.getByRole('dialog', { name: 'Send this invoice?' }).getByRole('button', { name: 'Send invoice' }).click();
  const sent = await sending;
  expect(sent.status(), await sent.text()).toBe(200);
  await expect(page.getByText(`sent to ${client.email}`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'PO number' })).toHaveCount(0);
  await expect(page.getByTestId('invoice-po')).toHaveText(`PO No.: PO-${tag}-B`);

  // The client's invoice page: the company first under "Bill to", the PO box, the warehouse as the service address.
  const mail = await waitForMail(client.email, /^Invoice INV-/);
  expect(mail.text).toContain(`Acme Storage ${tag}, Pat Ortiz ${tag}, PO Box 77, Sacramento, CA 95812`);
  const invoiceLink = new URL(/https?:\/\/\S+\/invoice\/\S+/.exec(String(mail.text))![0]);
  await page.goto(invoiceLink.pathname + invoiceLink.search);
  const billTo = page.getByRole('region', { name: 'Bill to' });
  await expect(billTo).toContainText(`Acme Storage ${tag}`);
  await expect(billTo).toContainText(`Pat Ortiz ${tag}`);
  await expect(billTo).toContainText('PO Box 77, Sacramento, CA 95812');
  await expect(billTo).toContainText('Service address: 2200 Industrial Blvd, West Sacramento, CA 95691');
  await expect(page.getByText(`PO No.: PO-${tag}-B`)).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-client-invoice-page');
});

test("a client's service address renamed and corrected, refused removal under an open job, then removed", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = stamp();
  const client = await commercialClient(request, tag);
  const link = await sendQuote(request, client, `PO-${tag}`);
  const answered = await request.post(`/api/client-quotes/${link.pathname.split('/').pop()}/answer`, {
    data: { action: 'accept', token: link.searchParams.get('token'), signatureName: client.contact.name },
  });
  expect(answered.status(), await answered.text()).toBe(200);

  await signInAs(page, await apiToken(request));
  // The office's request and job pages name the company above the person.
  await page.goto(`/admin/quote-requests/${client.requestId}`);
  await expect(page.getByTestId('request-company')).toHaveText(`Acme Storage ${tag}`);
  const { jobs } = await (
    await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(client.contact.name)}`, {
      headers: client.headers,
    })
  ).json();
  await page.goto(`/admin/jobs/${jobs[0]._id}`);
  await expect(page.getByTestId('job-company')).toHaveText(`Acme Storage ${tag}`);
  const place = page.getByRole('combobox', { name: 'Service address' });
  await expect(place).toHaveValue('Warehouse: 2200 Industrial Blvd');
  expect(await place.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-job-page');

  await page.goto(`/admin/clients/${client.clientId}`);
  await expect(page.getByTestId('service-address')).toHaveCount(2);
  await page.getByRole('button', { name: 'Edit Warehouse' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit service address' });
  await expect(edit.getByLabel(/^Street/)).toHaveValue('2200 Industrial Blvd');
  await edit.getByLabel(/^Label/).fill('North warehouse');
  await edit.getByLabel(/^Street/).fill('2202 Industrial Blvd');
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'service-address-edit', { fullPage: false });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText('North warehouse', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('link', { name: '2202 Industrial Blvd, West Sacramento, CA 95691', exact: true }),
  ).toBeVisible();

  // The job sold at it is open: removing is refused, naming the job.
  await page.getByRole('button', { name: 'Remove North warehouse' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove this service address?' });
  await remove.getByRole('button', { name: 'Remove address' }).click();
  await expect(remove.getByRole('alert')).toContainText(/job J\w{9} \(Not Started\) is open at it/);
  await screenshot(page, 'service-address-remove-refused', { fullPage: false });
  await remove.getByRole('button', { name: 'Cancel' }).click();

  // The first address has no open job: it goes.
  await page.getByRole('button', { name: 'Remove Address 1' }).click();
  await page
    .getByRole('dialog', { name: 'Remove this service address?' })
    .getByRole('button', { name: 'Remove address' })
    .click();
  await expect(page.getByText('Address 1 removed')).toBeVisible();
  await expect(page.getByTestId('service-address')).toHaveCount(1);
  await expect(page.getByRole('link', { name: '100 Main St, Sacramento, CA 95814', exact: true })).toHaveCount(0);
  // The request at it keeps its address in the client's history.
  await expect(page.getByText('100 Main St, Sacramento, CA 95814').first()).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'service-addresses-after');
});
