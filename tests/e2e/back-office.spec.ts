import { addDays, formatShortDay } from '#shared/dates';
import { messages } from '#shared/messages';
import { expectNoAxeViolations } from './support/axe';
import { photo } from './support/files';
import { device, expect, screenshot, SHARED_STATE, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, createQuoteRequest, signInAs } from './support/staff';
import { formatDate } from '../../src/web/components/date-text';

const uid = () => `${device()}${Date.now().toString(36)}`;

test.beforeEach(async ({ page, request }) => {
  await signInAs(page, await apiToken(request));
});

// It compares the dashboard's count of every pending request with the API's: alone, after the others.
test(
  'the dashboard shows real counts; the Pending tile opens the list filtered to Pending',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    const name = `Dash ${uid()}`;
    await createQuoteRequest(request, name);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Client Activity' })).toBeVisible();
    const stats = await (
      await request.get('/api/dashboard', { headers: { authorization: `Bearer ${await apiToken(request)}` } })
    ).json();
    await expect(
      page.getByRole('button', { name: new RegExp(`Pending Quote Requests: ${stats.pendingQuoteRequests}`) }),
    ).toBeVisible();
    await expect(page.getByRole('cell', { name })).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, 'admin-dashboard');
    await page.getByRole('button', { name: /Pending Quote Requests/ }).click();
    await expect(page).toHaveURL(/\/admin\/quote-requests\?status=Pending$/);
    await expect(page.getByRole('combobox', { name: 'Filter' })).toHaveValue('Pending');
  },
);

