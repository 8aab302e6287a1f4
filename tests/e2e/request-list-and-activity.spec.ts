import { randomUUID } from 'node:crypto';
import { todayIn } from '#shared/dates';
import { jobNumberOf } from '#shared/schemas/jobs';
import { paths } from '#shared/paths';
import { formatDate } from '../../src/web/components/date-text';
import { expectNoAxeViolations } from './support/axe';
import { photo } from './support/files';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, createQuoteRequest, signInAs, soldJobFor } from './support/staff';

const uid = () => `${device()}${Date.now().toString(36)}`;

test.beforeEach(async ({ page, request }) => {
  await signInAs(page, await apiToken(request));
});

/** Issue 28, item 12: the office reads when a request came in, where, and whether it has photos, from the list. */
test('the request list shows the received date, the city and a photo marker with its count', async ({
  page,
  request,
}) => {
  const name = `Listed ${uid()}`;
  const images = await Promise.all(
    ['#964', '#469'].map(
      async (color) => `data:image/jpeg;base64,${(await photo('porch.jpg', color)).buffer.toString('base64')}`,
    ),
  );
  await createQuoteRequest(request, name, {
    images,
    address: { street: '9 Elm St', city: 'Elk Grove', state: 'CA', zip: '95624' },
  });
  const without = `Unlisted Photos ${uid()}`;
  await createQuoteRequest(request, without);

  await page.goto(paths.admin.quoteRequests);
  await page.getByLabel('Search by name').fill(name);
  await expect(page.getByRole('status').filter({ hasText: '1 result' })).toBeVisible();
  const row =
    device() === 'phone'
      ? page.locator('li').filter({ hasText: name })
      : page.getByRole('row', { name: new RegExp(name) });
  await expect(row.getByText('Elk Grove')).toBeVisible();
  await expect(row.getByText(formatDate(todayIn('America/Los_Angeles')))).toBeVisible();
  await expect(row.getByRole('img', { name: '2 photos' })).toBeVisible();
  if (device() === 'desktop') {
    await expect(page.getByRole('columnheader', { name: 'Received' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'City' })).toBeVisible();
  }
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'request-list-photos');

  // A request without photos has no marker.
  await page.getByLabel('Search by name').fill(without);
  await expect(page.getByRole('status').filter({ hasText: '1 result' })).toBeVisible();
  await expect(page.getByText('Sacramento').first()).toBeVisible();
  await expect(page.getByRole('img', { name: /photos?$/ })).toHaveCount(0);
});

/** Issue 28, item 12: Activity names the job a crew member worked on, links it, and reads what they sent. */
test('Activity names the job an entry touched, links it, and shows what was sent as words, not JSON', async ({
  page,
  request,
}) => {
  const tag = uid();
  const name = `Trail Client ${tag}`;
  const crew = await createEmployee(request, { fullName: `Trail Crew ${tag}` });
  const jobId = await soldJobFor(request, name, crew.id, waitForMail);
  const headers = { authorization: `Bearer ${await apiToken(request, crew.username, crew.password)}` };
  const ticked = await request.put(`/api/my/jobs/${jobId}/checklist/${randomUUID()}`, {
    headers,
    data: { text: 'Haul away the old boards', done: true },
  });
  expect(ticked.status(), await ticked.text()).toBe(200);

  await page.goto(`${paths.admin.activity}?userId=${crew.id}`);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
  const job = page.getByRole('link', { name: `Job ${jobNumberOf(jobId)} · ${name}` }).first();
  await expect(job).toBeVisible();
  await expect(page.getByText('Text: Haul away the old boards')).toBeVisible();
  await expect(page.getByText('Done: Yes').first()).toBeVisible();
  // No raw JSON anywhere in the trail.
  await expect(page.locator('main')).not.toContainText('{"');
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'activity-records');
  await job.click();
  await expect(page).toHaveURL(paths.admin.job(jobId));
});
