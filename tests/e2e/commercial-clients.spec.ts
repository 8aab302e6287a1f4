import type { Page } from '@playwright/test';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, signInAs } from './support/staff';

// Issue 28.5: a commercial client with a company, a billing address and two service addresses; the
// office enters a request at the second, the job is there, and the PO number reaches the invoice.

const stamp = () => `${Date.now().toString(36)}${device().slice(0, 1)}`;
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('a commercial client with two service addresses: a job at the second, the PO number on its invoice', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = stamp();
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const email = `ap.${tag}@acme-storage.test`;
  const created = await request.post('/api/quoterequest/create', {
    data: {
      contactPerson: { name: `Pat Ortiz ${tag}`, email, phone: '916-555-0142' },
      address: { street: '100 Main St', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Front door closer.',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const clientId = (await created.json()).quoteRequest.clientId as string;

  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/clients/${clientId}`);
  await page.getByRole('button', { name: 'Edit client' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit client' });
  await edit.getByLabel('Company').fill(`Acme Storage ${tag}`);
  await edit.getByLabel('Billing street').fill('PO Box 77');
  await edit.getByLabel('Billing city').fill('Sacramento');
  await edit.getByLabel('Billing state').fill('CA');
  await edit.getByLabel('Billing zip').fill('95812');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByTestId('client-company')).toHaveText(`Acme Storage ${tag}`);
  await expect(page.getByText('PO Box 77, Sacramento, CA 95812')).toBeVisible();

  await page.getByRole('button', { name: 'Add service address' }).click();
  const add = page.getByRole('dialog', { name: 'Add service address' });
  await add.getByLabel(/^Label/).fill('Warehouse');
  await add.getByLabel(/^Street/).fill('2200 Industrial Blvd');
  await add.getByLabel(/^City/).fill('West Sacramento');
  await add.getByLabel(/^Zip/).fill('95691');
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Warehouse', { exact: true })).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-client');

  // A request at the second address, from the client's page: their contact filled in, the place chosen.
  await page.getByRole('link', { name: /^New request at 2200 Industrial Blvd/ }).click();
  const form = page.getByRole('form', { name: 'Phoned-in request' });
  // The field shows the name and street (the whole fits a phone); the list adds the city.
  const chosen = form.getByRole('combobox', { name: 'Service address' });
  await expect(chosen).toHaveValue('Warehouse: 2200 Industrial Blvd');
  expect(await chosen.evaluate((input) => input.scrollWidth <= input.clientWidth)).toBe(true);
  await expect(form.getByLabel('Street')).toHaveValue('2200 Industrial Blvd');
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await form.getByLabel('Specifications').fill('Dock door spring is broken.');
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-client-new-request');
  await form.getByRole('button', { name: 'Save request' }).click();
  await expect(page.getByRole('heading', { name: 'Quote Builder' })).toBeInViewport();
  await expect(page.getByText('2200 Industrial Blvd').first()).toBeVisible();

  await page.getByLabel('PO number').fill(`PO-${tag}`);
  await page.getByRole('button', { name: 'Add Material' }).click();
  const material = page.getByRole('dialog', { name: 'Add Material' });
  await material.getByLabel(/^Name/).fill('Door spring');
  await material.getByLabel(/^Unit Price/).fill('120');
  await material.getByRole('button', { name: 'Add' }).click();
  await expect(material).toBeHidden();
  await page.getByRole('button', { name: 'Send Quote' }).click();
  const mail = await waitForMail(email, /^Your quote QT/);
  expect(mail.text).toContain(`PO-${tag}`);

  // The client's yes; the job is at the warehouse; done, its invoice carries the PO and bills the PO box.
  const link = new URL(/http:\/\/127\.0\.0\.1:\d+\/quote\/QT\d{8}\?token=[\w.-]+/.exec(String(mail.text))![0]);
  const answered = await request.post(`/api/client-quotes/${link.pathname.split('/').pop()}/answer`, {
    data: { action: 'accept', token: link.searchParams.get('token'), signatureName: 'Pat Ortiz' },
  });
  expect(answered.status(), await answered.text()).toBe(200);
  const { jobs } = await (
    await request.get(`/api/jobs?page=1&limit=5&search=${encodeURIComponent(`Pat Ortiz ${tag}`)}`, { headers })
  ).json();
  const jobId = jobs[0]._id as string;
  await page.goto(`/admin/jobs/${jobId}`);
  await expect(page.getByText('2200 Industrial Blvd').first()).toBeVisible();
  // An open job may move to another of the client's places, and back.
  const place = page.getByRole('combobox', { name: 'Service address' });
  await expect(place).toHaveValue('Warehouse: 2200 Industrial Blvd');
  await place.click();
  await page.getByRole('option', { name: 'Address 1: 100 Main St, Sacramento' }).click();
  await expect(page.getByText('The job is now at 100 Main St')).toBeVisible();
  await place.click();
  await page.getByRole('option', { name: 'Warehouse: 2200 Industrial Blvd, West Sacramento' }).click();
  await expect(page.getByText('The job is now at 2200 Industrial Blvd')).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-client-job');
  for (const status of ['In Progress', 'Completed'])
    expect((await request.patch(`/api/jobs/${jobId}/status`, { headers, data: { status } })).status()).toBe(200);
  const invoice = await request.post(`/api/jobs/${jobId}/invoice`, { headers });
  expect(invoice.status(), await invoice.text()).toBe(201);
  await page.goto(`/admin/invoices/${(await invoice.json())._id}`);
  await expect(page.getByTestId('invoice-po')).toHaveText(`PO No.: PO-${tag}`);
  await expect(page.getByText('PO Box 77, Sacramento, CA 95812')).toBeVisible();
  await expect(page.getByText('Service address: 2200 Industrial Blvd, West Sacramento, CA 95691')).toBeVisible();
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'commercial-client-invoice');
});
