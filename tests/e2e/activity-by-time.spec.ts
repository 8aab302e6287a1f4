import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { apiToken, createEmployee, signInAs } from './support/staff';

// Issue 27: the Activity page goes on to older entries by time, past the pages it numbers, and back to
// the newest; the place is in the address, so a reload (or Back) shows the same entries. The trail is
// one new crew member's: their sign-in and 120 refused calls, each marked in what it sent.
test('the Activity page steps to older entries and back, and a reload keeps the place', async ({ page }) => {
  test.setTimeout(120_000);
  const crew = await createEmployee(page.request, { fullName: `Trail Walker ${Date.now().toString(36)}` });
  const headers = { authorization: `Bearer ${await apiToken(page.request, crew.username, crew.password)}` };
  for (let n = 1; n <= 120; n++) {
    const res = await page.request.get(`/api/users?mark=${String(n).padStart(3, '0')}`, { headers });
    expect(res.status()).toBe(403);
  }
  // What each call sent reads as label and value (issue 28, item 12), never as JSON.
  const mark = (n: number) => page.getByText(`Query › Mark: ${String(n).padStart(3, '0')}`, { exact: true });
  const older = page.getByRole('button', { name: 'Older entries' });
  const newest = page.getByRole('button', { name: 'Newest entries' });

  await signInAs(page, await apiToken(page.request));
  await page.goto(`/admin/activity?userId=${crew.id}`);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  // The newest 50 (marks 120 to 71), numbered; older ones by time from here too.
  await expect(mark(120)).toBeVisible();
  await expect(mark(71)).toBeVisible();
  await expect(mark(70)).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
  await expect(newest).toHaveCount(0);

  await older.click();
  await expect(mark(70)).toBeVisible();
  await expect(mark(21)).toBeVisible();
  await expect(mark(120)).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]before=/);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^From .+ back to / })).toBeVisible();
  await expect(newest).toBeVisible();

  // The oldest: the last twenty and the sign-in, and nothing further to ask for.
  await older.click();
  await expect(mark(20)).toBeVisible();
  await expect(mark(1)).toBeVisible();
  await expect(page.getByText('Signed in')).toBeVisible();
  await expect(mark(21)).toHaveCount(0);
  await expect(older).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: ': the oldest entries that match.' })).toBeVisible();
  await expectNoAxeViolations(page);
  if (device() === 'phone')
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'activity-oldest');

  // A reload shows the same entries, still filtered to the one person.
  await page.reload();
  await expect(mark(1)).toBeVisible();
  await expect(mark(21)).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Person' })).toHaveValue(/^Trail Walker /);
  await expect(newest).toBeVisible();

  // Back is the newer page; Newest entries, the first.
  await page.goBack();
  await expect(mark(70)).toBeVisible();
  await expect(mark(20)).toHaveCount(0);
  await newest.click();
  await expect(mark(120)).toBeVisible();
  await expect(page).not.toHaveURL(/before=/);
  await expect(page).toHaveURL(new RegExp(`userId=${crew.id}`));
  await expect(newest).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
});

test('a place in the trail that is not one shows how to get back to the newest', async ({ page }) => {
  const crew = await createEmployee(page.request);
  await apiToken(page.request, crew.username, crew.password);
  await signInAs(page, await apiToken(page.request));
  await page.goto(`/admin/activity?userId=${crew.id}&before=not-a-place`);
  await expect(page.getByText('This place in the activity could not be found')).toBeVisible();
  await page.getByRole('button', { name: 'Newest entries' }).click();
  await expect(page.getByText('This place in the activity could not be found')).toHaveCount(0);
  await expect(page.getByText('Signed in')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`userId=${crew.id}$`));
});
