import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS } from '#shared/schemas/schedule';
import type { VisitChangeOptions } from '#shared/schemas/booking';
import type { ClientPageView } from '#shared/schemas/client-page';
import { addDays, todayIn, zonedTimeToUtc } from '#shared/dates';
import { clientPagePath, notePageLinkSent } from '../../src/server/clients';
import { auditLog, jobs, quoteRequestEvents, quoteRequests, users, visits } from '../../src/server/db/schema';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';
const OWNER = 'owner@handyman.test';

/** Every day of the week 8–10, 10–12, 1–3: the tests do not depend on which weekday today is. */
const everyDay = WEEKDAYS.flatMap((day) => [
  { day, start: '08:00', end: '10:00' },
  { day, start: '10:00', end: '12:00' },
  { day, start: '13:00', end: '15:00' },
]);
const rules = {
  windows: everyDay,
  leadBusinessDays: 0,
  horizonDays: 14,
  clientChanges: true,
  changeCutoffHours: 24,
  maxMoves: 2,
  onlineBooking: false,
  estimateMinutes: 60,
  estimateWorkerIds: [],
  bookingArea: [],
};

/** Issue 31: a client moves or cancels their own visit from their page (decision 046). */
describe.each(dbKinds)('a client changes their own visit (%s)', (kind) => {
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
    await t.database.db.update(users).set({ fullName: 'Wes Worker' }).where(eq(users.id, worker));
    const saved = await t.app.inject({ method: 'PUT', url: '/api/settings/booking', headers: owner, payload: rules });
    expect(saved.statusCode, saved.body).toBe(200);
  });
  afterAll(() => t.close());

  let n = 0;
  /** A client's job with a visit of `worker` in `days` days at `start` (2 hours), and their page's link. */
  async function clientWithVisit(days: number, start = '08:00', workerIds = [worker]) {
    const email = `mover${Date.now()}${++n}@home.test`;
    const request = await createQuoteRequest(t, { email, name: `Mover ${n}` });
    const [req] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, request._id));
    const jobId = await insertJob(t, { name: `Mover ${n}`, email, quoteRequestId: request._id });
    await t.database.db.update(jobs).set({ clientId: req!.clientId }).where(eq(jobs.id, jobId));
    const date = addDays(todayIn(ZONE), days);
    const [h, m] = start.split(':').map(Number);
    const end = `${String(h! + 2).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
    const booked = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${jobId}/visits`,
      headers: owner,
      payload: { date, start, end, workerIds, notes: '', clientNote: '', confirm: true },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    await notePageLinkSent(t.app, req!.clientId!);
    const path = await clientPagePath(t.app, req!.clientId!);
    const url = new URL(path, 'http://x');
    const id = url.pathname.split('/').pop()!;
    const token = url.searchParams.get('token')!;
    return { email, jobId, requestId: request._id, visitId: booked.json<{ _id: string }>()._id, date, id, token };
  }
  type Client = Awaited<ReturnType<typeof clientWithVisit>>;
  const options = async (c: Client) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/client-page/${c.id}/visits/${c.visitId}/changes?token=${encodeURIComponent(c.token)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<VisitChangeOptions>();
  };
  const reschedule = (c: Client, date: string, start: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/client-page/${c.id}/visits/${c.visitId}/reschedule`,
      payload: { token: c.token, date, start },
    });
  const cancel = (c: Client, reason: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/client-page/${c.id}/visits/${c.visitId}/cancel`,
      payload: { token: c.token, reason },
    });

  it('offers the windows the crew is free for, moves the visit, tells the client (.ics sequence up) and the office, and records the client', async () => {
    const c = await clientWithVisit(4);
    // Another job of the same worker two days later at 10–12: that window is not offered.
    const other = await clientWithVisit(6, '10:00');
    const offered = await options(c);
    expect(offered).toMatchObject({ open: true, closed: null, movesLeft: 2, phone: expect.any(String) });
    const key = (w: { date: string; start: string }) => `${w.date} ${w.start}`;
    const keys = offered.windows.map(key);
    expect(keys).not.toContain(`${c.date} 08:00`); // its own time
    expect(keys).not.toContain(`${other.date} 10:00`); // the worker's other visit
    expect(keys).toContain(`${other.date} 08:00`); // 8:00 + 2 hours ends as the other visit starts
    expect(keys).toContain(`${other.date} 13:00`);
    // The page shows the change's limits.
    const page = (
      await t.app.inject({ method: 'GET', url: `/api/client-page/${c.id}?token=${encodeURIComponent(c.token)}` })
    ).json<ClientPageView>();
    expect(page.visits[0]!.change).toMatchObject({ movesLeft: 2 });
    expect(Date.parse(page.visits[0]!.change!.until)).toBe(Date.parse(page.visits[0]!.startsAt) - 24 * 3_600_000);

    const bookedMail = await waitFor(
      () => smtp.to(c.email).find((m) => m.parsed.subject?.startsWith('Your visit on')),
      {
        what: 'booked e-mail',
      },
    );
    expect(bookedMail.parsed.text).toContain('Reschedule on your page');
    const target = addDays(c.date, 1);
    const moved = await reschedule(c, target, '13:00');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<{ when: string }>().when).toMatch(/arriving 1:00 PM – 3:00 PM$/);

    const [row] = await t.database.db.select().from(visits).where(eq(visits.id, c.visitId));
    expect(row).toMatchObject({ clientMoves: 1, confirmedBy: 'page' });
    expect(row!.endsAt.getTime() - row!.startsAt.getTime()).toBe(2 * 3_600_000);
    const movedMail = await waitFor(
      () => smtp.to(c.email).find((m) => m.parsed.subject?.startsWith('Your visit has moved')),
      {
        what: 'moved e-mail',
      },
    );
    const sequence = (mail: typeof movedMail) => {
      const ics = mail.parsed.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8');
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!);
      return { uid: event.uid, sequence: event.sequence, start: event.startDate.toJSDate() };
    };
    expect(sequence(movedMail).uid).toBe(sequence(bookedMail).uid);
    expect(sequence(movedMail).sequence).toBeGreaterThan(sequence(bookedMail).sequence);
    expect(sequence(movedMail).start.getTime()).toBe(row!.startsAt.getTime());
    const notice = await waitFor(
      () => smtp.to(OWNER).find((m) => m.parsed.subject?.includes(`Mover ${n - 1} moved their visit`)),
      {
        what: 'office notice',
      },
    );
    expect(notice.parsed.text).toContain('Was');
    expect(notice.parsed.text).toContain(`/admin/jobs/${c.jobId}`);

    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.target, c.visitId));
    expect(entry).toMatchObject({ userId: null, kind: 'visits', action: 'The client moved their visit' });
    expect(entry!.actorName).toMatch(/\(client\)$/);
    const steps = await t.database.db
      .select()
      .from(quoteRequestEvents)
      .where(eq(quoteRequestEvents.quoteRequestId, c.requestId));
    expect(steps.find((s) => s.kind === 'visit-moved')).toMatchObject({ actor: 'client' });

    // The calendar, by the worker, shows the new time.
    const from = zonedTimeToUtc(target, '00:00', ZONE).toISOString();
    const to = zonedTimeToUtc(addDays(target, 1), '00:00', ZONE).toISOString();
    const day = await t.app.inject({
      method: 'GET',
      url: `/api/visits?from=${from}&to=${to}&workerId=${worker}`,
      headers: owner,
    });
    expect(day.statusCode, day.body).toBe(200);
    expect(
      day.json<{ visits: { _id: string; start: string }[] }>().visits.find((v) => v._id === c.visitId),
    ).toMatchObject({
      start: '13:00',
    });
  });

  it('refuses a window taken meanwhile with the free ones, and stops after the moves allowed', async () => {
    const c = await clientWithVisit(5);
    const busy = await clientWithVisit(7, '10:00');
    const taken = await reschedule(c, busy.date, '10:00');
    expect(taken.statusCode).toBe(409);
    const body = taken.json<{ code: string; windows: { date: string; start: string }[] }>();
    expect(body.code).toBe('WINDOW_TAKEN');
    expect(body.windows.length).toBeGreaterThan(0);
    expect(body.windows.map((w) => `${w.date} ${w.start}`)).not.toContain(`${busy.date} 10:00`);

    await t.database.db.update(visits).set({ clientMoves: 2 }).where(eq(visits.id, c.visitId));
    expect((await options(c)).movesLeft).toBe(0);
    expect((await options(c)).windows).toEqual([]);
    const again = await reschedule(c, addDays(c.date, 1), '13:00');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CHANGE_CLOSED', message: expect.stringContaining('call us at') });
    // Cancelling is still theirs.
    expect((await cancel(c, 'We sold the house')).statusCode).toBe(200);
  });

  it('after the cut-off the page says to call; before it the client cancels with a reason and the office hears why', async () => {
    // Today at 9 PM, to come or passed: inside the 24 hours either way.
    const soon = await clientWithVisit(0, '21:00');
    const closed = await options(soon);
    expect(closed).toMatchObject({ open: false, closed: 'cutoff', windows: [] });
    const late = await cancel(soon, 'Sick');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'CHANGE_CLOSED' });
    const [still] = await t.database.db.select().from(visits).where(eq(visits.id, soon.visitId));
    expect(still!.cancelledAt).toBeNull();

    const c = await clientWithVisit(3, '13:00');
    expect((await cancel(c, '   ')).statusCode).toBe(400);
    const done = await cancel(c, 'The neighbour fixed it');
    expect(done.statusCode, done.body).toBe(200);
    const [row] = await t.database.db.select().from(visits).where(eq(visits.id, c.visitId));
    expect(row!.cancelledAt).not.toBeNull();
    expect(row!.cancelReason).toBe('Cancelled by the client: The neighbour fixed it');
    const mail = await waitFor(() => smtp.to(c.email).find((m) => /is cancelled$/.test(m.parsed.subject ?? '')), {
      what: 'cancel e-mail',
    });
    expect(mail.parsed.text).toContain('As you asked');
    const notice = await waitFor(
      () => smtp.to(OWNER).find((m) => m.parsed.subject?.startsWith(`Mover ${n} cancelled their visit`)),
      { what: 'office notice' },
    );
    expect(notice.parsed.text).toContain('The neighbour fixed it');
    // A cancelled visit has nothing left to change.
    expect((await cancel(c, 'Again')).statusCode).toBe(404);
  });

  it('keeps each client to their own visits, and the owner’s rules can turn changes off', async () => {
    const a = await clientWithVisit(4);
    const b = await clientWithVisit(4, '13:00');
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/client-page/${a.id}/visits/${b.visitId}/changes?token=${encodeURIComponent(a.token)}`,
    });
    expect(theirs.statusCode).toBe(404);
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/client-page/${a.id}/visits/${a.visitId}/cancel`,
      payload: { token: b.token, reason: 'x' },
    });
    expect(forged.statusCode).toBe(403);

    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/booking',
      headers: owner,
      payload: { ...rules, clientChanges: false },
    });
    expect(off.statusCode).toBe(200);
    try {
      expect(await options(a)).toMatchObject({ open: false, closed: 'off', until: null });
      expect((await reschedule(a, addDays(a.date, 1), '08:00')).statusCode).toBe(409);
      const page = (
        await t.app.inject({ method: 'GET', url: `/api/client-page/${a.id}?token=${encodeURIComponent(a.token)}` })
      ).json<ClientPageView>();
      expect(page.visits[0]!.change).toBeNull();
    } finally {
      await t.app.inject({ method: 'PUT', url: '/api/settings/booking', headers: owner, payload: rules });
    }
  });

  it('refuses windows that overlap or end before they start, and a crew member cannot change the rules', async () => {
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/booking',
      headers: owner,
      payload: {
        ...rules,
        windows: [
          { day: 'Monday', start: '08:00', end: '10:00' },
          { day: 'Monday', start: '09:00', end: '11:00' },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Monday: the windows 08:00–10:00 and 09:00–11:00 overlap');
    const crew = bearer((await createUserAndSignIn(t, 'employee')).token);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/settings/booking', headers: crew, payload: rules })).statusCode,
    ).toBe(403);
  });

  it('offers no window on the crew’s days off', async () => {
    const c = await clientWithVisit(9);
    const off = addDays(c.date, 1);
    // The visit's crew is `worker`; their day off is added as they would, on Set Schedule.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, worker));
    expect(row).toBeDefined();
    const workerToken = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: row!.username, password: 'correct horse battery' },
    });
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/my/time-off',
      headers: bearer(workerToken.json<{ token: string }>().token),
      payload: { from: off, to: off, reason: 'Away' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const dates = new Set((await options(c)).windows.map((x) => x.date));
    expect(dates.has(off)).toBe(false);
    expect(dates.has(addDays(off, 1))).toBe(true);
  });

  it('two clients racing for the last window: one moves, the other is offered what is left', async () => {
    const a = await clientWithVisit(8);
    const b = await clientWithVisit(8, '13:00');
    const target = addDays(a.date, 1);
    const answers = await Promise.all([reschedule(a, target, '10:00'), reschedule(b, target, '10:00')]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    expect(loser.json()).toMatchObject({ code: 'WINDOW_TAKEN' });
    const [winner, other] = answers[0]!.statusCode === 200 ? [a, b] : [b, a];
    const [won] = await t.database.db.select().from(visits).where(eq(visits.id, winner.visitId));
    const [lost] = await t.database.db.select().from(visits).where(eq(visits.id, other.visitId));
    expect(won!.clientMoves).toBe(1);
    expect(lost!.clientMoves).toBe(0);
    expect(lost!.startsAt.getTime()).not.toBe(won!.startsAt.getTime());
    // What the loser is offered no longer has it.
    expect(loser.json<{ windows: { date: string; start: string }[] }>().windows).not.toContainEqual(
      expect.objectContaining({ date: target, start: '10:00' }),
    );
  });
});
