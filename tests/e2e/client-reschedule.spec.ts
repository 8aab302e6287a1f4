import type { Page } from '@playwright/test';
import ICAL from 'ical.js';
import { addDays, todayIn, wallTimeIn } from '#shared/dates';
import { WEEKDAYS } from '#shared/schemas/schedule';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, SHARED_STATE, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, signInAs, soldJobFor } from './support/staff';

const ZONE = 'America/Los_Angeles';
const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
const pageLinkIn = (text: string | false | undefined) =>
  new URL(/https?:\/\/\S+\/your-page\/\S+/.exec(String(text))![0]);

/** Every day 8–10, 10–12, 1–3, so the journey does not depend on the weekday it runs on. */
const everyDay = {
  windows: WEEKDAYS.flatMap((day) => [
    { day, start: '08:00', end: '10:00' },
    { day, start: '10:00', end: '12:00' },
    { day, start: '13:00', end: '15:00' },
  ]),
  leadBusinessDays: 0,
  horizonDays: 21,
  clientChanges: true,
  changeCutoffHours: 24,
  maxMoves: 2,
  onlineBooking: false,
  estimateMinutes: 60,
  estimateWorkerIds: [],
  bookingArea: [],
};

/** Get a Quote, opened and filled in for a place in downtown Sacramento. */
async function fillGetAQuote(
  page: Page,
  who: { first: string; last: string; email: string; street: string; work: string },
) {
  await page.goto('/get-a-quote');
  await page.getByLabel('First Name').fill(who.first);
  await page.getByLabel('Last Name').fill(who.last);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Street').fill(who.street);
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('State').fill('CA');
  await page.getByLabel('Zip').fill('95814');
  await page.getByLabel('Specifications').fill(who.work);
}

