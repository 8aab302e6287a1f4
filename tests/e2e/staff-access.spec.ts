import type { Page, Request } from '@playwright/test';
import { WEAK_PASSWORD } from '../../src/server/lib/password-policy';
import { messages } from '#shared/messages';
import { E2E_ADMIN } from './support/constants';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { apiToken, createEmployee, createQuoteRequest, openUserDialog, signInAs } from './support/staff';

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
  // The failed attempts' warnings do not follow onto the dashboard.
  await expect(page.getByText(messages.loginInvalid)).toHaveCount(0);
  await expect(page.getByText(messages.loginRequired)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeTruthy();

  // A stored token on the sign-in page: straight back to the dashboard.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/admin$/);

  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText(messages.loggedOut)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
  // The session ended on the server too (asked in the background): a copy of the token is worthless.
  await expect
    .poll(async () =>
      (await page.request.get('/api/login/user-role', { headers: { authorization: `Bearer ${token}` } })).status(),
    )
    .toBe(401);
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fusers$/);
});

/**
 * Counts the page's API calls from now; the function it returns waits until none is unanswered and
 * none began for a second, and stops counting.
 */
function apiQuiet(page: Page) {
  // The calls seen to begin: one that began before (a navigation's call the reload cut off) ends
  // without having counted, and must not make a call still on its way look answered (session 29's CI).
  const open = new Set<Request>();
  let last = Date.now();
  const isApi = (r: Request) => new URL(r.url()).pathname.startsWith('/api/');
  const began = (r: Request) => {
    if (!isApi(r)) return;
    open.add(r);
    last = Date.now();
  };
  const ended = (r: Request) => {
    if (!open.delete(r)) return;
    last = Date.now();
  };
  page.on('request', began);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return async () => {
    await expect.poll(() => open.size === 0 && Date.now() - last >= 1000, { intervals: [250] }).toBe(true);
    page.off('request', began);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  };
}

