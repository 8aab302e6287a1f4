import fs from 'node:fs';
import { paths } from '#shared/paths';
import { todayIn } from '#shared/dates';
import { expectNoAxeViolations } from './support/axe';
import { expect, screenshot, test } from './support/fixtures';
import { apiToken, createAdmin, signInAs } from './support/staff';

// Issue 33 (decision 043): Office hands the books to the accountant from Reports, in the columns
// QuickBooks Online or Xero import (the API test checks every figure of the files).
test('Office downloads the invoices for Xero and the payments for QuickBooks Online from Reports', async ({
  page,
  request,
}) => {
  const office = await createAdmin(request, 'books', 'office');
  await signInAs(page, await apiToken(request, office.username, office.password));
  await page.goto(paths.admin.reports);
  const card = page.getByRole('heading', { name: 'For your accountant' });
  await card.scrollIntoViewIfNeeded();
  await expect(page.getByText(/in the columns QuickBooks Online imports/)).toBeVisible();

  // A backwards range is said at once, and nothing can be downloaded.
  const today = todayIn('America/Los_Angeles');
  await page.getByLabel('From').fill('2026-12-01');
  await page.getByLabel('To').fill('2026-11-01');
  await expect(page.getByText('The end date must be on or after the start date')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invoices', exact: true })).toHaveCount(0);

  await page.getByLabel('From').fill(today);
  await page.getByLabel('To').fill(today);
  await page.getByText('Xero', { exact: true }).click();
  await expect(page.getByText(/in the columns Xero imports/)).toBeVisible();
  const [invoices] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Invoices', exact: true }).click(),
  ]);
  expect(invoices.suggestedFilename()).toBe(`xero-invoices-${today}-to-${today}.csv`);
  expect(fs.readFileSync((await invoices.path())!, 'utf8').split(/\r?\n/)[0]).toBe(
    '\uFEFFContactName,EmailAddress,POAddressLine1,InvoiceNumber,Reference,InvoiceDate,DueDate,Description,Quantity,UnitAmount,AccountCode,TaxType,TaxAmount,Currency',
  );
  await expectNoAxeViolations(page);
  await screenshot(page, 'reports-accountant');

  await page.getByText('QuickBooks Online', { exact: true }).click();
  const [payments] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Payments', exact: true }).click(),
  ]);
  expect(payments.suggestedFilename()).toBe(`quickbooks-payments-${today}-to-${today}.csv`);
  expect(fs.readFileSync((await payments.path())!, 'utf8').split(/\r?\n/)[0]).toBe('\uFEFFDate,Description,Amount');
});
