import { addDays, formatLongDate, todayIn, weekdayOf, zonedTimeToUtc } from '#shared/dates';
import type { VisitView } from '#shared/schemas/visits';
import { expectNoAxeViolations } from './support/axe';
import { device, expect, screenshot, test } from './support/fixtures';
import { waitForMail } from './support/mail';
import { apiToken, createEmployee, signInAs, soldJobFor } from './support/staff';

const ZONE = 'America/Los_Angeles';

/**
 * Issue 31, recurring work (decision 047): the office makes a job's visits repeat from its page; the
 * visits are booked ahead on the job and the calendar, the client is told once with the rule's words;
 * the office stops them and the visits to come are called off.
 */
test('the office makes a job’s visits repeat every 2 weeks, sees them booked ahead, changes them from a date on, and stops them', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const name = `Rita Regular ${device()}${Date.now().toString(36)}`;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
  const worker = await createEmployee(request, { fullName: `Gus Gutters ${device()}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail);

  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs/${jobId}`);
  const section = page.getByRole('region', { name: 'Repeating visits', exact: true });
  await expect(section.getByText(/^None\. Regular work/)).toBeVisible();
  await section.getByRole('button', { name: 'Make visits repeat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make visits repeat' });
  const first = addDays(todayIn(ZONE), 1);
  const weekday = weekdayOf(first);
  // Every 2 weeks on the weekday of tomorrow (chosen already), 4 visits; a bad time is refused first.
  await dialog.getByRole('textbox', { name: 'Start', exact: true }).fill('10:00');
  await dialog.getByRole('textbox', { name: 'End', exact: true }).fill('09:00');
  await dialog.getByRole('button', { name: 'Book the repeating visits' }).click();
  await expect(dialog.getByText('The visit must end after it starts')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'End', exact: true }).fill('12:00');
  await expect(dialog.getByText('The visit must end after it starts')).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Visits', exact: true }).fill('4');
  await dialog.getByLabel(/^Crew/).click();
  await page.getByRole('option', { name: `Gus Gutters ${device()}` }).click();
  await dialog.getByLabel('Notes for the crew').fill('Gutters front and back; ladder in the garage.');
  const words = `Every 2 weeks on ${weekday}, 10:00 AM – 12:00 PM, from ${formatLongDate(first)}, 4 visits`;
  await expect(dialog.getByRole('status')).toHaveText(words);
  await screenshot(page, 'repeating-visits-form');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Book the repeating visits' }).click();
  await expect(page.getByText('Repeating visits booked: the client is told')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The plan with its next dates; the job's visits, four of them two weeks apart, at 10.
  await expect(section).toContainText(words);
  await expect(section).toContainText(`Next: ${formatLongDate(first)} · ${formatLongDate(addDays(first, 14))}`);
  await expect(section).toContainText('(all booked on the calendar)');
  const visits = page.getByRole('region', { name: 'Visits' });
  for (const n of [0, 1, 2, 3])
    await expect(visits.getByText(`${formatLongDate(addDays(first, 14 * n))}, 10:00–12:00`)).toBeVisible();
  await screenshot(page, 'repeating-visits-job');

  // The client is told once, in the rule's words; no e-mail per visit.
  const series = await waitForMail(email, /^Your regular visits: /);
  expect(series.text).toContain(`We will come every 2 weeks on ${weekday}`);
  expect(series.text).toContain(formatLongDate(addDays(first, 42)));

  // From the calendar: the second visit's dialog changes it alone, or it and those after it from its date.
  await page.goto('/admin/calendar');
  await page.getByRole('button', { name: 'Month' }).click();
  const second = addDays(first, 14);
  if (second.slice(0, 7) !== todayIn(ZONE).slice(0, 7)) await page.locator('.fc-next-button').click();
  await page.locator(`td[data-date="${second}"] .fc-event`).filter({ hasText: name }).click();
  const visitDialog = page.getByRole('dialog', { name: 'Change the visit' });
  await expect(visitDialog.getByText('This visit repeats: the fields above change this one alone.')).toBeVisible();
  await visitDialog.getByRole('button', { name: 'Change this and the following visits' }).click();
  const fromCalendar = page.getByRole('dialog', { name: 'Change this and the following visits' });
  await expect(fromCalendar.getByRole('textbox', { name: /^From \(this visit/ })).toHaveValue(second);
  await expect(fromCalendar.getByRole('textbox', { name: 'Visits', exact: true })).toHaveValue('3');
  await expect(fromCalendar.getByRole('textbox', { name: 'Start', exact: true })).toHaveValue('10:00');
  await screenshot(page, 'repeating-visits-from-calendar');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(fromCalendar).toBeHidden();
  await page.goto(`/admin/jobs/${jobId}`);

  // "This and following": from the third visit on, at 1 PM. The form starts as the plan from its next
  // date, with the visits left; the first two stay at 10.
  await section.getByRole('button', { name: 'Change from a date' }).click();
  const change = page.getByRole('dialog', { name: 'Change the repeating visits' });
  await expect(change.getByRole('textbox', { name: /^From \(this visit and the following\)/ })).toHaveValue(first);
  await expect(change.getByRole('textbox', { name: 'Visits', exact: true })).toHaveValue('4');
  const from = addDays(first, 28);
  await change.getByRole('textbox', { name: /^From \(this visit/ }).fill(from);
  // The visits left from that date.
  await expect(change.getByRole('textbox', { name: 'Visits', exact: true })).toHaveValue('2');
  await change.getByRole('textbox', { name: 'Start', exact: true }).fill('13:00');
  await change.getByRole('textbox', { name: 'End', exact: true }).fill('15:00');
  const changedWords = `Every 2 weeks on ${weekday}, 1:00 PM – 3:00 PM, from ${formatLongDate(from)}, 2 visits`;
  await expect(change.getByRole('status')).toHaveText(changedWords);
  await screenshot(page, 'repeating-visits-change');
  await change.getByRole('button', { name: 'Change from this date' }).click();
  await expect(page.getByText('Repeating visits changed: the client is told')).toBeVisible();
  await expect(section).toContainText(changedWords);
  await expect(
    section.getByText(`Changed from ${formatLongDate(from)}: the plan above goes on from then.`),
  ).toBeVisible();
  for (const n of [0, 1])
    await expect(visits.getByText(`${formatLongDate(addDays(first, 14 * n))}, 10:00–12:00`)).toBeVisible();
  for (const n of [2, 3])
    await expect(visits.getByText(`${formatLongDate(addDays(first, 14 * n))}, 13:00–15:00`)).toBeVisible();
  const changedMail = await waitForMail(email, /^Your regular visits are changed: /);
  expect(changedMail.text).toContain(`From ${formatLongDate(from)}, we will come every 2 weeks on ${weekday}`);
  await screenshot(page, 'repeating-visits-changed');

  // Stopped: the visits to come are cancelled, the client told once.
  await section.getByRole('button', { name: 'Stop repeating' }).click();
  const confirm = page.getByRole('dialog', { name: 'Stop repeating visits?' });
  await confirm.getByRole('button', { name: 'Stop repeating' }).click();
  await expect(page.getByText('The repeating visits are stopped: the client is told')).toBeVisible();
  await expect(section.getByText('Stopped')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Stop repeating' })).toHaveCount(0);
  // The whole series: the two before the change's date and the two after it.
  await expect(visits.getByText('Cancelled: The repeating visits are stopped.')).toHaveCount(4);
  await expect(visits.getByText('Cancelled: The repeating visits changed.')).toHaveCount(2);
  await waitForMail(email, /^Your regular visits are stopped$/);

  // After a reload, the same.
  await page.reload();
  await expect(section.getByText('Stopped')).toBeVisible();
});

/**
 * Issue 31's "invoices its first month": a plan billed by the month invoices the month it starts in at
 * once (numbered, e-mailed, with its dates and sales tax), and the job lists it.
 */
test('a monthly plan billed by the month invoices its first month at once; the job lists the invoice', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const name = `Mona Monthly ${device()}${Date.now().toString(36)}`;
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
  const worker = await createEmployee(request, { fullName: `Pat Pressure ${device()}` });
  const jobId = await soldJobFor(request, name, worker.id, waitForMail);
  const today = todayIn(ZONE);
  const month = new Date(`${today}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

  await signInAs(page, await apiToken(request));
  await page.goto(`/admin/jobs/${jobId}`);
  const section = page.getByRole('region', { name: 'Repeating visits', exact: true });
  await section.getByRole('button', { name: 'Make visits repeat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make visits repeat' });
  await dialog.getByRole('textbox', { name: 'Every', exact: true }).fill('1');
  await dialog.getByText('months', { exact: true }).click();
  await dialog.getByRole('textbox', { name: /^From/ }).fill(today);
  // Today's weekday of the month (the 5th Sunday is the last): its first visit is today, so this month is billed.
  const nth = Math.ceil(Number(today.slice(8)) / 7);
  await dialog.getByText('A weekday of the month').click();
  await dialog.getByRole('combobox', { name: 'Which' }).click();
  await page
    .getByRole('option', { name: ['First', 'Second', 'Third', 'Fourth', 'Last'][nth - 1]!, exact: true })
    .click();
  await dialog.getByRole('combobox', { name: 'Weekday' }).click();
  await page.getByRole('option', { name: weekdayOf(today), exact: true }).click();
  await dialog.getByRole('radio', { name: 'Not set: until it is stopped' }).check();
  // Booked a year ahead: past the next daylight-saving change, whichever it is.
  await dialog.getByRole('combobox', { name: 'Book ahead' }).click();
  await page.getByRole('option', { name: 'A year', exact: true }).click();
  // Billed each month: a price is asked, then the rule reads back with it.
  await dialog.getByRole('radio', { name: 'Each month, on the 1st (this month at once)' }).check();
  await dialog.getByRole('button', { name: 'Book the repeating visits' }).click();
  await expect(dialog.getByText('Price must be a number')).toBeVisible();
  await dialog.getByRole('textbox', { name: /^Price per month/ }).fill('89.50');
  await dialog.getByRole('checkbox', { name: 'Charge sales tax' }).check();
  await expect(dialog.getByRole('status')).toContainText('. Billed $89.50 a month, on the 1st, plus sales tax');
  await screenshot(page, 'repeating-visits-billing-form');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Book the repeating visits' }).click();
  await expect(page.getByText('Repeating visits booked: the client is told')).toBeVisible();
  await expect(section).toContainText('Billed $89.50 a month, on the 1st, plus sales tax');

  // Its visits keep 9 AM across the daylight-saving change: the instant moves by the hour, the page's time
  // does not.
  const offsetOn = (date: string) => zonedTimeToUtc(date, '12:00', ZONE).getUTCHours();
  let change = addDays(today, 1);
  while (offsetOn(change) === offsetOn(today)) change = addDays(change, 1);
  const admin = { authorization: `Bearer ${await apiToken(request)}` };
  const { visits: made } = (await (await request.get(`/api/jobs/${jobId}/visits`, { headers: admin })).json()) as {
    visits: VisitView[];
  };
  const planned = made.filter((v) => v.planId && !v.cancelled);
  expect(planned.length).toBeGreaterThanOrEqual(12);
  expect(planned.every((v) => v.start === '09:00' && v.end === '11:00')).toBe(true);
  const before = planned.filter((v) => v.date < change).at(-1)!;
  const after = planned.find((v) => v.date >= change)!;
  expect(new Date(after.startsAt).getUTCHours()).not.toBe(new Date(before.startsAt).getUTCHours());
  const jobVisits = page.getByRole('region', { name: 'Visits' });
  for (const v of [before, after])
    await expect(jobVisits.getByText(`${formatLongDate(v.date)}, 09:00–11:00`)).toBeVisible();

  // The month's invoice: on the job, e-mailed to the client, its line naming the month and its dates.
  const invoices = page.getByRole('region', { name: 'Invoices of the repeating visits' });
  const link = invoices.getByRole('link', { name: /^INV-\d{4}-\d{4}$/ });
  await expect(link).toBeVisible();
  const number = (await link.textContent())!;
  // $89.50 and the Settings' sales tax: the same figure on the job and in the client's e-mail.
  await expect(invoices).toContainText(/Sent · \$9\d\.\d\d/);
  const total = /Sent · (\$9\d\.\d\d)/.exec((await invoices.textContent())!)![1]!;
  const mail = await waitForMail(email, new RegExp(`^Invoice ${number} from `));
  expect(mail.text).toContain(total);
  await screenshot(page, 'repeating-visits-invoiced');
  await link.click();
  await expect(page.getByRole('heading', { name: new RegExp(number) })).toBeVisible();
  await expect(page.getByText(new RegExp(`^Regular visits, ${month}: `))).toBeVisible();

  // Reports: the repeating work running, what it bills a month, and the next 90 days.
  await page.goto('/admin/reports');
  const work = page.getByRole('region', { name: 'Repeating work' });
  await expect(work.getByText('Plans running')).toBeVisible();
  await expect(work).toContainText(/Billed by the month\$[\d,]+\.\d\d a month/);
  await expect(work).toContainText(/Next 90 days\d+ visits?, \$[\d,]+\.\d\d/);
  await screenshot(page, 'reports-repeating-work');
});