test('staff search the requests, open one with its photos, and accept it; the client is e-mailed', async ({
  page,
  request,
}) => {
  const name = `Acceptance ${uid()}`;
  const p = await photo('porch.jpg', '#964');
  const created = await createQuoteRequest(request, name, {
    images: [`data:image/jpeg;base64,${p.buffer.toString('base64')}`],
  });
  await page.goto('/admin/quote-requests');
  await expect(page.getByRole('heading', { name: 'Quote Requests' })).toBeVisible();
  await page.getByLabel('Search by name').fill(name);
  await expect(page.getByRole('status').filter({ hasText: '1 result' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-quote-requests');
  if (device() === 'phone') {
    // On a phone each request is a card with its action in view; nothing scrolls sideways (issue 13.9).
    const card = page.locator('li').filter({ hasText: name });
    await expect(card.getByRole('link', { name: 'View' })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  await page.getByRole('link', { name: 'View' }).click();

  await expect(page).toHaveURL(new RegExp(`/admin/quote-requests/${created._id}$`));
  await expect(page.getByRole('heading', { name: 'Quote Request', exact: true })).toBeVisible();
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await expect(page.getByText('Replace two interior doors and touch up the trim.')).toBeVisible();
  await expect(page.getByText(formatDate(created.preferredEndDate))).toBeVisible();
  const image = page.getByRole('img', { name: 'Image 1' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-quote-request-pending');

  await page.getByRole('button', { name: 'Accept Quote Request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Accept' });
  await expect(dialog).toContainText('An e-mail will be sent');
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText(messages.quoteAccepted)).toBeVisible();
  await expect(page.getByText('Accepted', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept Quote Request' })).toHaveCount(0);
  await waitForMail(
    created._id ? `${name.toLowerCase().replace(/\W+/g, '.')}@home.test` : '',
    /a quote is being prepared/,
  );
});

test('staff decline a request with a reason; the client sees Declined with the contact note', async ({
  page,
  request,
}) => {
  const name = `Decline ${uid()}`;
  const created = await createQuoteRequest(request, name);
  await page.goto(`/admin/quote-requests/${created._id}`);
  await page.getByRole('button', { name: 'Decline Quote Request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Decline' });
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(dialog.getByText('Please give a reason')).toBeVisible();
  await dialog.getByLabel('What is the reason for declining this quote request?').fill('We do not service that area.');
  await dialog.getByRole('button', { name: 'Decline' }).click();
  await expect(page.getByText(messages.quoteDeclined)).toBeVisible();
  await expect(page.getByText('Declined', { exact: true })).toBeVisible();
  const mail = await waitForMail(
    `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`,
    new RegExp(`^Your quote request ${created.quoteNumber}$`),
  );
  expect(mail.text).toContain('We do not service that area.');

  await page.goto(`/quote-request-status/${created._id}`);
  await expect(page.getByText('Declined', { exact: true })).toBeVisible();
  await expect(page.getByText(/Please check email for more info, or/)).toBeVisible();
  await page.getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

test('a request page without a job asks for nothing that is not there: no 404 while Pending, Accepted or Quote Sent', async ({
  page,
  request,
}) => {
  const name = `No Job ${uid()}`;
  const created = await createQuoteRequest(request, name);
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const missing: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  const open = async (status: string) => {
    await page.goto(`/admin/quote-requests/${created._id}`);
    await expect(page.getByText(status, { exact: true }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  };
  await open('Pending');
  await request.put(`/api/quoterequest/markAccepted/${created._id}`, { headers: admin });
  await open('Accepted');
  const sent = await request.post('/api/quotes/sendQuote', {
    headers: admin,
    data: {
      quoteRequestId: created._id,
      clientName: name,
      projectName: 'Trim',
      materials: [{ name: 'Trim', unitPrice: 10, quantity: 2 }],
      labor: [],
    },
  });
  expect(sent.status()).toBe(201);
  await open('Quote Sent');
  expect(missing).toEqual([]);
});

test('a failed decision shows the spec toast and leaves the request Pending', async ({ page, request }) => {
  const created = await createQuoteRequest(request, `Failing ${uid()}`);
  await page.goto(`/admin/quote-requests/${created._id}`);
  await page.route('**/api/quoterequest/markAccepted/**', (route) =>
    route.fulfill({ status: 409, json: { statusCode: 409, error: 'Conflict', message: 'x' } }),
  );
  await page.getByRole('button', { name: 'Accept Quote Request' }).click();
  await page.getByRole('dialog', { name: 'Confirm Accept' }).getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText(messages.quoteAcceptError)).toBeVisible();
  await expect(page.getByText('Pending', { exact: true })).toBeVisible();
});

test('admins add, edit and delete users, with the spec messages', async ({ page }) => {
  const username = `e2e.${uid()}`;
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Add User' }).click();
  const add = page.getByRole('dialog', { name: 'Add User' });
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(add.getByText('Password must be at least 8 characters')).toBeVisible();
  await add.getByLabel('Username').fill(username);
  await add.getByLabel(/^Password/).fill('crew-password-9');
  await add.getByLabel('Full Name').fill('Morgan Mason');
  await add.getByLabel('Email').fill('morgan@crew.test');
  await add.getByLabel('Phone').fill('916-555-0177');
  // The spec's four skills are offered; the business types its own as well.
  await add.getByLabel('Tags').click();
  await page.getByRole('option', { name: 'Tile' }).click();
  await add.getByLabel('Tags').fill('Pressure washing');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(add).toHaveCSS('opacity', '1'); // shown, not fading in
  await screenshot(page, 'add-user-skills', { fullPage: false });
  await add.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText(messages.userAdded)).toBeVisible();
  await page.getByLabel('Search').fill(username);
  await expect(page.getByRole('status').filter({ hasText: '1 user' })).toBeVisible();
  const listed = page.locator(device() === 'phone' ? 'li' : 'tr').filter({ hasText: username });
  await expect(listed.getByText('Morgan Mason', { exact: true })).toBeVisible();
  // The role reads whole, the worker's skills are listed, and on a phone Edit and Delete are in view (issue 13.9).
  await expect(listed.getByText('Crew', { exact: true })).toBeVisible();
  expect(await listed.getByText('Crew', { exact: true }).evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  for (const skill of ['Tile', 'Pressure washing']) {
    await expect(listed.getByText(skill, { exact: true })).toBeVisible();
    expect(await listed.getByText(skill, { exact: true }).evaluate((e) => e.scrollWidth <= e.clientWidth), skill).toBe(
      true,
    );
  }
  await expect(page.getByRole('button', { name: `Edit ${username}` })).toBeInViewport();
  await expect(page.getByRole('button', { name: `Delete ${username}` })).toBeInViewport();
  await expectNoAxeViolations(page);
  await screenshot(page, 'admin-users');

  await page.getByRole('button', { name: 'Add User' }).click();
  const dup = page.getByRole('dialog', { name: 'Add User' });
  await dup.getByLabel('Username').fill(username.toUpperCase());
  await dup.getByLabel(/^Password/).fill('crew-password-9');
  await dup.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText(messages.usernameTaken)).toBeVisible();
  await dup.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: `Edit ${username}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit User' });
  await expect(edit.getByLabel('Full Name')).toHaveValue('Morgan Mason');
  await edit.getByLabel('Full Name').fill('Morgan Mason-Reyes');
  await edit.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText(messages.userUpdated)).toBeVisible();
  await expect(page.getByText('Morgan Mason-Reyes', { exact: true })).toBeVisible();

  // A refused delete puts the row back.
  await page.route('**/api/users/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ status: 409, json: { statusCode: 409, error: 'Conflict', message: 'x' } })
      : route.continue(),
  );
  await page.getByRole('button', { name: `Delete ${username}` }).click();
  await page.getByRole('dialog', { name: 'Confirm Deletion' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(messages.userDeleteError)).toBeVisible();
  await expect(page.getByText('Morgan Mason-Reyes', { exact: true })).toBeVisible();
  await page.unroute('**/api/users/*');

  await page.getByRole('button', { name: `Delete ${username}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
  await expect(confirm).toContainText('Are you sure you want to delete this item? This action cannot be undone.');
  // The row goes at once; the reload waits for the server's answer (a reload before it is the API
  // test "a client that hangs up while its write runs").
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/users/'));
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Morgan Mason-Reyes', { exact: true })).toHaveCount(0);
  expect((await deleted).status()).toBe(200);
  await page.reload();
  await page.getByLabel('Search').fill(username);
  await expect(page.getByText('No users match.')).toBeVisible();
});

test('an employee sets the days and hours they can work', async ({ page, request }) => {
  const crew = await createEmployee(request, { fullName: 'Sky Scheduler' });
  await page.addInitScript(
    (t) => localStorage.setItem('jwt', t),
    await apiToken(request, crew.username, crew.password),
  );
  await page.goto('/employee/schedule');
  await expect(page.getByRole('heading', { name: 'Set Schedule' })).toBeVisible();
  await page.getByLabel('Tuesday', { exact: true }).check();
  await page.getByLabel('Tuesday start').fill('07:30');
  await page.getByLabel('Tuesday end').fill('15:00');
  await page.getByLabel('Friday', { exact: true }).check();
  // Hours that end before they start: refused, naming the day (issue 13.13).
  await page.getByLabel('Wednesday', { exact: true }).check();
  await page.getByLabel('Wednesday start').fill('17:00');
  await page.getByLabel('Wednesday end').fill('08:00');
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wednesday: The end time must be after the start time');
  await page.getByLabel('Wednesday', { exact: true }).uncheck();
  // The whole time shows in each box, on a phone too: wide enough for "03:00 PM".
  for (const box of await page.getByLabel(/ (start|end)$/).all())
    expect((await box.boundingBox())?.width).toBeGreaterThanOrEqual(120);
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Schedule saved')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'employee-schedule');
  await page.reload();
  await expect(page.getByLabel('Tuesday start')).toHaveValue('07:30');
  await expect(page.getByLabel('Friday', { exact: true })).toBeChecked();
  await expect(page.getByLabel('Monday', { exact: true })).not.toBeChecked();

  // Time off (issue 31): whole days, listed until they pass, removed with a tap.
  const timeOff = page.getByRole('region', { name: 'Time off' });
  await expect(timeOff.getByText('No time off planned.')).toBeVisible();
  const first = await timeOff.getByLabel('First day').inputValue();
  const last = addDays(first, 2);
  await timeOff.getByLabel('Last day').fill(addDays(first, -1));
  await timeOff.getByRole('button', { name: 'Add time off' }).click();
  await expect(timeOff.getByRole('alert')).toHaveText('The last day must not be before the first');
  await timeOff.getByLabel('Last day').fill(last);
  await timeOff.getByLabel('Reason (for the office)').fill('Family trip');
  await timeOff.getByRole('button', { name: 'Add time off' }).click();
  const stretch = `${formatShortDay(first)} – ${formatShortDay(last)}`;
  await expect(timeOff.getByText(stretch)).toBeVisible();
  await expect(timeOff.getByText('Family trip')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'employee-time-off');
  await page.reload();
  await timeOff.getByRole('button', { name: `Remove the time off of ${stretch}` }).click();
  await expect(timeOff.getByText('No time off planned.')).toBeVisible();
});

test('the calendar page says when no embed address is configured', async ({ page }) => {
  await page.goto('/admin/calendar');
  await page.getByRole('tab', { name: 'Shared calendar' }).click();
  await expect(page.getByRole('heading', { name: 'Calendar' })).toBeVisible();
  await expect(page.getByText('Embed URL is missing')).toBeVisible();
});

test('a list keeps its search and filter in the address: reload and Back return to it; a request is found by number or e-mail (issue 13.8)', async ({
  page,
  request,
}) => {
  const name = `Kept ${device()} ${Date.now().toString(36)}`;
  const created = await createQuoteRequest(request, name);
  await page.goto('/admin/quote-requests');
  await page.getByRole('combobox', { name: 'Filter' }).click();
  await page.getByRole('option', { name: 'Pending' }).click();
  await page.getByLabel('Search by name').fill(created.quoteNumber.toLowerCase());
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(
    new RegExp(
      `status=Pending.*q=${created.quoteNumber.toLowerCase()}|q=${created.quoteNumber.toLowerCase()}.*status=Pending`,
    ),
  );
  await page.reload();
  await expect(page.getByLabel('Search by name')).toHaveValue(created.quoteNumber.toLowerCase());
  await expect(page.getByRole('combobox', { name: 'Filter' })).toHaveValue('Pending');
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'View' }).click();
  await expect(page.getByRole('heading', { name: 'Quote Request', exact: true })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Search by name')).toHaveValue(created.quoteNumber.toLowerCase());
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  // By the client's e-mail.
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
  await page.getByLabel('Search by name').fill(email);
  await expect(page.getByText(name, { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '1 result' })).toBeVisible();
});