/** Signs out from the menu (opened first on a phone). */
async function signOut(page: Page) {
  if (device() === 'phone') await page.getByRole('button', { name: 'Open the menu' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
}

test('signing out of a freshly loaded page says so every time, and calls nothing but sign-out (issue 13.5)', async ({
  page,
  request,
}) => {
  await page.goto('/');
  for (const path of ['/admin', '/admin/quote-requests', '/admin/users']) {
    // A session of its own: signing out ends it.
    const token = await apiToken(request, undefined, undefined, { fresh: true });
    await page.evaluate((t) => localStorage.setItem('jwt', t), token);
    await page.goto(path);
    const quiet = apiQuiet(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Past the guard's wait (its "Authorizing..." is a heading too): the page itself is up.
    await expect(page.getByRole('heading', { name: 'Authorizing...' })).toHaveCount(0);
    // The page's own calls, all answered: 'networkidle' may have come before the list's fetch began,
    // and that fetch's event then reached the test after it began to listen (a slow host, session 25).
    await quiet();
    const calls: string[] = [];
    const record = (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) calls.push(`${r.method()} ${url.pathname}`);
    };
    page.on('request', record);
    await signOut(page);
    await expect(page.getByText(messages.loggedOut)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
    // Still there a moment later: no full page load replaced the sign-in page.
    await page.waitForTimeout(500);
    await expect(page.getByText(messages.loggedOut).first()).toBeVisible();
    page.off('request', record);
    expect(calls, path).toEqual(['POST /api/logout']);
  }
});

test('signing out on a lost signal does not hang: the browser forgets the token at once', async ({ page, request }) => {
  await signInAs(page, await apiToken(request));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // The sign-out call never answers, as on a dead connection.
  await page.route('**/api/logout', () => {});
  await signOut(page);
  await expect(page.getByText(messages.loggedOut)).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeNull();
});

test('the guard sends a bad token to sign-in and an employee away from /admin, but into /employee', async ({
  page,
  request,
}) => {
  await page.goto('/');
  await page.evaluate(() => localStorage.setItem('jwt', 'not-a-real-token'));
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin&session=ended$/);

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

test('a link opened signed out, or a session that ends, leads to sign-in and back to the page (issue 13.6)', async ({
  page,
  request,
}) => {
  const signIn = async () => {
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(messages.loginSuccess)).toBeVisible();
  };
  // The owner's e-mail link to a request, opened with nobody signed in.
  const created = await createQuoteRequest(request, `Return ${device()}${Date.now().toString(36)}`);
  await page.goto(`/admin/quote-requests/${created._id}`);
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.getByText('Your session has ended')).toHaveCount(0);
  await signIn();
  await expect(page).toHaveURL(new RegExp(`/admin/quote-requests/${created._id}$`));
  await expect(page.getByRole('heading', { name: 'Quote Request', exact: true })).toBeVisible();

  // The session ends while a page is open (signed out elsewhere): the next call says so, and
  // signing in again returns to the page that call was made from.
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  await request.post('/api/logout', { headers: { authorization: `Bearer ${token}` } });
  await page.getByLabel('Search').fill('nobody-by-this-name');
  await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Fusers.*&session=ended$/);
  await expect(page.getByText('Your session has ended')).toBeVisible();
  await signIn();
  await expect(page).toHaveURL(/\/admin\/users/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();

  // A "next" that leaves the site is ignored.
  await page.evaluate(() => localStorage.removeItem('jwt'));
  await page.goto('/login?next=%2F%2Fevil.example%2Fadmin');
  await signIn();
  await expect(page).toHaveURL(/\/admin$/);
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
  const edit = await openUserDialog(page, crew.username);
  await edit.getByLabel(/^Password/).fill('password1');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(edit.getByText(WEAK_PASSWORD)).toBeVisible();
  await expect(edit.getByLabel(/^Password/)).toBeFocused();
  // The dialog's buttons were disabled while it saved: their colours ease back, and axe reads them once settled.
  const signOut = edit.getByRole('button', { name: 'Sign out everywhere' });
  await expect(signOut).toBeEnabled();
  await expect(signOut).toHaveCSS('color', 'rgb(201, 42, 42)');
  await expect(signOut).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-user-weak-password');

  await edit.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByText(`${crew.username} is signed out everywhere (1 session ended)`)).toBeVisible();
  expect((await request.get('/api/my/jobs', { headers: { authorization: `Bearer ${crewToken}` } })).status()).toBe(401);
});

test("an admin resets a worker's calendar feed after a confirm: the old address stops, the next one works", async ({
  page,
  request,
}) => {
  const crew = await createEmployee(request);
  const crewAuth = { authorization: `Bearer ${await apiToken(request, crew.username, crew.password)}` };
  const feedPath = async () =>
    new URL((await (await request.get('/api/my/calendar-feed', { headers: crewAuth })).json()).url).pathname;
  const old = await feedPath();
  expect((await request.get(old)).status()).toBe(200);

  await signInAs(page, await apiToken(request));
  await page.goto('/admin/users');
  const edit = await openUserDialog(page, crew.username);
  await edit.getByRole('button', { name: 'Reset calendar feed' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset calendar feed' });
  await expect(
    confirm.getByText(`The calendar address ${crew.username} subscribed to stops working at once`),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-user-reset-feed');
  // Cancel changes nothing.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect((await request.get(old)).status()).toBe(200);

  await edit.getByRole('button', { name: 'Reset calendar feed' }).click();
  await confirm.getByRole('button', { name: 'Reset' }).click();
  await expect(
    page.getByText(`${crew.username}'s calendar feed address is reset: the old one stopped working`),
  ).toBeVisible();
  await expect(confirm).toBeHidden();
  expect((await request.get(old)).status()).toBe(404);
  const renewed = await feedPath();
  expect(renewed).not.toBe(old);
  expect((await request.get(renewed)).status()).toBe(200);
});

test('on a lost signal the guard keeps the crew signed in and offers to try again', async ({ page, request }) => {
  await signInAs(page, await apiToken(request));
  await page.route('**/api/login/user-role', (route) => route.abort('internetdisconnected'));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Cannot reach the server' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeTruthy();
  await page.unroute('**/api/login/user-role');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
