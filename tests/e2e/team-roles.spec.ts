import { paths } from '#shared/paths';
import { messages } from '#shared/messages';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createAdmin, createEmployee, signInAs, soldJobFor } from './support/staff';
import { futureDate } from '../helpers/dates';

// Issue 33 (decision 042): four team roles. The Owner gives each person theirs on Users; Office works
// the back office without the Owner's pages, which its menu does not offer and whose links it cannot open.

const OWNER_PAGES = ['Users', 'Activity', 'Your data', 'System', 'Settings'];
const OFFICE_PAGES = [
  'Dashboard',
  'Calendar',
  'Quote Requests',
  'Clients',
  'Jobs',
  'Invoices',
  'Reports',
  'Price book',
];

test('the Owner gives a new person the Office role on Users, and the list says so', async ({ page, request }) => {
  const owner = await createAdmin(request, 'roles');
  await signInAs(page, await apiToken(request, owner.username, owner.password));
  const username = `desk.${Date.now().toString(36)}`;
  await page.goto(paths.admin.users);
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  // Crew by default, with what each role may do under the field.
  await expect(add.getByRole('combobox', { name: 'Role' })).toHaveValue('Crew');
  await expect(add.getByText('Their own visits and job records')).toBeVisible();
  await add.getByLabel('Username').fill(username);
  await add.getByLabel(/^Password/).fill('front-desk-password-7');
  await add.getByLabel('Full Name').fill('Dana Desk');
  await add.getByRole('combobox', { name: 'Role' }).click();
  for (const role of ['Owner', 'Office', 'Crew lead', 'Crew'])
    await expect(page.getByRole('option', { name: role, exact: true })).toBeVisible();
  await page.getByRole('option', { name: 'Office', exact: true }).click();
  await expect(
    add.getByText('Requests, quotes, clients, calendar, jobs, invoices, payments and reports'),
  ).toBeVisible();
  await screenshot(page, 'user-role-office', { fullPage: false });
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText(messages.userAdded)).toBeVisible();
  await page.getByLabel('Search').fill(username);
  const listed = page.locator(device() === 'phone' ? 'li' : 'tr').filter({ hasText: username });
  await expect(listed.getByText('Office', { exact: true })).toBeVisible();

  // Office signs in with the password the Owner gave (the next test follows them in the browser).
  const token = await apiToken(request, username, 'front-desk-password-7');
  const role = await request.get('/api/login/user-role', { headers: { authorization: `Bearer ${token}` } });
  expect(await role.json()).toEqual({ valid: true, userRole: 'admin', teamRole: 'office' });
});

test('Office sees only the office’s screens: no Owner page in the menu, a link to one shows the 401 page', async ({
  page,
  request,
}) => {
  const office = await createAdmin(request, 'desk', 'office');
  await signInAs(page, await apiToken(request, office.username, office.password));
  await page.goto(paths.admin.dashboard);
  if (device() === 'desktop') await expect(page.getByText('Admin · Office')).toBeVisible();
  else await page.getByRole('button', { name: 'Open the menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  for (const name of OFFICE_PAGES) await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Your account' })).toBeVisible();
  for (const name of OWNER_PAGES) await expect(menu.getByRole('link', { name, exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, 'office-menu', { fullPage: false });

  // The office's own pages open and answer: each loads without a refused call (the page fixture fails
  // on any console error, a 403 included).
  const addresses = await Promise.all(
    [...OFFICE_PAGES, 'Your account'].map((name) => menu.getByRole('link', { name, exact: true }).getAttribute('href')),
  );
  for (const address of addresses) {
    await page.goto(address!);
    await expect(page.getByRole('heading', { level: 1 }), address!).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The price book names who sets the tax defaults, without a link Office could not open.
    if (address === paths.admin.priceBook) {
      await expect(page.getByText('(the Owner sets this in Settings).', { exact: false })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Settings → Quotes' })).toHaveCount(0);
      await screenshot(page, 'office-price-book', { fullPage: false });
    }
  }
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();

  // The Owner's pages, by their addresses, show the 401 page; the server refuses their calls too.
  for (const path of [
    paths.admin.settings,
    paths.admin.users,
    paths.admin.data,
    paths.admin.activity,
    paths.admin.system,
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Unauthorized' }), path).toBeVisible();
  }
  await screenshot(page, 'office-unauthorized', { fullPage: false });
  const token = await apiToken(request, office.username, office.password);
  const refused = await request.get('/api/settings', { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toBe('This needs the Owner’s account');

  // Your account has no API keys for Office: they are the Owner's.
  await page.goto(paths.admin.account);
  await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Make an API key' })).toHaveCount(0);
});

test('a Crew lead signs in to the crew’s app, as Crew does, and the back office is closed to them', async ({
  page,
  request,
}) => {
  const lead = await createAdmin(request, 'lead', 'crew_lead');
  await page.goto(paths.login);
  await page.getByLabel('Username').fill(lead.username);
  await page.getByLabel('Password', { exact: true }).fill(lead.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(paths.employee.dashboard);
  if (device() === 'desktop') await expect(page.getByText('Employee · Crew lead')).toBeVisible();
  await page.goto(paths.admin.jobs);
  await expect(page.getByRole('heading', { name: 'Unauthorized' })).toBeVisible();
});

test('a Crew lead takes a helper along on their visit from the job page, and the helper has the visit', async ({
  page,
  request,
}) => {
  const tag = Date.now().toString(36);
  const lead = await createAdmin(request, 'crewlead', 'crew_lead');
  const helper = await createEmployee(request, { fullName: `Hana Helper ${tag}` });
  const jobId = await soldJobFor(request, `Lead Client ${tag}`, lead.id, waitForMail);
  const office = { authorization: `Bearer ${await apiToken(request)}` };
  const booked = await request.post(`/api/jobs/${jobId}/visits`, {
    headers: office,
    data: { date: futureDate(3), start: '09:00', end: '11:00', workerIds: [lead.id], confirm: true },
  });
  expect(booked.status()).toBe(201);
  const visitId = (await booked.json())._id as string;

  await signInAs(page, await apiToken(request, lead.username, lead.password));
  await page.goto(`/employee/jobs/${jobId}`);
  await expect(page.getByRole('heading', { name: 'Your crew' })).toBeVisible();
  await expect(page.getByText(/^Booked: Crew lead crewlead$/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Helpers' }).click();
  await page.getByRole('combobox', { name: 'Helpers' }).fill('Hana');
  await page.getByRole('option', { name: `Hana Helper ${tag}` }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save the crew' }).click();
  await expect(page.getByText(/^The crew for .* is saved$/)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'lead-helpers');

  // After a reload the helper is still there; the helper has the visit in their own list.
  await page.reload();
  // Its pill in the field (the closed list holds the option too).
  await expect(page.getByText(`Hana Helper ${tag}`, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save the crew' })).toHaveCount(0);
  const helperToken = await apiToken(request, helper.username, helper.password);
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const theirs = await request.get(`/api/my/visits?from=${from}&to=${to}`, {
    headers: { authorization: `Bearer ${helperToken}` },
  });
  expect((await theirs.json()).visits.map((v: { _id: string }) => v._id)).toContain(visitId);
});
