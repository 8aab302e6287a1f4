import { paths } from '#shared/paths';
import { expectNoAxeViolations } from './support/axe';
import { expect, screenshot, test } from './support/fixtures';
import { apiToken, createAdmin, signInAs } from './support/staff';

// Issue 33: an admin makes a read-only API key on Your account, copies it once, a script uses it,
// and the admin revokes it.
test('an admin makes a read-only API key shown once, a script reads with it but cannot write, and revoking stops it', async ({
  page,
  request,
}) => {
  const admin = await createAdmin(request, 'keys');
  await signInAs(page, await apiToken(request, admin.username, admin.password));
  await page.goto(paths.admin.account);
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  const form = page.getByRole('form', { name: 'Make an API key' });
  await form.getByRole('button', { name: 'Make key' }).click();
  await expect(page.getByText('Name the key, e.g. the tool that will use it')).toBeVisible();
  await form.getByLabel('Name').fill('Spreadsheet');
  await form.getByRole('button', { name: 'Make key' }).click();

  await expect(page.getByText('Spreadsheet: copy the key now')).toBeVisible();
  const key = await page.getByRole('textbox', { name: 'API key', exact: true }).inputValue();
  expect(key).toMatch(/^hk_[\w-]{43}$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await expectNoAxeViolations(page);
  await screenshot(page, 'api-key-made');

  // A script with the key: it reads, it may not write.
  const headers = { authorization: `Bearer ${key}` };
  expect((await request.get('/api/jobs', { headers })).status()).toBe(200);
  const write = await request.post('/api/price-book', {
    headers,
    data: { kind: 'service', name: 'By a script', unit: 'each', unitPrice: 10, taxable: false },
  });
  expect(write.status()).toBe(403);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('textbox', { name: 'API key', exact: true })).toHaveCount(0);
  // After a reload: listed by name and start, never the key; used just now.
  await page.reload();
  const item = page.getByRole('list', { name: 'API keys' }).getByRole('listitem', { name: 'Spreadsheet' });
  await expect(item).toContainText('Read only');
  await expect(item).toContainText(key.slice(0, 11));
  await expect(item).toContainText('last used');
  await expect(page.getByText(key)).toHaveCount(0);
  await screenshot(page, 'api-keys');

  await item.getByRole('button', { name: 'Revoke Spreadsheet' }).click();
  await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Spreadsheet is revoked')).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  expect((await request.get('/api/jobs', { headers })).status()).toBe(401);
});
