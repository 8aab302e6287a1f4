import type { APIRequestContext, Page } from '@playwright/test';
import { generate } from 'otplib';
import { paths } from '#shared/paths';
import type { SettingsView } from '#shared/schemas/settings';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, SHARED_STATE, test } from './support/fixtures';
import { apiToken, createAdmin, createEmployee, openUserDialog, signInAs } from './support/staff';

// Issue 33: where each person is signed in, with "Sign out this session"; and Settings requiring
// two-step sign-in of Owner and Office, which sends an admin without it to Your account first.

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** A sign-in through the API as a given browser would make it: its session is named after that browser. */
async function signInFrom(request: APIRequestContext, username: string, password: string, userAgent: string) {
  const res = await request.post('/api/login', { data: { username, password }, headers: { 'user-agent': userAgent } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).token as string;
}

const stillSignedIn = async (request: APIRequestContext, token: string) =>
  (await request.get('/api/login/user-role', { headers: { authorization: `Bearer ${token}` } })).status() === 200;

const fitsWidth = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );

test('a crew member signs out a phone left signed in from Your account, and an admin signs out one of their sessions', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const crew = await createEmployee(request, { fullName: `Sessions ${device()}` });
  const phone = await signInFrom(request, crew.username, crew.password, ANDROID_CHROME);
  const iphone = await signInFrom(request, crew.username, crew.password, IPHONE_SAFARI);

  await page.goto(paths.login);
  await page.getByLabel('Username').fill(crew.username);
  await page.getByLabel('Password', { exact: true }).fill(crew.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(paths.employee.dashboard);
  await page.goto(paths.employee.account);
  const card = page.getByRole('list', { name: 'Sessions' });
  await expect(card.getByRole('listitem')).toHaveCount(3);
  await expect(card.getByRole('listitem', { name: /this device$/ })).toHaveCount(1);
  await expect(card.getByRole('listitem', { name: 'Chrome on Android' })).toContainText(/Signed in .* · last used /);
  await fitsWidth(page);
  await expectNoAxeViolations(page);
  await screenshot(page, 'sessions-own');

  await card.getByRole('button', { name: /^Sign out this session: Chrome on Android/ }).click();
  await expect(page.getByText('Signed out: Chrome on Android')).toBeVisible();
  await expect(card.getByRole('listitem')).toHaveCount(2);
  expect(await stillSignedIn(request, phone)).toBe(false);
  expect(await stillSignedIn(request, iphone)).toBe(true);
  // After a reload, the same list.
  await page.reload();
  await expect(card.getByRole('listitem')).toHaveCount(2);

  // The office: Users → the crew member → their iPhone's session.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signInAs(page, await apiToken(request));
  await page.goto(paths.admin.users);
  const dialog = await openUserDialog(page, crew.username);
  await expect(dialog.getByText(`Where ${crew.username} is signed in`)).toBeVisible();
  const theirs = dialog.getByRole('list', { name: 'Sessions' });
  await expect(theirs.getByRole('listitem')).toHaveCount(2);
  await expectNoAxeViolations(page);
  await screenshot(page, 'sessions-user');
  await theirs.getByRole('button', { name: /^Sign out this session: Safari on iOS/ }).click();
  await expect(page.getByText(`${crew.username} is signed out of Safari on iOS`)).toBeVisible();
  await expect(theirs.getByRole('listitem')).toHaveCount(1);
  expect(await stillSignedIn(request, iphone)).toBe(false);
});

const settingsWith = async (request: APIRequestContext, token: string, requireTwoStep: boolean) => {
  const headers = { authorization: `Bearer ${token}` };
  const {
    logoUrl: _logo,
    updatedAt: _at,
    ...values
  } = (await (await request.get('/api/settings', { headers })).json()) as SettingsView;
  return request.put('/api/settings', { headers, data: { ...values, requireTwoStep } });
};

