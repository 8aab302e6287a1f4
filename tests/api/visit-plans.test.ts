import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatLongDate, formatShortDay, todayIn, wallTimeIn, weekdayOf } from '#shared/dates';
import { occurrencesBetween, recurrenceInput } from '#shared/recurrence';
import type { VisitPlanView } from '#shared/schemas/visit-plans';
import { invoiceLines, invoices, jobs, visitPlans, visits, visitWorkers } from '../../src/server/db/schema';
import { makePlanVisits } from '../../src/server/visits';
import { insertJob } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';

/** Issue 31, recurring work (decision 047): a job's visits that repeat, made ahead up to a horizon. */
describe.each(dbKinds)('repeating visits (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let owner: Record<string, string>;
  let worker: string;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    owner = bearer((await createUserAndSignIn(t, 'admin')).token);
    worker = (await createUserAndSignIn(t, 'employee')).user.id;
  });
  afterAll(() => t.close());

  const start = (jobId: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/jobs/${jobId}/plans`, headers: owner, payload });
  const visitsOf = (planId: string) =>
    t.database.db
      .select()
      .from(visits)
      .where(and(eq(visits.planId, planId), isNull(visits.cancelledAt)));

  it('makes the visits up to the horizon at once, at 9 AM each, with the crew and a reminder; the client is told once', async () => {
    const email = `plan${Date.now()}@home.test`;
    const jobId = await insertJob(t, { email });
    const today = todayIn(ZONE);
    const rule = {
      every: 2,
      unit: 'week',
      weekdays: ['Tuesday'],
      firstDate: addDays(today, 1),
      start: '09:00',
      end: '11:00',
    };
    const res = await start(jobId, { rule, workerIds: [worker], notes: 'Gutters, front and back', horizonWeeks: 8 });
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json<VisitPlanView>();
    expect(plan.description).toMatch(/^Every 2 weeks on Tuesday, 9:00 AM – 11:00 AM, from /);
    expect(plan.rrule).toBe('FREQ=WEEKLY;INTERVAL=2;WKST=MO;BYDAY=TU');
    expect(plan.madeThrough).toBe(addDays(today, 56));

    const expected = occurrencesBetween(recurrenceInput.parse(rule), addDays(today, 1), addDays(today, 56));
    const made = (await visitsOf(plan._id)).sort((a, b) => a.planDate!.localeCompare(b.planDate!));
    expect(made.map((v) => v.planDate)).toEqual(expected);
    for (const v of made) {
      expect(wallTimeIn(ZONE, v.startsAt)).toEqual({ date: v.planDate, time: '09:00' });
      expect(v.notes).toBe('Gutters, front and back');
      expect(v.reminderMailId).not.toBeNull();
    }
    const crew = await t.database.db.select().from(visitWorkers).where(eq(visitWorkers.visitId, made[0]!.id));
    expect(crew.map((c) => c.userId)).toEqual([worker]);

    const series = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your regular visits:')),
      {
        what: 'the series e-mail',
      },
    );
    expect(series.parsed.text).toContain('We will come every 2 weeks on Tuesday');
    // Once for the series: no e-mail per visit.
    expect(smtp.to(email).filter((m) => m.parsed.subject?.startsWith('Your visit on'))).toHaveLength(0);

    // The job's plans, as the office reads them.
    const listed = (await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}/plans`, headers: owner })).json<{
      plans: VisitPlanView[];
    }>();
    expect(listed.plans.map((p) => [p._id, p.ended, p.nextDates[0]])).toEqual([[plan._id, false, expected[0]]]);
  });

  /** The worker booked at another job on `date`, 9 to 11. */
  async function busyElsewhere(worker: string, date: string) {
    const other = await insertJob(t);
    const booked = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${other}/visits`,
      headers: owner,
      payload: { date, start: '09:00', end: '11:00', workerIds: [worker], confirm: true },
    });
    expect(booked.statusCode, booked.body).toBe(201);
  }

  it('books a series whatever the crew’s other visits, and names the visits that clash', async () => {
    const today = todayIn(ZONE);
    const first = addDays(today, 2);
    const worker = (await createUserAndSignIn(t, 'employee')).user.id;
    // The worker is already at another job on the first date, 9 to 11.
    await busyElsewhere(worker, first);
    const jobId = await insertJob(t);
    const rule = {
      every: 1,
      unit: 'week',
      weekdays: [weekdayOf(first)],
      firstDate: first,
      start: '10:00',
      end: '12:00',
      count: 3,
    };
    const res = await start(jobId, { rule, workerIds: [worker] });
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json<VisitPlanView>();
    expect(plan.clashes).toHaveLength(1);
    expect(plan.clashes[0]).toMatch(new RegExp(`^\\w{3}, \\w{3} \\d+: .+ is booked 09:00–11:00 that day \\(`));
    expect((await visitsOf(plan._id)).length).toBe(3);
    // As the job lists it later: no clashes carried.
    const listed = (await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}/plans`, headers: owner })).json<{
      plans: VisitPlanView[];
    }>();
    expect(listed.plans[0]!.clashes).toEqual([]);
  });

  it('the horizon job books the later visits over the crew’s other work too, and tells the owner which to move', async () => {
    const today = todayIn(ZONE);
    const first = addDays(today, 2);
    const worker = (await createUserAndSignIn(t, 'employee')).user.id;
    // Two weeks on from the first date the worker is at another job, 9 to 11: past the plan's first week.
    const clashDay = addDays(first, 14);
    await busyElsewhere(worker, clashDay);
    const jobId = await insertJob(t, { name: 'Horace Horizon' });
    const rule = {
      every: 1,
      unit: 'week',
      weekdays: [weekdayOf(first)],
      firstDate: first,
      start: '10:00',
      end: '12:00',
    };
    const res = await start(jobId, { rule, workerIds: [worker], horizonWeeks: 1 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<VisitPlanView>().clashes).toEqual([]);

    // The job's turn two weeks later books the clashing date, and the owner hears of it once.
    await makePlanVisits(t.app, { today: addDays(today, 14) });
    const plan = res.json<VisitPlanView>();
    expect((await visitsOf(plan._id)).map((v) => v.planDate)).toContain(clashDay);
    const notice = await waitFor(
      () =>
        smtp.to('owner@handyman.test').find((m) => m.parsed.subject === 'Repeating visits to move: Horace Horizon (1)'),
      { what: 'the owner’s notice of the clash' },
    );
    expect(notice.parsed.text).toContain(`${formatShortDay(clashDay)}: `);
    expect(notice.parsed.text).toMatch(/is booked 09:00–11:00 that day/);
    expect(notice.parsed.text).toContain(`/admin/jobs/${jobId}`);
    // The next turn makes nothing new and says nothing again.
    await makePlanVisits(t.app, { today: addDays(today, 14) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.to('owner@handyman.test').filter((m) => m.parsed.subject?.includes('Horace Horizon'))).toHaveLength(1);
  });

  it('two servers making the visits at once make each one once, and a longer horizon adds only the new dates', async () => {
    const jobId = await insertJob(t);
    const today = todayIn(ZONE);
    const rule = {
      every: 1,
      unit: 'week',
      weekdays: ['Monday', 'Thursday'],
      firstDate: today,
      start: '13:00',
      end: '14:00',
    };
    const res = await start(jobId, { rule, horizonWeeks: 1 });
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json<VisitPlanView>();
    const first = (await visitsOf(plan._id)).length;
    // Far enough ahead now: the next turns of the horizon job find the new dates.
    await t.database.db.update(visitPlans).set({ horizonWeeks: 6 }).where(eq(visitPlans.id, plan._id));
    await Promise.all([makePlanVisits(t.app), makePlanVisits(t.app), makePlanVisits(t.app)]);
    const dates = (await visitsOf(plan._id)).map((v) => v.planDate!).sort();
    const expected = occurrencesBetween(recurrenceInput.parse(rule), today, addDays(today, 42)).filter(
      (d) => d >= today,
    );
    expect(dates).toEqual(expected);
    expect(dates.length).toBeGreaterThan(first);
    expect(new Set(dates).size).toBe(dates.length);
    // Once more: nothing new.
    expect(await makePlanVisits(t.app)).toBe(0);
  });

  it('keeps 9 AM at 9 AM across the spring change (a 26-week horizon from late November reaches March)', async () => {
    const jobId = await insertJob(t);
    const today = todayIn(ZONE);
    const res = await start(jobId, {
      rule: {
        every: 1,
        unit: 'month',
        monthly: { kind: 'weekday', nth: 2, weekday: 'Saturday' },
        firstDate: today,
        start: '09:00',
        end: '10:00',
      },
      horizonWeeks: 26,
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = await visitsOf(res.json<VisitPlanView>()._id);
    expect(made.length).toBeGreaterThanOrEqual(5);
    const offsets = new Set(made.map((v) => v.startsAt.getUTCHours()));
    // 17:00 UTC in winter (PST), 16:00 UTC once the clocks go forward (PDT): both, and 9 AM each.
    if (made.some((v) => v.planDate! >= '2027-03-14') && made.some((v) => v.planDate! < '2027-03-14'))
      expect(offsets).toEqual(new Set([16, 17]));
    for (const v of made) expect(wallTimeIn(ZONE, v.startsAt).time).toBe('09:00');
  });

  it('a monthly plan in autumn keeps 9 AM across the November change and invoices its first month (October)', async () => {
    const email = `autumn${Date.now()}@home.test`;
    const jobId = await insertJob(t, { email });
    // The first Monday of each month from October 2027, billed by the month; made when the job reaches it.
    const res = await start(jobId, {
      rule: {
        every: 1,
        unit: 'month',
        monthly: { kind: 'weekday', nth: 1, weekday: 'Monday' },
        firstDate: '2027-10-04',
        start: '09:00',
        end: '10:30',
      },
      horizonWeeks: 10,
      billing: 'month',
      price: 60,
    });
    expect(res.statusCode, res.body).toBe(201);
    const planId = res.json<VisitPlanView>()._id;
    expect(await visitsOf(planId)).toHaveLength(0);
    expect(await invoicesOf(jobId)).toHaveLength(0);

    // The horizon job's turn on October 1, 2027: ten weeks ahead reaches December.
    await makePlanVisits(t.app, { today: '2027-10-01' });
    const made = (await visitsOf(planId)).sort((a, b) => a.planDate!.localeCompare(b.planDate!));
    expect(made.map((v) => v.planDate)).toEqual(['2027-10-04', '2027-11-01', '2027-12-06']);
    // 16:00 UTC before the change (PDT), 17:00 after it (PST): 9 AM in Sacramento each time.
    expect(made.map((v) => v.startsAt.toISOString())).toEqual([
      '2027-10-04T16:00:00.000Z',
      '2027-11-01T16:00:00.000Z',
      '2027-12-06T17:00:00.000Z',
    ]);
    for (const v of made) expect(wallTimeIn(ZONE, v.endsAt).time).toBe('10:30');
    // Its first month, October, invoiced once, naming the month's visit.
    const bills = await invoicesOf(jobId);
    expect(bills.map((b) => [b.sourceKey, b.subtotalCents])).toEqual([[`plan:${planId}:2027-10`, 6000]]);
    const [line] = await t.database.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, bills[0]!.id));
    expect(line!.description).toBe('Regular visits, October 2027: Mon, Oct 4');
    // November 1st: November's invoice.
    await makePlanVisits(t.app, { today: '2027-11-01' });
    expect((await invoicesOf(jobId)).map((b) => b.sourceKey)).toEqual([
      `plan:${planId}:2027-10`,
      `plan:${planId}:2027-11`,
    ]);
  });

  it('"this and following": from a date the visits come on another day and time; those before stay; two changes at once, one wins', async () => {
    const email = `change${Date.now()}@home.test`;
    const jobId = await insertJob(t, { email });
    const today = todayIn(ZONE);
    const first = addDays(today, 1);
    const rule = {
      every: 1,
      unit: 'week',
      weekdays: [weekdayOf(first)],
      firstDate: first,
      start: '09:00',
      end: '10:00',
      count: 6,
    };
    const res = await start(jobId, { rule, workerIds: [worker], horizonWeeks: 8 });
    expect(res.statusCode, res.body).toBe(201);
    const old = res.json<VisitPlanView>();
    expect((await visitsOf(old._id)).length).toBe(6);

    // From the third visit on: two days later in the week, at 2 PM, for the 4 visits left.
    const from = addDays(first, 14);
    const later = addDays(from, 2);
    const change = (body: object) =>
      t.app.inject({ method: 'POST', url: `/api/plans/${old._id}/change`, headers: owner, payload: body });
    const changed = {
      rule: {
        every: 1,
        unit: 'week',
        weekdays: [weekdayOf(later)],
        firstDate: from,
        start: '14:00',
        end: '15:00',
        count: 4,
      },
      workerIds: [worker],
      horizonWeeks: 8,
    };
    const [a, b] = await Promise.all([change(changed), change(changed)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const plan = (a.statusCode === 201 ? a : b).json<VisitPlanView>();
    expect(plan.description).toMatch(/^Every week on \w+day, 2:00 PM – 3:00 PM, from /);

    // The two before stay at 9; the four after are the new plan's, at 2 PM on the new weekday.
    const kept = (await visitsOf(old._id)).map((v) => v.planDate).sort();
    expect(kept).toEqual([first, addDays(first, 7)]);
    const called = await t.database.db
      .select()
      .from(visits)
      .where(and(eq(visits.planId, old._id)));
    expect(called.filter((v) => v.cancelledAt).map((v) => v.cancelReason)).toEqual(
      Array(4).fill('The repeating visits changed.'),
    );
    const made = (await visitsOf(plan._id)).sort((x, y) => x.planDate!.localeCompare(y.planDate!));
    expect(made.map((v) => v.planDate)).toEqual([0, 1, 2, 3].map((n) => addDays(later, 7 * n)));
    for (const v of made) expect(wallTimeIn(ZONE, v.startsAt).time).toBe('14:00');
    const [closed] = await t.database.db.select().from(visitPlans).where(eq(visitPlans.id, old._id));
    expect(closed!.endedAt).not.toBeNull();
    expect(closed!.rule.until).toBe(addDays(from, -1));

    // One e-mail says what changes from when; the visits before are not cancelled to the client.
    const mail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your regular visits are changed:')),
      { what: 'the change e-mail' },
    );
    expect(mail.parsed.text).toContain(`From ${formatLongDate(from)}, we will come every week on ${weekdayOf(later)}`);
    expect(smtp.to(email).filter((m) => m.parsed.subject === 'Your regular visits are stopped')).toHaveLength(0);

    // A change cannot start in the past, nor change a stopped plan.
    const past = await t.app.inject({
      method: 'POST',
      url: `/api/plans/${plan._id}/change`,
      headers: owner,
      payload: { ...changed, rule: { ...changed.rule, firstDate: addDays(today, -1) } },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toContain('A change starts today or later');
    expect((await change(changed)).statusCode).toBe(409);

    // Stopping the changed plan stops the series: the visits before the change's date too.
    const stopped = await t.app.inject({ method: 'POST', url: `/api/plans/${plan._id}/stop`, headers: owner });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(await visitsOf(old._id)).toHaveLength(0);
    expect(await visitsOf(plan._id)).toHaveLength(0);
  });

  it('a change from before the running plan’s first date reaches back into the plan it changed from: no date booked twice', async () => {
    const jobId = await insertJob(t);
    const first = addDays(todayIn(ZONE), 2);
    const weekly = (firstDate: string, start: string, count: number) => ({
      rule: { every: 1, unit: 'week', weekdays: [weekdayOf(first)], firstDate, start, end: '17:00', count },
      horizonWeeks: 8,
    });
    const a = (await start(jobId, weekly(first, '10:00', 6))).json<VisitPlanView>();
    const change = (planId: string, body: object) =>
      t.app.inject({ method: 'POST', url: `/api/plans/${planId}/change`, headers: owner, payload: body });
    // From the fifth visit at 1 PM; then, on the plan running now, from the third at 3 PM.
    const b = await change(a._id, weekly(addDays(first, 28), '13:00', 2));
    expect(b.statusCode, b.body).toBe(201);
    const c = await change(b.json<VisitPlanView>()._id, weekly(addDays(first, 14), '15:00', 4));
    expect(c.statusCode, c.body).toBe(201);

    const booked = await t.database.db
      .select()
      .from(visits)
      .where(and(eq(visits.jobId, jobId), isNull(visits.cancelledAt)));
    const byDate = booked.map((v) => `${v.planDate} ${wallTimeIn(ZONE, v.startsAt).time}`).sort();
    expect(byDate).toEqual([
      `${first} 10:00`,
      `${addDays(first, 7)} 10:00`,
      ...[14, 21, 28, 35].map((n) => `${addDays(first, n)} 15:00`),
    ]);
    const [first1] = await t.database.db.select().from(visitPlans).where(eq(visitPlans.id, a._id));
    expect(first1!.rule.until).toBe(addDays(first, 13));
    // The job lists the series: the plan running now, and the two it changed from.
    const listed = (await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}/plans`, headers: owner })).json<{
      plans: VisitPlanView[];
    }>();
    expect(listed.plans.filter((p) => !p.ended).map((p) => p._id)).toEqual([c.json<VisitPlanView>()._id]);
    expect(listed.plans.find((p) => p._id === b.json<VisitPlanView>()._id)!.replacedBy).toBe(
      c.json<VisitPlanView>()._id,
    );

    // Stopped, the whole series' visits to come go.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/plans/${c.json<VisitPlanView>()._id}/stop`, headers: owner }))
        .statusCode,
    ).toBe(200);
    const left = await t.database.db
      .select()
      .from(visits)
      .where(and(eq(visits.jobId, jobId), isNull(visits.cancelledAt)));
    expect(left).toEqual([]);
  });

  it('stops: the visits still to come are called off, the client told once; a second stop is refused', async () => {
    const email = `stop${Date.now()}@home.test`;
    const jobId = await insertJob(t, { email });
    const today = todayIn(ZONE);
    const res = await start(jobId, {
      rule: {
        every: 1,
        unit: 'week',
        weekdays: ['Wednesday'],
        firstDate: addDays(today, 1),
        start: '10:00',
        end: '11:00',
      },
      horizonWeeks: 4,
    });
    const plan = res.json<VisitPlanView>();
    expect((await visitsOf(plan._id)).length).toBeGreaterThan(0);
    const stop = () => t.app.inject({ method: 'POST', url: `/api/plans/${plan._id}/stop`, headers: owner });
    const stopped = await stop();
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ ended: true, nextDates: [] });
    expect(await visitsOf(plan._id)).toHaveLength(0);
    const all = await t.database.db.select().from(visits).where(eq(visits.planId, plan._id));
    for (const v of all) expect(v.cancelReason).toBe('The repeating visits are stopped.');
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject === 'Your regular visits are stopped'), {
      what: 'the stop e-mail',
    });
    expect((await stop()).statusCode).toBe(409);
    // The horizon job makes nothing for a stopped plan.
    await t.database.db.update(visitPlans).set({ madeThrough: today }).where(eq(visitPlans.id, plan._id));
    await makePlanVisits(t.app);
    expect(await visitsOf(plan._id)).toHaveLength(0);
  });

  const invoicesOf = (jobId: string) =>
    t.database.db.select().from(invoices).where(eq(invoices.jobId, jobId)).orderBy(invoices.createdAt);

  it('a monthly plan invoices its first month at once, numbered and e-mailed with its dates and tax, and each month once', async () => {
    const email = `monthly${Date.now()}@home.test`;
    const jobId = await insertJob(t, { email });
    const today = todayIn(ZONE);
    const rule = {
      every: 1,
      unit: 'week',
      weekdays: [weekdayOf(today)],
      firstDate: today,
      start: '08:00',
      end: '09:00',
    };
    const res = await start(jobId, { rule, horizonWeeks: 2, billing: 'month', price: 120.5, taxable: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<VisitPlanView>()).toMatchObject({ billing: 'month', price: 120.5, taxable: true });
    const planId = res.json<VisitPlanView>()._id;

    const [bill, ...more] = await invoicesOf(jobId);
    expect(more).toHaveLength(0);
    expect(bill).toMatchObject({ kind: 'plan', state: 'Sent', subtotalCents: 12050, clientEmail: email });
    expect(bill!.number).toMatch(/^INV-\d{4}-\d{4}$/);
    expect(bill!.sourceKey).toBe(`plan:${planId}:${today.slice(0, 7)}`);
    // The tax at the Settings' rate (Sacramento's by default) on the taxed price, in whole cents.
    expect(bill!.taxRateBasisPoints).toBeGreaterThan(0);
    expect(bill!.totalCents).toBe(bill!.subtotalCents + bill!.taxCents);
    expect(bill!.taxCents).toBe(Math.round((12050 * bill!.taxRateBasisPoints) / 10_000));
    const [line] = await t.database.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, bill!.id));
    const month = new Date(`${today}T12:00:00Z`).toLocaleDateString('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    expect(line!.description.startsWith(`Regular visits, ${month}: `)).toBe(true);
    const mail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Invoice ${bill!.number}`)),
      {
        what: 'the month’s invoice',
      },
    );
    expect(mail.parsed.text).toContain('$');

    // Three servers at once, and a month asked for again (its mark set back): still one invoice.
    await t.database.db.update(visitPlans).set({ billedThrough: null }).where(eq(visitPlans.id, planId));
    await Promise.all([makePlanVisits(t.app), makePlanVisits(t.app), makePlanVisits(t.app)]);
    expect(await invoicesOf(jobId)).toHaveLength(1);
    const [row] = await t.database.db.select().from(visitPlans).where(eq(visitPlans.id, planId));
    expect(row!.billedThrough).toBe(`${today.slice(0, 7)}-01`);
  });

  it('a plan billed per visit invoices each visit once it is over, once, and never a cancelled one', async () => {
    const email = `pervisit${Date.now()}@home.test`;
    const jobId = await insertJob(t, { email });
    const today = todayIn(ZONE);
    const rule = {
      every: 1,
      unit: 'week',
      weekdays: ['Tuesday', 'Friday'],
      firstDate: addDays(today, 1),
      start: '10:00',
      end: '11:00',
    };
    const res = await start(jobId, { rule, horizonWeeks: 3, billing: 'visit', price: 85 });
    expect(res.statusCode, res.body).toBe(201);
    const planId = res.json<VisitPlanView>()._id;
    expect(await invoicesOf(jobId)).toHaveLength(0);

    // Two of its visits are over (moved into the past), one of them cancelled.
    const [over, cancelled] = (await visitsOf(planId)).sort((a, b) => a.planDate!.localeCompare(b.planDate!));
    const past = { startsAt: new Date(Date.now() - 3 * 3600_000), endsAt: new Date(Date.now() - 2 * 3600_000) };
    await t.database.db.update(visits).set(past).where(eq(visits.id, over!.id));
    await t.database.db
      .update(visits)
      .set({ ...past, cancelledAt: new Date() })
      .where(eq(visits.id, cancelled!.id));
    await Promise.all([makePlanVisits(t.app), makePlanVisits(t.app), makePlanVisits(t.app)]);

    const bills = await invoicesOf(jobId);
    expect(bills.map((b) => [b.kind, b.state, b.subtotalCents, b.taxCents, b.sourceKey])).toEqual([
      ['plan', 'Sent', 8500, 0, `visit:${over!.id}`],
    ]);
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.id, over!.id));
    expect(visit!.invoiceId).toBe(bills[0]!.id);
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Invoice ${bills[0]!.number}`)), {
      what: 'the visit’s invoice',
    });
    // Once more: nothing new.
    await makePlanVisits(t.app);
    expect(await invoicesOf(jobId)).toHaveLength(1);
  });

  it('Reports count the plans running, what they bill a month and the next 90 days; a stopped plan leaves them', async () => {
    type Recurring = { plans: number; monthly: number; days: number; visitsAhead: number; ahead: number };
    const figures = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/reports', headers: owner })).json<{ recurring: Recurring }>()
        .recurring;
    const before = await figures();
    expect(before.days).toBe(90);
    const today = todayIn(ZONE);
    // Every week on Wednesday at $40 a visit, and the 15th of each month at $99.99 a month, both open-ended.
    const weekly = { every: 1, unit: 'week', weekdays: ['Wednesday'], firstDate: today, start: '08:00', end: '09:00' };
    const monthly = {
      every: 1,
      unit: 'month',
      monthly: { kind: 'day', day: 15 },
      firstDate: today,
      start: '08:00',
      end: '09:00',
    };
    const a = await start(await insertJob(t), { rule: weekly, billing: 'visit', price: 40 });
    const b = await start(await insertJob(t), { rule: monthly, billing: 'month', price: 99.99 });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const after = await figures();
    const ahead = (rule: object) =>
      occurrencesBetween(recurrenceInput.parse(rule), addDays(today, 1), addDays(today, 90)).length;
    // The 1sts in the next 90 days: three or four, by the month's length and today's date.
    let firsts = 0;
    for (let d = addDays(today, 1); d <= addDays(today, 90); d = addDays(d, 1)) if (d.endsWith('-01')) firsts++;
    expect(after.plans - before.plans).toBe(2);
    expect(Math.round((after.monthly - before.monthly) * 100)).toBe(9999);
    expect(after.visitsAhead - before.visitsAhead).toBe(ahead(weekly) + ahead(monthly));
    expect(Math.round((after.ahead - before.ahead) * 100)).toBe(ahead(weekly) * 4000 + firsts * 9999);

    await t.app.inject({ method: 'POST', url: `/api/plans/${b.json<VisitPlanView>()._id}/stop`, headers: owner });
    const stopped = await figures();
    expect(stopped.plans - before.plans).toBe(1);
    expect(stopped.monthly).toBe(before.monthly);

    // The job of the one left is done: its plan leaves them too (Reports keeps these figures until
    // the jobs, the plans or the money change).
    await t.database.db.update(jobs).set({ status: 'Completed' }).where(eq(jobs.id, a.json<VisitPlanView>().jobId));
    const done = await figures();
    expect(done.plans).toBe(before.plans);
    expect(done.visitsAhead).toBe(before.visitsAhead);
    expect(done.ahead).toBe(before.ahead);
  });

  it('refuses a billed plan without a price', async () => {
    const jobId = await insertJob(t);
    const res = await start(jobId, {
      rule: { every: 1, unit: 'week', weekdays: ['Monday'], firstDate: todayIn(ZONE), start: '09:00', end: '10:00' },
      billing: 'month',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Price must be more than 0');
  });

  it('refuses a rule that cannot be, saying which field, and a finished job; only the office may', async () => {
    const jobId = await insertJob(t);
    const bad = await start(jobId, {
      rule: { every: 1, unit: 'week', weekdays: [], firstDate: todayIn(ZONE), start: '10:00', end: '09:00' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The visit must end after it starts');
    expect(bad.body).toContain('Pick the weekday');
    const done = await insertJob(t, { status: 'Completed' });
    const refused = await start(done, {
      rule: { every: 1, unit: 'week', weekdays: ['Monday'], firstDate: todayIn(ZONE), start: '09:00', end: '10:00' },
    });
    expect(refused.statusCode).toBe(409);
    const stranger = await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}/plans` });
    expect(stranger.statusCode).toBe(401);
  });
});
