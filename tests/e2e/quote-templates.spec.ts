import type { Page } from '@playwright/test';
import { device, expect, screenshot, test } from './support/fixtures';
import { apiToken, createQuoteRequest, signInAs } from './support/staff';

// Issue 28.10's rest: a quote saved as a template and a new quote started from it; the builder's
// Preview is the client's page; the builder opened at #quote-builder sits right under the top bar.

const stamp = () => `${Date.now().toString(36)}${device().slice(0, 1)}`;
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('save a quote as a template, start another from it, and preview it as the client will see it', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = stamp();
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const first = await createQuoteRequest(request, `Template One ${tag}`);
  const second = await createQuoteRequest(request, `Template Two ${tag}`);
  for (const r of [first, second]) await request.put(`/api/quoterequest/markAccepted/${r._id}`, { headers });

  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/quote-requests/${first._id}#quote-builder`);
  const builder = page.getByRole('heading', { name: 'Quote Builder' });
  await expect(builder).toBeVisible();
  // Opened at the builder, the page scrolls under the sticky top bar: no gap above the bar, the title below it.
  await expect.poll(() => page.evaluate(() => document.querySelector('header')!.getBoundingClientRect().top)).toBe(0);
  const barBottom = await page.evaluate(() => document.querySelector('header')!.getBoundingClientRect().bottom);
  expect((await builder.boundingBox())!.y).toBeGreaterThanOrEqual(barBottom);
  await screenshot(page, 'quote-builder-opened-at', { fullPage: false });

  await page.getByRole('button', { name: 'Add Material' }).click();
  const material = page.getByRole('dialog', { name: 'Add Material' });
  await material.getByLabel(/^Name/).fill(`Deck boards ${tag}`);
  await material.getByLabel(/^Unit Price/).fill('12.50');
  await material.getByLabel(/^Quantity/).fill('10');
  await material.getByRole('button', { name: 'Add' }).click();
  await expect(material).toBeHidden();
  await page.getByRole('button', { name: 'Add Flat Price' }).click();
  const flat = page.getByRole('dialog', { name: 'Add Flat Price' });
  await flat.getByLabel(/^Description/).fill('Haul away the old boards');
  await flat.getByLabel(/^Price/).fill('60');
  await flat.getByRole('button', { name: 'Add' }).click();
  await expect(flat).toBeHidden();
  await page.getByLabel('Notes for the client').fill('Boards are pressure-treated pine.');
  await page.getByLabel('Internal notes').fill(`Secret ${tag}: dog in the yard`);

  await page.getByRole('button', { name: 'Save as template' }).click();
  const naming = page.getByRole('dialog', { name: 'Save as template' });
  await naming.getByLabel(/^Template name/).fill(`Deck refresh ${tag}`);
  await naming.getByRole('button', { name: 'Save template' }).click();
  await expect(naming).toBeHidden();
  await expect(page.getByText(`Template Deck refresh ${tag} saved`)).toBeVisible();

  // The second request's quote starts from it: lines, prices (editable) and client notes, no internal notes.
  await page.goto(`/admin/quote-requests/${second._id}#quote-builder`);
  await expect(page.getByRole('heading', { name: 'Quote Builder' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Start from a template' }).click();
  await page.getByRole('option', { name: `Deck refresh ${tag}` }).click();
  await expect(page.getByText(`Started from Deck refresh ${tag}`)).toBeVisible();
  const materials = page.getByRole('region', { name: 'Materials' });
  await expect(materials).toContainText(`Deck boards ${tag} — 10 × $12.50 = $125.00`);
  await expect(page.getByRole('region', { name: 'Labor' })).toContainText('Haul away the old boards — Flat price');
  await expect(page.getByLabel('Notes for the client')).toHaveValue('Boards are pressure-treated pine.');
  await expect(page.getByLabel('Internal notes')).toHaveValue('');
  await materials.getByRole('button', { name: /^Edit/ }).first().click();
  const edit = page.getByRole('dialog', { name: /Edit Material/ });
  await edit.getByLabel(/^Unit Price/).fill('14');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(materials).toContainText('10 × $14.00 = $140.00');
  await page.getByLabel('Internal notes').fill(`Office ${tag}: gate sticks`);
  await page.getByLabel('PO number').fill('PO-7788');
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'quote-builder-from-template');

  // Preview: the client's own page, with its buttons, the notes the client reads, never the internal ones.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview: the quote as the client will see it' });
  await expect(preview.getByRole('heading', { name: 'Your Quote' })).toBeVisible();
  await expect(preview.getByRole('button', { name: 'Accept the quote' })).toBeVisible();
  const sheet = preview.getByRole('region', { name: 'Quote preview' });
  await expect(sheet).toContainText('Boards are pressure-treated pine.');
  await expect(sheet).toContainText('PO No.: PO-7788');
  // 140 + 60 = 200 before tax; tax 8% on the boards (11.20): 211.20.
  await expect(sheet).toContainText('$211.20');
  await expect(preview).not.toContainText(`Office ${tag}`);
  await screenshot(page, 'quote-preview', { fullPage: false });
  await preview.getByRole('button', { name: 'Close preview' }).click();
  await expect(preview).toBeHidden();
  // Nothing was sent by the preview.
  expect((await request.get(`/api/quotes/by-quote-request/${second._id}`, { headers })).status()).toBe(404);

  // The owner renames and deletes templates under the price book.
  await page.goto('/admin/price-book');
  await expect(page.getByRole('heading', { name: 'Quote templates', level: 2 })).toBeVisible();
  const row = page.getByRole(device() === 'phone' ? 'listitem' : 'row').filter({ hasText: `Deck refresh ${tag}` });
  await expect(row).toContainText('2 lines');
  await expect(row).toContainText('$185.00');
  expect(await fitsWidth(page)).toBe(true);
  await screenshot(page, 'quote-templates');
  await page.getByRole('button', { name: `Edit Deck refresh ${tag}` }).click();
  const rename = page.getByRole('dialog', { name: 'Rename template' });
  await rename.getByLabel(/^Template name/).fill(`Deck redo ${tag}`);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Deck redo ${tag}`).first()).toBeVisible();
  await page.getByRole('button', { name: `Delete Deck redo ${tag}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('button', { name: `Delete Deck redo ${tag}` })).toHaveCount(0);
});

