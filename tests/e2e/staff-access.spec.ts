import { WEAK_PASSWORD } from '../../src/server/lib/password-policy';
import { messages } from '../../src/shared/messages';
import { E2E_ADMIN } from './support/constants';
import { expectNoAxeViolations } from './support/axe';
import { expect, screenshot, test } from './support/fixtures';
import { apiToken, createEmployee, signInAs } from './support/staff';

test('an admin signs in, is sent to the dashboard, and signs out', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(messages.loginRequired)).toBeVisible();

  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(messages.loginInvalid)).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Show or hide the password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(messages.loginSuccess)).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeTruthy();

  // A stored token on the sign-in page: straight back to the dashboard.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/admin$/);

  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  if (test.info().project.name === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText(messages.loggedOut)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
  // The session ended on the server too: a copy of the token is worthless.
  expect(
    (await page.request.get('/api/login/user-role', { headers: { authorization: `Bearer ${token}` } })).status(),
  ).toBe(401);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/login$/);
});

test('the guard sends a bad token to sign-in and an employee away from /admin, but into /employee', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('jwt', 'not-a-real-token'));
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);

  const crew = await createEmployee(request);
  const token = await apiToken(request, crew.username, crew.password);
  await page.evaluate((t) => localStorage.setItem('jwt', t), token);
  await page.goto('/admin/jobs');
  await expect(page).toHaveURL(/\/unauthorized$/);
  await expect(page.getByText('You do not have permission to view this page')).toBeVisible();
  await page.goto('/employee');
  await expect(page.getByRole('heading', { name: 'My open jobs' })).toBeVisible();
  await expect(page.getByRole('banner')).not.toContainText('Get A Quote');
});

test('the route guard shows "Authorizing..." while it checks the role', async ({ page, request }) => {
  await signInAs(page, await apiToken(request));
  await page.route('**/api/login/user-role', async (route) => {
    await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Authorizing...' })).toBeVisible();
  await expect(
    page.getByText('Please wait while we confirm that you have the permission to view this route.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});

test('an admin sees a weak password refused on its field, and signs a user out everywhere', async ({
  page,
  request,
}) => {
  const crew = await createEmployee(request);
  const crewToken = await apiToken(request, crew.username, crew.password);
  await signInAs(page, await apiToken(request));
  await page.goto('/admin/users');
  await page.getByLabel('Search').fill(crew.username);
  await page.getByRole('button', { name: `Edit ${crew.username}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await edit.getByLabel(/^Password/).fill('password1');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(edit.getByText(WEAK_PASSWORD)).toBeVisible();
  await expect(edit.getByLabel(/^Password/)).toBeFocused();
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-user-weak-password');

  await edit.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByText(`${crew.username} is signed out everywhere (1 session ended)`)).toBeVisible();
  expect((await request.get('/api/my/jobs', { headers: { authorization: `Bearer ${crewToken}` } })).status()).toBe(401);
});
