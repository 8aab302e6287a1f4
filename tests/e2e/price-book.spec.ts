import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { apiToken, signInAs } from './support/staff';

// Quoting without retyping (issue 28.10): the price book, at phone and desktop width.

const stamp = () => `${Date.now().toString(36)}${device().slice(0, 1)}`;
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('the owner keeps the price book: services by the hour or flat, and the materials the crew picks', async ({
  page,
}) => {
  await signInAs(page, await apiToken(page.request));
  const tag = stamp();
  await page.goto('/admin');
  if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('link', { name: 'Price book' }).click();
  await expect(page.getByRole('heading', { name: 'Price book', level: 1 })).toBeVisible();

  const add = async (entry: { kind?: string; name: string; description?: string; unit: string; price: string }) => {
    const kind = entry.kind ?? 'service';
    await page.getByRole('button', { name: `Add ${kind}` }).click();
    const dialog = page.getByRole('dialog', { name: `Add ${kind}` });
    // A material starts taxed and a service not (the Settings' defaults for materials and labor).
    if (kind === 'material') await expect(dialog.getByLabel('Charge sales tax')).toBeChecked();
    else await expect(dialog.getByLabel('Charge sales tax')).not.toBeChecked();
    await dialog.getByLabel(/^Name/).fill(entry.name);
    if (entry.description) await dialog.getByLabel(/^Description/).fill(entry.description);
    await dialog.getByLabel(/^Unit/).fill(entry.unit);
    await dialog.getByLabel(/^Price/).fill(entry.price);
    await dialog.getByRole('button', { name: 'Add' }).click();
    return dialog;
  };
  await expect(
    await add({ name: `Ceiling fan ${tag}`, description: 'Existing box', unit: 'each', price: '149.50' }),
  ).toBeHidden();
  await expect(await add({ name: `Labor ${tag}`, unit: 'hour', price: '85' })).toBeHidden();
  await expect(await add({ kind: 'material', name: `Gate hinge ${tag}`, unit: 'each', price: '12.50' })).toBeHidden();
  // The same name twice: the server's words, in the dialog kept open.
  const twice = await add({ kind: 'material', name: `gate HINGE ${tag}`, unit: 'each', price: '3' });
  await expect(twice.getByText(`The price book already has a material named "gate HINGE ${tag}"`)).toBeVisible();
  await twice.getByRole('button', { name: 'Cancel' }).click();

  await page.getByLabel('Search').fill(tag);
  await expect(page.getByText('3 entries')).toBeVisible();
  const row = (name: string) => page.getByRole(device() === 'phone' ? 'listitem' : 'row').filter({ hasText: name });
  await expect(row(`Ceiling fan ${tag}`)).toContainText('Flat price');
  await expect(row(`Ceiling fan ${tag}`)).toContainText('$149.50');
  await expect(row(`Labor ${tag}`)).toContainText('Hourly labor');
  await expect(row(`Gate hinge ${tag}`)).toContainText('Material');
  await expect(row(`Gate hinge ${tag}`)).toContainText('Taxed');
  expect(await fitsWidth(page)).toBe(true);
  await expectNoAxeViolations(page);
  await screenshot(page, 'price-book');

  await page.getByRole('button', { name: `Edit Ceiling fan ${tag}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit price book entry' });
  await edit.getByLabel(/^Price/).fill('165');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row(`Ceiling fan ${tag}`)).toContainText('$165.00');
  await page.reload();
  await expect(row(`Ceiling fan ${tag}`)).toContainText('$165.00');

  await page.getByRole('button', { name: `Delete Labor ${tag}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('2 entries')).toBeVisible();
});
