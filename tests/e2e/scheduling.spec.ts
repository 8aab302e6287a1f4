import type { APIRequestContext, Page } from '@playwright/test';
import ICAL from 'ical.js';
import { addDays, formatLongDate, todayIn, wallTimeIn, zonedTimeToUtc } from '#shared/dates';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { receivedMail, waitForMail } from './support/mail';
import { apiToken, createEmployee, sentQuoteLink, signInAs } from './support/staff';

const ZONE = 'America/Los_Angeles';
const emailOf = (name: string) => `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;

/** The first event of an .ics, read by an independent parser. */
function firstEvent(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
  return { method: calendar.getFirstPropertyValue('method'), start: event.startDate.toJSDate(), uid: event.uid };
}

/** A job made the way the business makes them: a request, a quote, the client's signed yes. */
async function acceptedJob(request: APIRequestContext, name: string) {
  const link = new URL(await sentQuoteLink(request, name, waitForMail));
  const quoteId = link.pathname.split('/').pop()!;
  const res = await request.post(`/api/client-quotes/${quoteId}/answer`, {
    data: { action: 'accept', token: link.searchParams.get('token'), signatureName: name },
  });
  expect(res.status()).toBe(200);
  return quoteId;
}

/** Two hours to book on the calendar (the last half-hour slot the drag ends on), tried in turn. */
type Slot = { start: string; last: string; end: string };
const SLOTS: Slot[] = [
  { start: '10:00', last: '11:30', end: '12:00' },
  { start: '13:00', last: '14:30', end: '15:00' },
  { start: '15:00', last: '16:30', end: '17:00' },
  { start: '07:00', last: '08:30', end: '09:00' },
];

/** The middle of a time slot in a day's column of the week view. */
async function slotPoint(page: Page, date: string, time: string) {
  const column = await page.locator(`.fc-timegrid-col[data-date="${date}"]`).boundingBox();
  const lane = await page.locator(`.fc-timegrid-slot-lane[data-time="${time}:00"]`).boundingBox();
  return { x: column!.x + column!.width / 2, y: lane!.y + lane!.height / 2 };
}

test('the office schedules a visit for two workers on the calendar and drags it to today; the client gets both .ics, the worker sees it under Today and in their feed', async ({
  page,
  request,
  browser,
}) => {
  test.skip(device() === 'phone', 'dragging is the desktop’s; the phone books in a dialog (next test)');
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const name = `Sched Client ${tag}`;
  await acceptedJob(request, name);
  const alex = await createEmployee(request, { fullName: `Alex Crew ${tag}` });
  await createEmployee(request, { fullName: `Sam Crew ${tag}` });

  await signInAs(page, await apiToken(request));
  // The week's visits as the calendar reads them (it draws nothing of them before this answer).
  const weekVisits = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/visits' && res.request().method() === 'GET' && res.ok(),
  );
  await page.goto('/admin/calendar');
  await expect(page.getByRole('tab', { name: 'Visits' })).toHaveAttribute('aria-selected', 'true');
  const today = todayIn(ZONE);
  // The calendar opens on the business's today.
  await expect(page.locator(`.fc-timegrid-col[data-date="${today}"]`)).toBeVisible();
  // Another day and two hours on it without a visit: the calendar shows every test's visits (tests run
  // beside each other, and the repeating ones fill the weeks ahead), and a drag that starts on a visit moves
  // it instead of selecting the time (a CI run, session 30). A whole free day was asked for until a CI run
  // found none left in the week (session 34). Free in the calendar's own answer and on screen, so a check
  // made before the visits are drawn cannot pass.
  const visits = ((await (await weekVisits).json()) as { visits: { startsAt: string; endsAt: string }[] }).visits;
  const freeInAnswer = (day: string, { start, end }: Slot) => {
    const [from, to] = [zonedTimeToUtc(day, start, ZONE).getTime(), zonedTimeToUtc(day, end, ZONE).getTime()];
    return visits.every((v) => Date.parse(v.startsAt) >= to || Date.parse(v.endsAt) <= from);
  };
  const freeOnScreen = async ({ start, last }: Slot) => {
    const top = (await page.locator(`.fc-timegrid-slot-lane[data-time="${start}:00"]`).boundingBox())!;
    const bottom = (await page.locator(`.fc-timegrid-slot-lane[data-time="${last}:00"]`).boundingBox())!;
    return page.locator('.fc-timegrid-col[data-date]').evaluateAll(
      (cols, [from, to]) =>
        cols
          .filter((c) =>
            [...c.querySelectorAll('.fc-event')].every((e) => {
              const box = e.getBoundingClientRect();
              return box.bottom <= from! || box.top >= to!;
            }),
          )
          .map((c) => c.getAttribute('data-date')!),
      [top.y, bottom.y + bottom.height],
    );
  };
  let otherDay: string | undefined;
  let slot: Slot | undefined;
  for (const candidate of SLOTS) {
    otherDay = (await freeOnScreen(candidate)).find((d) => d !== today && freeInAnswer(d, candidate));
    if (otherDay) {
      slot = candidate;
      break;
    }
  }
  expect(otherDay, 'another day of this week with two free hours').toBeTruthy();
  const { start, last, end } = slot!;

  // Select those two hours: the booking dialog opens with that time.
  const from = await slotPoint(page, otherDay!, start);
  const to = await slotPoint(page, otherDay!, last);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
  const dialog = page.getByRole('dialog', { name: 'Book a visit' });
  await expect(dialog.getByLabel(/^Start/)).toHaveValue(start);
  await expect(dialog.getByLabel(/^End/)).toHaveValue(end);
  await dialog.getByRole('button', { name: 'Book visit' }).click();
  await expect(dialog.getByText('Choose the job')).toBeVisible();
  await dialog.getByLabel(/^Job/).fill(name);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await dialog.getByLabel(/^Crew/).click();
  await page.getByRole('option', { name: `Alex Crew ${tag}` }).click();
  await page.getByRole('option', { name: `Sam Crew ${tag}` }).click();
  await dialog.getByRole('heading').click(); // closes the list of options
  await dialog.getByRole('button', { name: 'Book visit' }).click();
  await expect(page.getByText('Visit booked: the client is told')).toBeVisible();
  const event = page.locator('.fc-event').filter({ hasText: name });
  await expect(event).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'calendar-week');

  // Drag it to today, same time.
  const box = (await event.boundingBox())!;
  const target = await slotPoint(page, today, start);
  await page.mouse.move(box.x + box.width / 2, box.y + 8);
  await page.mouse.down();
  await page.mouse.move(
    target.x,
    target.y + 8 - (await page.locator(`.fc-timegrid-slot-lane[data-time="${start}:00"]`).boundingBox())!.height / 2,
    {
      steps: 12,
    },
  );
  await page.mouse.up();
  // Nothing reaches the client before the office says so.
  const tell = page.getByRole('dialog', { name: 'Tell the client?' });
  await expect(tell).toContainText(`Tell ${name} the new time`);
  await expect(tell).toHaveCSS('opacity', '1'); // shown, not fading in
  await screenshot(page, 'calendar-tell-client', { fullPage: false });
  await tell.getByRole('button', { name: 'Tell the client' }).click();
  await expect(page.getByText('Visit moved: the client is told the new time')).toBeVisible();

  // The client's two e-mails carry .ics files an independent parser reads at the right local time.
  const booked = await waitForMail(emailOf(name), /^Your visit on/);
  const moved = await waitForMail(emailOf(name), /^Your visit has moved/);
  const first = firstEvent(booked.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8'));
  const second = firstEvent(moved.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8'));
  expect(first.method).toBe('REQUEST');
  expect(wallTimeIn(ZONE, first.start)).toEqual({ date: otherDay, time: start });
  expect(wallTimeIn(ZONE, second.start)).toEqual({ date: today, time: start });
  expect(second.uid).toBe(first.uid);
  expect(moved.text).toContain(`Alex Crew ${tag}`);

  // The worker, on a phone, finds it under Today; their feed has it at that local time.
  const crewContext = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const crewToken = await apiToken(request, alex.username, alex.password);
  await crewContext.addInitScript((t) => localStorage.setItem('jwt', t), crewToken);
  const crew = await crewContext.newPage();
  await crew.goto('/employee');
  const todaySection = crew.getByRole('region', { name: 'Today' });
  await expect(todaySection.getByText(name)).toBeVisible();
  await expect(todaySection.getByText(`${start}–${end}`)).toBeVisible();
  await expect(todaySection.getByRole('link', { name: '916-555-0199' })).toHaveAttribute('href', 'tel:9165550199');
  await expect(todaySection.getByText('Deck boards × 10')).toBeVisible();
  // The visit put them on the job: its work is in their open jobs.
  await expect(crew.getByText(`${name}`).nth(1)).toBeVisible();
  await expectNoAxeViolations(crew);
  await screenshot(crew, 'crew-today');
  await crewContext.close();
  const feed = await request.get('/api/my/calendar-feed', { headers: { authorization: `Bearer ${crewToken}` } });
  const feedText = await (await request.get(new URL((await feed.json()).url).pathname)).text();
  const events = new ICAL.Component(ICAL.parse(feedText))
    .getAllSubcomponents('vevent')
    .map((v) => new ICAL.Event(v))
    .filter((e) => e.summary.startsWith(name));
  expect(events.map((e) => wallTimeIn(ZONE, e.startDate.toJSDate()))).toEqual([{ date: today, time: start }]);
});

test("at 5:30 PM Pacific (tomorrow already in UTC) the calendar's today, Day view, Today button and now-line are the business's", async ({
  page,
  request,
}) => {
  const today = todayIn(ZONE);
  await page.clock.setFixedTime(zonedTimeToUtc(today, '17:30', ZONE));
  await signInAs(page, await apiToken(request));
  await page.goto('/admin/calendar');
  const title = page.locator('.fc-toolbar-title');
  await page.getByRole('button', { name: 'Day', exact: true }).click();
  await expect(title).toHaveText(formatLongDate(today));
  await expect(page.locator('.fc-timegrid-col.fc-day-today')).toHaveAttribute('data-date', today);
  // The now-line crosses the 17:30 slot.
  await page.locator('.fc-timegrid-now-indicator-line').scrollIntoViewIfNeeded();
  const line = (await page.locator('.fc-timegrid-now-indicator-line').boundingBox())!;
  const slot = (await page.locator('.fc-timegrid-slot-lane[data-time="17:30:00"]').boundingBox())!;
  expect(line.y).toBeGreaterThanOrEqual(slot.y - 2);
  expect(line.y).toBeLessThan(slot.y + slot.height / 2);
  await screenshot(page, 'calendar-day-evening', { fullPage: false });
  await page.getByRole('button', { name: /Next/ }).click();
  await expect(title).toHaveText(formatLongDate(addDays(today, 1)));
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  await expect(title).toHaveText(formatLongDate(today));
});

test('the office books from the job page in a dialog (phone and desktop): a busy worker is warned, a visit is cancelled with a reason', async ({
  page,
  request,
}) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  const name = `Phone Sched ${tag}`;
  const quoteId = await acceptedJob(request, name);
  await createEmployee(request, { fullName: `Jo Crew ${tag}` });
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs?q=${encodeURIComponent(name)}`);
  const row = page.locator(device() === 'phone' ? 'li' : 'tr').filter({ hasText: name });
  await row.getByRole('link', { name: 'View' }).click();
  await page.getByRole('button', { name: 'Schedule a visit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a visit' });
  await dialog.getByLabel(/^Date/).fill('2027-03-16');
  await dialog.getByLabel(/^Start/).fill('13:00');
  await dialog.getByLabel(/^End/).fill('12:00');
  await dialog.getByRole('button', { name: 'Book visit' }).click();
  await expect(dialog.getByText('The end time must be after the start time')).toBeVisible();
  await dialog.getByLabel(/^End/).fill('15:00');
  await dialog.getByLabel(/^Crew/).click();
  await page.getByRole('option', { name: `Jo Crew ${tag}` }).click();
  await dialog.getByRole('heading').click(); // closes the list of options
  await dialog.getByRole('button', { name: 'Book visit' }).click();
  await expect(page.getByText('Visit booked: the client is told')).toBeVisible();
  const visits = page.getByRole('region', { name: /Visits/ });
  await expect(visits.getByText('March 16, 2027, 13:00–15:00')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'job-visits');
  // The client's status page shows when the crew comes.
  await page.goto('/quote-request-status');
  await page.getByLabel(/^Quote Number/).fill(quoteId);
  await page.getByRole('button', { name: 'Check Quote Request Status' }).click();
  await expect(page.getByText('Next visit: Tue, Mar 16, arriving 1:00 PM – 3:00 PM')).toBeVisible();

  // Another job's visit for the same worker at that time: the dialog warns, and books when told to.
  const other = `Other Sched ${tag}`;
  await acceptedJob(request, other);
  await page.goto(`/admin/jobs?q=${encodeURIComponent(other)}`);
  await page
    .locator(device() === 'phone' ? 'li' : 'tr')
    .filter({ hasText: other })
    .getByRole('link', { name: 'View' })
    .click();
  await page.getByRole('button', { name: 'Schedule a visit' }).click();
  await dialog.getByLabel(/^Date/).fill('2027-03-16');
  await dialog.getByLabel(/^Start/).fill('14:00');
  await dialog.getByLabel(/^End/).fill('16:00');
  await dialog.getByLabel(/^Crew/).click();
  await page.getByRole('option', { name: `Jo Crew ${tag}` }).click();
  await dialog.getByRole('heading').click(); // closes the list of options
  await dialog.getByRole('button', { name: 'Book visit' }).click();
  await expect(dialog.getByText(`Jo Crew ${tag} is booked 13:00–15:00`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Book anyway' }).click();
  await expect(page.getByText('Visit booked: the client is told')).toBeVisible();

  // Cancel it with a reason: struck through, and the client is told.
  await page.getByRole('button', { name: 'Cancel visit' }).click();
  // Its buttons say what they do: "Keep visit" beside "Cancel visit", not a second "Cancel".
  const cancelDialog = page.getByRole('dialog', { name: 'Cancel this visit?' });
  await expect(cancelDialog.getByRole('button', { name: 'Keep visit' })).toBeVisible();
  await expect(cancelDialog.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await expect(cancelDialog).toHaveCSS('opacity', '1'); // shown, not fading in
  await screenshot(page, 'cancel-visit-dialog', { fullPage: false });
  await page
    .getByRole('dialog', { name: 'Cancel this visit?' })
    .getByLabel(/^Reason/)
    .fill('Rain expected');
  await page.getByRole('dialog', { name: 'Cancel this visit?' }).getByRole('button', { name: 'Cancel visit' }).click();
  await expect(page.getByText('Cancelled: Rain expected')).toBeVisible();
  const cancelled = await waitForMail(emailOf(other), /is cancelled/);
  expect(
    firstEvent(cancelled.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8')).method,
  ).toBe('CANCEL');
});

test('a job is cancelled only with a reason, and the cancellation can be undone', async ({ page, request }) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  const name = `Cancel Job ${tag}`;
  await acceptedJob(request, name);
  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs?q=${encodeURIComponent(name)}`);
  await page
    .locator(device() === 'phone' ? 'li' : 'tr')
    .filter({ hasText: name })
    .getByRole('link', { name: 'View' })
    .click();
  await page.getByRole('button', { name: 'Cancel job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this job?' });
  await dialog.getByRole('button', { name: 'Cancel job' }).click();
  await expect(dialog.getByText('Please give a reason')).toBeVisible();
  await dialog.getByLabel(/^Why is the job cancelled/).fill('The client sold the house');
  await dialog.getByRole('button', { name: 'Cancel job' }).click();
  await expect(page.getByText('This job was cancelled')).toBeVisible();
  await expect(page.getByText('The client sold the house')).toBeVisible();
  await page.getByRole('button', { name: 'Undo cancel' }).click();
  await expect(page.getByText('Cancellation undone: the job is Not Started again')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start work' })).toBeVisible();
});

test('the month view shows the booked visits; tapping one opens it in a dialog to change or cancel it', async ({
  page,
  request,
}) => {
  const tag = `${device()}${Date.now().toString(36)}`;
  const name = `Month View ${tag}`;
  await acceptedJob(request, name);
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const jobs = await (await request.get(`/api/jobs?search=${encodeURIComponent(name)}`, { headers: admin })).json();
  // The calendar opens on the business's today: a visit on that date is in its week and its month.
  const day = todayIn(ZONE);
  const booked = await request.post(`/api/jobs/${jobs.jobs[0]._id}/visits`, {
    headers: admin,
    data: { date: day, start: '07:00', end: '08:00', workerIds: [] },
  });
  expect(booked.status()).toBe(201);
  await signInAs(page, await apiToken(request));
  await page.goto('/admin/calendar');
  await page.getByRole('button', { name: 'Month' }).click();
  const event = page.locator('.fc-event').filter({ hasText: name });
  await expect(event).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'calendar-month');
  await event.click();
  const dialog = page.getByRole('dialog', { name: 'Change the visit' });
  await expect(dialog.getByLabel(/^Start/)).toHaveValue('07:00');
  await dialog.getByLabel(/^End/).fill('08:30');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // A new time asks before the client is told; agreed on the phone, it moves without a word.
  const tell = page.getByRole('dialog', { name: 'Tell the client?' });
  await expect(tell.getByText('7:00 AM – 8:30 AM')).toBeVisible();
  await expect(tell).toHaveCSS('opacity', '1'); // shown, not fading in
  await screenshot(page, 'visit-dialog-tell-client', { fullPage: false });
  await tell.getByRole('button', { name: 'Move without telling them' }).click();
  await expect(page.getByText('Visit saved: the client is not told')).toBeVisible();
  await page.getByRole('button', { name: 'List' }).click();
  await expect(page.getByText(name)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshot(page, 'calendar-list');
  // Cancelled from the calendar too, with a reason: it leaves the calendar.
  await page.getByText(name).click();
  await dialog.getByRole('button', { name: 'Cancel visit' }).click();
  const reason = page.getByRole('dialog', { name: 'Cancel this visit?' });
  await reason.getByLabel(/^Reason/).fill('The client is away');
  await reason.getByRole('button', { name: 'Cancel visit' }).click();
  await expect(page.getByText('Visit cancelled: the client is told')).toBeVisible();
  await expect(page.locator('.fc-event, .fc-list-event').filter({ hasText: name })).toHaveCount(0);
  // The client got the booking and the cancellation, never the quiet move (the outbox sends in order).
  await waitForMail(emailOf(name), /is cancelled/);
  const theirs = (await receivedMail()).filter((m) => JSON.stringify(m.to).includes(emailOf(name)));
  expect(theirs.map((m) => m.subject).filter((s) => /^Your visit has moved/.test(s ?? ''))).toEqual([]);
});