// Settings hold for every admin of the server: alone on its own (SHARED_STATE).
test(
  'with two-step sign-in required, an office account without it is sent to Your account, turns it on, and goes on to the dashboard',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    test.setTimeout(180_000);
    // The owner has two-step sign-in: only then may they require it.
    const owner = await createAdmin(request, 'owner');
    const ownerToken = await signInFrom(request, owner.username, owner.password, ANDROID_CHROME);
    const auth = { authorization: `Bearer ${ownerToken}` };
    const { secret: ownerSecret } = await (await request.post('/api/account/two-step/start', { headers: auth })).json();
    const confirmed = await request.post('/api/account/two-step/confirm', {
      headers: auth,
      data: { code: await generate({ secret: ownerSecret }) },
    });
    expect(confirmed.status()).toBe(200);
    const office = await createAdmin(request, 'desk');
    try {
      // Each token put in this browser's storage as the sign-in page does (an init script would put it
      // back at every later page load, over the sign-in this test makes through the page).
      const useToken = async (token: string) => {
        await page.goto(paths.login);
        await page.evaluate((t) => localStorage.setItem('jwt', t), token);
      };
      // An admin without it cannot require it: the box waits, and says what to do first.
      await useToken(await signInFrom(request, office.username, office.password, ANDROID_CHROME));
      await page.goto(paths.admin.settings);
      const box = page.getByRole('checkbox', { name: 'Require two-step sign-in for Owner and Office' });
      await expect(box).toBeDisabled();
      await expect(page.getByText('Turn on two-step sign-in for your own account first, on')).toBeVisible();
      await box.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-sign-in');

      // The owner requires it in Settings.
      await useToken(ownerToken);
      await page.goto(paths.admin.settings);
      await expect(box).toBeEnabled();
      await box.check();
      await page.getByRole('button', { name: 'Save Settings' }).click();
      await expect(page.getByText('Settings saved')).toBeVisible();
      await page.reload();
      await expect(box).toBeChecked();

      // The office signs in: Your account, and nothing else, until it is on.
      await page.goto(paths.login);
      await page.evaluate(() => localStorage.clear());
      await page.reload();
      await page.getByLabel('Username').fill(office.username);
      await page.getByLabel('Password', { exact: true }).fill(office.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(paths.admin.account);
      await expect(page.getByRole('alert').filter({ hasText: 'Two-step sign-in is required' })).toContainText(
        'Your business requires two-step sign-in for Owner and Office accounts.',
      );
      await fitsWidth(page);
      await expectNoAxeViolations(page);
      await screenshot(page, 'two-step-required');
      await page.goto(paths.admin.jobs);
      await expect(page).toHaveURL(paths.admin.account);

      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
      const form = page.getByRole('form', { name: 'Turn on two-step sign-in' });
      const secret = (await form.getByLabel('Key for the app').innerText()).replace(/\s/g, '');
      await form.getByLabel('6-digit code').fill(await generate({ secret }));
      await form.getByRole('button', { name: 'Turn on' }).click();
      await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await expect(page).toHaveURL(paths.admin.root);
      await page.goto(paths.admin.jobs);
      await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
      // Required: it cannot be turned off here.
      await page.goto(paths.admin.account);
      await expect(
        page.getByText('Your business requires two-step sign-in for Owner and Office accounts, so it stays on.'),
      ).toBeVisible();
      await expect(page.getByRole('button', { name: 'Turn off two-step sign-in' })).toHaveCount(0);

      // Ten new recovery codes, for the next code of the app: the way to more codes while it stays on.
      await page.getByRole('button', { name: 'New recovery codes' }).click();
      const renew = page.getByRole('dialog', { name: 'New recovery codes' });
      await renew
        .getByLabel('Code from your authenticator app')
        .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
      await renew.getByRole('button', { name: 'Make new codes' }).click();
      await expect(page.getByText('New recovery codes made')).toBeVisible();
      await expect(renew).toBeHidden();
      await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
      await screenshot(page, 'two-step-new-codes');
      await page.getByRole('button', { name: 'I have saved them' }).click();
      await expect(page).toHaveURL(paths.admin.account);
      await expect(page.getByText('10 of 10 recovery codes left', { exact: false })).toBeVisible();
    } finally {
      expect((await settingsWith(request, ownerToken, false)).status()).toBe(200);
    }
  },
);
