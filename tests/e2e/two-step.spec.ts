import { generate } from 'otplib';
import { paths } from '#shared/paths';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { createEmployee } from './support/staff';

/** A code of the next 30-second step: the one used to turn it on is never taken again. */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

// Issue 33 (two-step sign-in): a crew member turns it on with a code computed here as their app would,
// signs out, and signs in again with the password and then the code; a wrong code is refused.
test('a crew member turns on two-step sign-in, saves the recovery codes, and signs in with a code from the app', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const crew = await createEmployee(request, { fullName: `Two Step ${device()}` });
  const signIn = async (code?: () => Promise<string>) => {
    await page.goto(paths.login);
    await page.getByLabel('Username').fill(crew.username);
    await page.getByLabel('Password', { exact: true }).fill(crew.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    if (!code) return;
    const field = page.getByLabel('Code from your authenticator app');
    await expect(field).toBeFocused();
    await field.fill(await code());
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const openMenu = async () => {
    if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  };

  await signIn();
  await expect(page).toHaveURL(paths.employee.dashboard);
  await openMenu();
  await page.getByRole('navigation', { name: 'Employee menu' }).getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Off\./)).toBeVisible();
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();

  const form = page.getByRole('form', { name: 'Turn on two-step sign-in' });
  await expect(form.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await form.getByLabel('Key for the app').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoAxeViolations(page);
  await screenshot(page, 'two-step-scan');
  // A wrong code first: refused, the form stays.
  await form.getByLabel('6-digit code').fill('000000');
  await form.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('That code is not right')).toBeVisible();
  await form.getByLabel('6-digit code').fill(await generate({ secret }));
  await form.getByRole('button', { name: 'Turn on' }).click();

  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  // The earlier wrong code's warning does not stay beside the success.
  await expect(page.getByText('That code is not right')).toBeHidden();
  await expect(codes.first()).toHaveText(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
  await expectNoAxeViolations(page);
  await screenshot(page, 'two-step-codes');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the codes' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('recovery-codes.txt');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText(/since .*: you sign in with your password and the code/)).toBeVisible();
  await expect(page.getByText('10 of 10 recovery codes left', { exact: false })).toBeVisible();
  // After a reload, the same.
  await page.reload();
  await expect(page.getByText('10 of 10 recovery codes left', { exact: false })).toBeVisible();

  // Signed out, the password alone is not enough.
  await openMenu();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(async () => '123456');
  await expect(page.getByText('That code is not right')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByLabel('Code from your authenticator app')).toHaveValue('');
  await screenshot(page, 'two-step-sign-in');
  await page.getByLabel('Code from your authenticator app').fill(await nextCode(secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(paths.employee.dashboard);
});