test('a phoned-in request opens at its Quote Builder right under the top bar, with no gap above the bar', async ({
  page,
}) => {
  await signInAs(page, await apiToken(page.request));
  await page.goto('/admin/quote-requests/new');
  const form = page.getByRole('form', { name: 'Phoned-in request' });
  await form.getByLabel('First Name').fill('Gap');
  await form.getByLabel('Last Name').fill(`Check ${stamp()}`);
  await form.getByLabel('Phone').fill(`(530) 555-${String(1000 + Math.floor(Math.random() * 9000))}`);
  await form.getByLabel('Street').fill('9 Gap Rd');
  await form.getByLabel('City').fill('Davis');
  await form.getByLabel('State').fill('CA');
  await form.getByLabel('Zip').fill('95616');
  await form.getByLabel('Specifications').fill('Patch the drywall by the stairs.');
  await form.getByRole('button', { name: 'Save request' }).click();
  const builder = page.getByRole('heading', { name: 'Quote Builder' });
  await expect(builder).toBeInViewport();
  const bar = await page.evaluate(() => document.querySelector('header')!.getBoundingClientRect().toJSON() as DOMRect);
  expect(bar.top).toBe(0);
  expect((await builder.boundingBox())!.y).toBeGreaterThanOrEqual(bar.bottom);
  await screenshot(page, 'quote-builder-after-phone-in', { fullPage: false });
  // The full page pictured from its top: the bar at the top, not drawn where the window was scrolled to.
  await screenshot(page, 'quote-builder-after-phone-in-full');
  await expect(builder).toBeInViewport();
});