/** The starts of the worker's visits for this client in their calendar feed, on the business's clock. */
async function feedStarts(
  request: Parameters<typeof apiToken>[0],
  worker: { username: string; password: string },
  name: string,
) {
  const token = await apiToken(request, worker.username, worker.password);
  const { url } = await (
    await request.get('/api/my/calendar-feed', { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const feed = await (await request.get(new URL(url).pathname)).text();
  return new ICAL.Component(ICAL.parse(feed))
    .getAllSubcomponents('vevent')
    .map((v) => new ICAL.Event(v))
    .filter((e) => e.summary.includes(name))
    .map((e) => {
      const at = wallTimeIn(ZONE, e.startDate.toJSDate());
      return `${at.date} ${at.time}`;
    });
}

/**
 * Issue 31: the client moves their visit from the link in its e-mail to another free window, and the
 * worker's feed shows the new time; then cancels the other, saying why (decision 046).
 */
test('the client reschedules their visit from the e-mail’s link, the worker’s feed follows; they cancel another', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const name = `Mover ${device()} ${Date.now().toString(36)}`;
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  expect((await request.put('/api/settings/booking', { headers: admin, data: everyDay })).status()).toBe(200);
  const worker = await createEmployee(request, { fullName: `Wes ${device()}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail);
  const date = addDays(todayIn(ZONE), 4);
  for (const start of ['09:00', '13:00']) {
    const booked = await request.post(`/api/jobs/${jobId}/visits`, {
      headers: admin,
      data: { date, start, end: start === '09:00' ? '11:00' : '14:00', workerIds: [worker.id], confirm: true },
    });
    expect(booked.status(), await booked.text()).toBe(201);
  }

  // From the booked visit's e-mail, to the client's page.
  const mail = await waitForMail(emailOf(name), /^Your visit on/);
  expect(mail.text).toContain('Reschedule on your page');
  const link = pageLinkIn(mail.text);
  await page.goto(link.pathname + link.search);
  const visits = page.getByRole('region', { name: 'Your visits' });
  await expect(visits.getByRole('listitem')).toHaveCount(2);
  const first = visits.getByRole('listitem').first();
  await expect(first.getByText(/You can reschedule or cancel online until/)).toBeVisible();
  await first.getByRole('button', { name: /^Reschedule the visit of/ }).click();
  const picker = page.getByRole('group', { name: 'Pick a new time' });
  await expect(picker.getByText('Pick a new time')).toBeVisible();
  // Two days later, 1–3 PM.
  const target = addDays(date, 2);
  const targetDay = new Date(`${target}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
  // The first days are shown; the rest on asking.
  await picker.getByRole('button', { name: /^Show \d+ more days$/ }).click();
  await picker.getByRole('button', { name: `${targetDay}, 1:00 PM – 3:00 PM` }).click();
  await screenshot(page, 'client-reschedule-pick');
  await picker.getByRole('button', { name: `Move my visit to ${targetDay}, 1:00 PM – 3:00 PM` }).click();
  await expect(page.getByRole('status').getByText(/^Your visit has moved to .+ arriving 1:00 PM/)).toBeVisible();
  await screenshot(page, 'client-reschedule-moved');

  // After a reload the page shows the new time, and the worker's feed has it.
  await page.reload();
  await expect(
    visits.getByText(new RegExp(`${targetDay.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*1:00 PM`)),
  ).toBeVisible();
  expect((await feedStarts(request, worker, name)).sort()).toEqual([`${date} 13:00`, `${target} 13:00`]);
  const moved = await waitForMail(emailOf(name), /^Your visit has moved to/);
  expect(moved.subject).toContain('1:00 PM');

  // The other visit: cancelled, with a reason.
  const other = visits.getByRole('listitem').filter({ hasText: formatDayLabel(date) });
  await other.getByRole('button', { name: /^Cancel the visit of/ }).click();
  await other.getByRole('button', { name: 'Cancel my visit' }).click();
  await expect(other.getByText('Tell us why, so we can help')).toBeVisible();
  await other.getByLabel('Why are you cancelling?').fill('Our neighbour will be there instead next week');
  await other.getByRole('button', { name: 'Cancel my visit' }).click();
  await expect(page.getByRole('status').getByText(/is cancelled\. We have let the office know\./)).toBeVisible();
  await expect(visits.getByRole('listitem')).toHaveCount(1);
  const notice = await waitForMail('owner@handyman.test', new RegExp(`^${name} cancelled their visit`));
  expect(notice.text).toContain('Our neighbour will be there instead next week');

  // The office sees the moves on the calendar's day and in the request's timeline.
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs/${jobId}`);
  await expect(page.getByText(/Cancelled by the client: Our neighbour/)).toBeVisible();
});

function formatDayLabel(date: string) {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** Settings → Online booking: the owner changes the windows and the rules; a bad window is refused. */
test(
  'the owner sets the booking windows and how clients may change their visits',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    test.setTimeout(120_000);
    const admin = { authorization: `Bearer ${await apiToken(request)}` };
    const before = await (await request.get('/api/settings/booking', { headers: admin })).json();
    try {
      await signInAs(page, await apiToken(request));
      await page.goto('/admin/settings');
      const section = page.getByRole('region', { name: 'Online booking' });
      await expect(section.getByRole('button', { name: 'Remove Monday 8:00 AM – 10:00 AM' })).toBeVisible();
      await section.getByRole('button', { name: 'Remove Monday 8:00 AM – 10:00 AM' }).click();
      await section.getByRole('button', { name: 'Add a window on Saturday' }).click();
      await section.getByLabel('From', { exact: true }).fill('09:00');
      await section.getByLabel('To', { exact: true }).fill('11:00');
      await section.getByRole('button', { name: 'Add the Saturday window' }).click();
      await section.getByLabel('Moves per visit').fill('1');
      await screenshot(page, 'settings-online-booking');
      await section.getByRole('button', { name: 'Save online booking' }).click();
      await expect(page.getByText('Online booking saved')).toBeVisible();

      await page.reload();
      await expect(section.getByRole('button', { name: 'Remove Saturday 9:00 AM – 11:00 AM' })).toBeVisible();
      await expect(section.getByRole('button', { name: 'Remove Monday 8:00 AM – 10:00 AM' })).toHaveCount(0);
      await expect(section.getByLabel('Moves per visit')).toHaveValue('1');
      await expectNoAxeViolations(page);

      // Two windows that overlap on a day: refused, saying which.
      await section.getByRole('button', { name: 'Add a window on Tuesday' }).click();
      await section.getByLabel('From', { exact: true }).fill('09:00');
      await section.getByLabel('To', { exact: true }).fill('11:00');
      await section.getByRole('button', { name: 'Add the Tuesday window' }).click();
      await section.getByRole('button', { name: 'Save online booking' }).click();
      await expect(section.getByRole('alert')).toContainText(
        'Tuesday: the windows 08:00–10:00 and 09:00–11:00 overlap',
      );
      const saved = await (await request.get('/api/settings/booking', { headers: admin })).json();
      expect(saved.windows).not.toContainEqual({ day: 'Tuesday', start: '09:00', end: '11:00' });
    } finally {
      await request.put('/api/settings/booking', { headers: admin, data: before });
    }
  },
);

/**
 * Issue 31's first journey: a visitor books an estimate window on Get a Quote, the office sees the
 * visit on the Calendar with the worker it went to, the client moves it from their e-mail's link and
 * the worker's feed shows the new time. Online booking is the install's own setting: on the
 * shared-state servers, put back after.
 */
test(
  'a visitor books an estimate visit on Get a Quote; the office sees it on the calendar; the client moves it',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    test.setTimeout(240_000);
    const admin = { authorization: `Bearer ${await apiToken(request)}` };
    const before = await (await request.get('/api/settings/booking', { headers: admin })).json();
    const worker = await createEmployee(request, { fullName: `Esme Estimator ${device()}` });
    const tag = `${device()}${Date.now().toString(36)}`;
    const email = `booker.${tag}@home.test`;
    try {
      const on = await request.put('/api/settings/booking', {
        headers: admin,
        data: { ...everyDay, onlineBooking: true, estimateWorkerIds: [worker.id] },
      });
      expect(on.status(), await on.text()).toBe(200);

      await fillGetAQuote(page, {
        first: 'Bea',
        last: `Booker ${tag}`,
        email,
        street: '1201 K St',
        work: 'The deck boards are loose; we would like an estimate.',
      });
      const picker = page.getByRole('group', { name: 'Book an estimate visit' });
      await expect(picker.getByText('Book an estimate visit (optional)')).toBeVisible();
      // Two days ahead at 10: past the 24 hours before which the client may still move it.
      const visitDay = addDays(todayIn(ZONE), 2);
      const chosen = `${formatDayLabel(visitDay)}, 10:00 AM – 12:00 PM`;
      await picker.getByRole('button', { name: /^Show \d+ more days$/ }).click();
      await picker.getByRole('button', { name: chosen }).click();
      await expect(picker.getByText(`We will come ${chosen}.`)).toBeVisible();
      await screenshot(page, 'get-a-quote-estimate');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page).toHaveURL(/\/get-a-quote\/success$/);

      // The visit's e-mail, with the page link; the owner's notice names it.
      const mail = await waitForMail(email, /^Your visit on/);
      const notice = await waitForMail('owner@handyman.test', new RegExp(`Booker ${tag}`));
      expect(notice.text).toContain('Estimate visit booked');

      // The office's calendar: the visit, with the worker it went to.
      await signInAs(page, await apiToken(request));
      await page.goto('/admin/calendar');
      await page.getByRole('button', { name: 'Month' }).click();
      if (visitDay.slice(0, 7) !== todayIn(ZONE).slice(0, 7)) await page.locator('.fc-next-button').click();
      const event = page.locator('.fc-event').filter({ hasText: `Booker ${tag}` });
      await expect(event).toBeVisible();
      await expect(event).toContainText(`Esme Estimator ${device()}`);
      await screenshot(page, 'calendar-estimate-visit');

      // The client moves it from the e-mail's link; the worker's feed follows.
      await page.evaluate(() => localStorage.removeItem('jwt'));
      const link = pageLinkIn(mail.text);
      await page.goto(link.pathname + link.search);
      const visits = page.getByRole('region', { name: 'Your visits' });
      await visits.getByRole('button', { name: /^Reschedule the visit of/ }).click();
      const newTime = page.getByRole('group', { name: 'Pick a new time' });
      await newTime.getByRole('button', { name: /^Show \d+ more days$/ }).click();
      const later = newTime.getByRole('button', { name: /, 10:00 AM – 12:00 PM$/ }).last();
      const laterWords = String(await later.getAttribute('aria-label'));
      await later.click();
      await newTime.getByRole('button', { name: `Move my visit to ${laterWords}` }).click();
      await expect(page.getByRole('status').getByText(/^Your visit has moved to .+ arriving 10:00 AM/)).toBeVisible();
      const starts = await feedStarts(request, worker, `Booker ${tag}`);
      expect(starts).toHaveLength(1);
      expect(starts[0]).toMatch(/ 10:00$/);

      // The office's request page shows the visit at its new time; declining the request calls it off.
      const { quoteRequests } = await (
        await request.get(
          `/api/quoterequest/all?page=1&limit=5&status=All&search=${encodeURIComponent(`Booker ${tag}`)}`,
          {
            headers: admin,
          },
        )
      ).json();
      await signInAs(page, await apiToken(request));
      await page.goto(`/admin/quote-requests/${quoteRequests[0]._id}`);
      const estimate = page.getByRole('region', { name: 'Estimate visit' });
      await expect(estimate).toContainText(`10:00–11:00`);
      await expect(estimate).toContainText(`Esme Estimator ${device()}`);
      await expect(estimate.getByRole('button', { name: 'Change' })).toBeVisible();
      await screenshot(page, 'request-estimate-visit');
      await page.getByRole('button', { name: 'Decline Quote Request' }).click();
      const decline = page.getByRole('dialog', { name: 'Confirm Decline' });
      await decline.getByLabel('What is the reason for declining this quote request?').fill('Deck work is booked up.');
      await decline.getByRole('button', { name: 'Decline' }).click();
      await expect(estimate).toContainText('Cancelled: We will not be coming for an estimate.');
      await expect(estimate.getByRole('button', { name: 'Change' })).toHaveCount(0);
      await waitForMail(email, /^Your visit on .+ is cancelled$/);
      expect(await feedStarts(request, worker, `Booker ${tag}`)).toHaveLength(0);
    } finally {
      await request.put('/api/settings/booking', { headers: admin, data: before });
    }
  },
);

/**
 * Issue 31, "needs approval": the owner has the office approve each online booking; the visitor's
 * window is held and they are told so, on Get a Quote, by e-mail and on their page; the office
 * approves it from the request's page, and the booking (with its calendar entry) follows.
 */
test(
  'with approval on, a visitor’s window is held until the office approves it from the request page',
  { tag: SHARED_STATE },
  async ({ page, request }) => {
    test.setTimeout(240_000);
    const admin = { authorization: `Bearer ${await apiToken(request)}` };
    const before = await (await request.get('/api/settings/booking', { headers: admin })).json();
    const worker = await createEmployee(request, { fullName: `Ada Approver ${device()}` });
    const tag = `${device()}${Date.now().toString(36)}`;
    const email = `held.${tag}@home.test`;
    try {
      const on = await request.put('/api/settings/booking', {
        headers: admin,
        data: { ...everyDay, onlineBooking: true, estimateWorkerIds: [worker.id] },
      });
      expect(on.status(), await on.text()).toBe(200);

      // The owner chooses approval on Settings; a reload shows it kept.
      await signInAs(page, await apiToken(request));
      await page.goto('/admin/settings');
      const section = page.getByRole('region', { name: 'Online booking' });
      await section.getByRole('radio', { name: /^Waits for the office to approve it/ }).check();
      await section.getByRole('button', { name: 'Save online booking' }).click();
      await expect(page.getByText('Online booking saved')).toBeVisible();
      await page.reload();
      await expect(section.getByRole('radio', { name: /^Waits for the office to approve it/ })).toBeChecked();
      await screenshot(page, 'settings-online-booking-approval');

      // The visitor picks a window: it is held, to be confirmed.
      await page.evaluate(() => localStorage.removeItem('jwt'));
      await fillGetAQuote(page, {
        first: 'Hal',
        last: `Held ${tag}`,
        email,
        street: '900 J St',
        work: 'A fence post is leaning; we would like an estimate.',
      });
      const picker = page.getByRole('group', { name: 'Book an estimate visit' });
      const visitDay = addDays(todayIn(ZONE), 2);
      const chosen = `${formatDayLabel(visitDay)}, 1:00 PM – 3:00 PM`;
      await picker.getByRole('button', { name: /^Show \d+ more days$/ }).click();
      await picker.getByRole('button', { name: chosen }).click();
      await expect(picker.getByText(`We will hold ${chosen} for you and confirm it by e-mail.`)).toBeVisible();
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page).toHaveURL(/\/get-a-quote\/success$/);

      // Their e-mail says it is held, with no calendar entry yet; their page says so too.
      const held = await waitForMail(email, /^Your requested visit on .+: we will confirm it$/);
      expect(held.attachments ?? []).toHaveLength(0);
      const link = pageLinkIn(held.text);
      await page.goto(link.pathname + link.search);
      const visits = page.getByRole('region', { name: 'Your visits' });
      await expect(
        visits.getByText('You asked for this time: we hold it for you and will confirm it by e-mail.'),
      ).toBeVisible();
      await expect(visits.getByRole('button', { name: /^Confirm the visit/ })).toHaveCount(0);
      await expect(visits.getByRole('link', { name: /to your calendar$/ })).toHaveCount(0);
      await screenshot(page, 'client-page-visit-asked-for');

      // The office approves it from the request's page.
      const { quoteRequests } = await (
        await request.get(
          `/api/quoterequest/all?page=1&limit=5&status=All&search=${encodeURIComponent(`Held ${tag}`)}`,
          { headers: admin },
        )
      ).json();
      await signInAs(page, await apiToken(request));
      await page.goto(`/admin/quote-requests/${quoteRequests[0]._id}`);
      const estimate = page.getByRole('region', { name: 'Estimate visit' });
      await expect(estimate).toContainText('To approve');
      await expect(estimate).toContainText('Booked online: waiting for your approval');
      await expect(page.getByText(/^Client asked for an estimate visit, to approve:/)).toBeVisible();
      await screenshot(page, 'request-estimate-to-approve');
      await estimate.getByRole('button', { name: 'Approve' }).click();
      await expect(page.getByText('Visit approved: the client is told')).toBeVisible();
      await expect(estimate).toContainText('Scheduled');
      await expect(estimate.getByRole('button', { name: 'Approve' })).toHaveCount(0);
      const booked = await waitForMail(email, /^Your visit on /);
      expect(booked.attachments?.map((a) => a.filename)).toEqual(['visit.ics']);
      expect((await feedStarts(request, worker, `Held ${tag}`))[0]).toMatch(/ 13:00$/);
    } finally {
      await request.put('/api/settings/booking', { headers: admin, data: before });
    }
  },
);
