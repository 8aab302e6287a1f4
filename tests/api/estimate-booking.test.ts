import { eq, inArray } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EstimateWindows } from '#shared/schemas/booking';
import type { ClientPageView } from '#shared/schemas/client-page';
import { WEEKDAYS } from '#shared/schemas/schedule';
import { addDays, todayIn, zonedTimeToUtc } from '#shared/dates';
import { clientPagePath, notePageLinkSent } from '../../src/server/clients';
import { quoteRequestEvents, quoteRequests, users, visits, visitWorkers } from '../../src/server/db/schema';
import { insertJob, quoteRequestBody } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';
const OWNER = 'owner@handyman.test';

const everyDay = WEEKDAYS.flatMap((day) => [
  { day, start: '08:00', end: '10:00' },
  { day, start: '10:00', end: '12:00' },
  { day, start: '13:00', end: '15:00' },
]);

/** Issue 31: a visitor books an estimate visit with their request on Get a Quote (decision 046). */
describe.each(dbKinds)('online booking of an estimate visit (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let owner: Record<string, string>;
  let ana: string;
  let ben: string;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    owner = bearer((await createUserAndSignIn(t, 'admin')).token);
    ana = (await createUserAndSignIn(t, 'employee')).user.id;
    ben = (await createUserAndSignIn(t, 'employee')).user.id;
    await t.database.db.update(users).set({ fullName: 'Ana Estimator' }).where(eq(users.id, ana));
    await t.database.db.update(users).set({ fullName: 'Ben Estimator' }).where(eq(users.id, ben));
  });
  afterAll(() => t.close());

  const rules = (over: object = {}) => ({
    windows: everyDay,
    leadBusinessDays: 0,
    horizonDays: 14,
    clientChanges: true,
    changeCutoffHours: 24,
    maxMoves: 2,
    onlineBooking: true,
    estimateMinutes: 60,
    estimateWorkerIds: [ana, ben],
    bookingArea: [],
    ...over,
  });
  const setRules = async (over: object = {}) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/settings/booking',
      headers: owner,
      payload: rules(over),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const windows = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/booking/windows' })).json<EstimateWindows>();
  let n = 0;
  const submit = (estimate: { date: string; start: string }, zip = '95814') => {
    const body = quoteRequestBody({ name: `Booker ${++n}`, email: `booker${Date.now()}${n}@home.test` });
    return {
      email: body.contactPerson.email,
      name: body.contactPerson.name,
      res: t.app.inject({
        method: 'POST',
        url: '/api/quoterequest/create',
        payload: { ...body, address: { ...body.address, zip }, images: [], estimate },
      }),
    };
  };
  const stored = async (email: string) =>
    t.database.db.select().from(quoteRequests).where(eq(quoteRequests.contactEmail, email));

  it('books nothing while online booking is off: no windows, and a request asking for one is refused whole', async () => {
    await setRules({ onlineBooking: false });
    expect(await windows()).toMatchObject({ open: false, windows: [] });
    const { email, res } = submit({ date: addDays(todayIn(ZONE), 3), start: '08:00' });
    const answer = await res;
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ code: 'BOOKING_OFF' });
    expect(await stored(email)).toHaveLength(0);
  });

  it('books the window with the free worker who has the fewest visits that day, and tells the client and the office', async () => {
    await setRules();
    const date = addDays(todayIn(ZONE), 3);
    // Ana has a job's visit that afternoon; Ben has none: Ben gets the estimate.
    const jobId = await insertJob(t);
    const busy = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${jobId}/visits`,
      headers: owner,
      payload: { date, start: '13:00', end: '15:00', workerIds: [ana], confirm: true },
    });
    expect(busy.statusCode, busy.body).toBe(201);
    const offered = await windows();
    expect(offered.open).toBe(true);
    expect(offered.minutes).toBe(60);
    // 1–3 that day is still offered: Ben is free then.
    expect(offered.windows).toContainEqual({ date, start: '13:00', end: '15:00' });

    const { email, name, res } = submit({ date, start: '08:00' });
    const answer = await res;
    expect(answer.statusCode, answer.body).toBe(201);
    const [request] = await stored(email);
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.quoteRequestId, request!.id));
    expect(visit).toMatchObject({ jobId: null });
    expect(visit!.startsAt.getTime()).toBe(zonedTimeToUtc(date, '08:00', ZONE).getTime());
    expect(visit!.endsAt.getTime() - visit!.startsAt.getTime()).toBe(60 * 60_000);
    const crew = await t.database.db.select().from(visitWorkers).where(eq(visitWorkers.visitId, visit!.id));
    expect(crew.map((c) => c.userId)).toEqual([ben]);

    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
      what: 'the estimate visit e-mail',
    });
    const ics = mail.parsed.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8');
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!);
    expect(event.startDate.toJSDate().getTime()).toBe(visit!.startsAt.getTime());
    const notice = await waitFor(() => smtp.to(OWNER).find((m) => m.parsed.subject?.includes(`from ${name} (`)), {
      what: 'the owner’s notice',
    });
    expect(notice.parsed.text).toContain('Estimate visit booked');
    const steps = await t.database.db
      .select()
      .from(quoteRequestEvents)
      .where(eq(quoteRequestEvents.quoteRequestId, request!.id));
    expect(steps.map((s) => s.kind)).toEqual(expect.arrayContaining(['request-created', 'estimate-booked']));

    // The office's calendar shows it, with the visitor as the client and the request to open.
    const from = zonedTimeToUtc(date, '00:00', ZONE).toISOString();
    const to = zonedTimeToUtc(addDays(date, 1), '00:00', ZONE).toISOString();
    const day = (await t.app.inject({ method: 'GET', url: `/api/visits?from=${from}&to=${to}`, headers: owner })).json<{
      visits: { _id: string; jobId: string | null; quoteRequestId: string | null; client: { name: string } }[];
    }>();
    expect(day.visits.find((v) => v._id === visit!.id)).toMatchObject({
      jobId: null,
      quoteRequestId: request!.id,
      client: { name },
    });

    // The client's page lists it, and they may move it like any visit.
    await notePageLinkSent(t.app, request!.clientId!);
    const link = new URL(await clientPagePath(t.app, request!.clientId!), 'http://x');
    const token = link.searchParams.get('token')!;
    const id = link.pathname.split('/').pop()!;
    const page = (
      await t.app.inject({ method: 'GET', url: `/api/client-page/${id}?token=${encodeURIComponent(token)}` })
    ).json<ClientPageView>();
    expect(page.visits.map((v) => v.id)).toEqual([visit!.id]);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/client-page/${id}/visits/${visit!.id}/reschedule`,
      payload: { token, date: addDays(date, 1), start: '10:00' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
  });

  it("declining the request calls its estimate visit off: the client's calendar entry is cancelled, the request lists it cancelled", async () => {
    await setRules();
    const date = addDays(todayIn(ZONE), 5);
    const { email, name, res } = submit({ date, start: '10:00' });
    expect((await res).statusCode).toBe(201);
    const [request] = await stored(email);
    const booked = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
      what: 'the estimate visit e-mail',
    });
    const listed = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/quoterequest/${request!.id}/visits`, headers: owner })).json<{
        visits: { _id: string; cancelled: boolean; cancelReason: string | null; start: string }[];
      }>().visits;
    expect(await listed()).toMatchObject([{ cancelled: false, start: '10:00' }]);
    // Only the office reads it.
    const stranger = await t.app.inject({ method: 'GET', url: `/api/quoterequest/${request!.id}/visits` });
    expect(stranger.statusCode).toBe(401);

    const declined = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/markDeclined',
      headers: owner,
      payload: {
        quoteRequestId: request!.id,
        clientEmail: email,
        clientName: name,
        reasonForDecline: 'Outside what we do.',
      },
    });
    expect(declined.statusCode, declined.body).toBe(200);
    const [visit] = await t.database.db.select().from(visits).where(eq(visits.quoteRequestId, request!.id));
    expect(visit!.cancelledAt).not.toBeNull();
    expect(await listed()).toMatchObject([{ cancelled: true, cancelReason: 'We will not be coming for an estimate.' }]);

    // The client: the decline with its reason, and the visit's cancellation with the same calendar entry, cancelled.
    await waitFor(() => smtp.to(email).find((m) => m.parsed.text?.includes('Outside what we do.')), {
      what: 'the decline e-mail',
    });
    const off = await waitFor(
      () => smtp.to(email).find((m) => /^Your visit on .+ is cancelled$/.test(m.parsed.subject ?? '')),
      {
        what: 'the cancellation',
      },
    );
    expect(off.parsed.text).not.toContain('Outside what we do.');
    const event = (mail: typeof off) => {
      const ics = mail.parsed.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8');
      const calendar = new ICAL.Component(ICAL.parse(ics));
      const vevent = calendar.getFirstSubcomponent('vevent')!;
      return {
        method: calendar.getFirstPropertyValue('method'),
        uid: vevent.getFirstPropertyValue('uid'),
        sequence: Number(vevent.getFirstPropertyValue('sequence')),
      };
    };
    expect(event(off)).toMatchObject({ method: 'CANCEL', uid: event(booked).uid });
    expect(event(off).sequence).toBeGreaterThan(event(booked).sequence);
    // The window is free again for the next visitor.
    expect((await windows()).windows).toContainEqual({ date, start: '10:00', end: '12:00' });
  });

  it('with approval on: the window is held and the client told it is asked for; the office approves it once, and only then the calendar entry goes', async () => {
    await setRules({ needsApproval: true, estimateWorkerIds: [ana] });
    try {
      expect(await windows()).toMatchObject({ open: true, needsApproval: true });
      const date = addDays(todayIn(ZONE), 6);
      const { email, name, res } = submit({ date, start: '13:00' });
      expect((await res).statusCode).toBe(201);
      const [request] = await stored(email);
      const [visit] = await t.database.db.select().from(visits).where(eq(visits.quoteRequestId, request!.id));
      expect(visit).toMatchObject({ awaitingApproval: true, cancelledAt: null, reminderMailId: null });
      // Held: Ana, the one estimate worker, is no longer offered that window.
      expect((await windows()).windows).not.toContainEqual({ date, start: '13:00', end: '15:00' });

      const asked = await waitFor(
        () => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your requested visit on')),
        {
          what: 'the e-mail saying the time is held',
        },
      );
      expect(asked.parsed.subject).toMatch(/: we will confirm it$/);
      expect(asked.parsed.text).toContain('will confirm it shortly');
      expect(asked.parsed.attachments).toHaveLength(0);
      const notice = await waitFor(() => smtp.to(OWNER).find((m) => m.parsed.subject?.includes(`from ${name} (`)), {
        what: 'the owner’s notice',
      });
      expect(notice.parsed.text).toContain('Estimate visit asked for');
      expect(notice.parsed.text).toContain('approve it');

      // Two approvals at once (two tabs): one approves, the other is told it is done already.
      const approve = () => t.app.inject({ method: 'POST', url: `/api/visits/${visit!.id}/approve`, headers: owner });
      const answers = await Promise.all([approve(), approve()]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ code: 'VISIT_APPROVED' });
      const [after] = await t.database.db.select().from(visits).where(eq(visits.id, visit!.id));
      expect(after!.awaitingApproval).toBe(false);
      expect(after!.reminderMailId).not.toBeNull();

      const booked = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
        what: 'the booking, after the approval',
      });
      const ics = booked.parsed.attachments.find((a) => a.filename === 'visit.ics')!.content.toString('utf8');
      const calendar = new ICAL.Component(ICAL.parse(ics));
      expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
      const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
      expect(event.startDate.toJSDate().getTime()).toBe(visit!.startsAt.getTime());
      expect(smtp.to(email).filter((m) => m.parsed.subject?.startsWith('Your visit on'))).toHaveLength(1);
    } finally {
      await setRules();
    }
  });

  it('the office setting the time of a visit asked for approves it: the client gets the booking at the new time', async () => {
    await setRules({ needsApproval: true });
    try {
      const date = addDays(todayIn(ZONE), 8);
      const { email, res } = submit({ date, start: '10:00' });
      expect((await res).statusCode).toBe(201);
      const [request] = await stored(email);
      const [visit] = await t.database.db.select().from(visits).where(eq(visits.quoteRequestId, request!.id));
      const crew = await t.database.db.select().from(visitWorkers).where(eq(visitWorkers.visitId, visit!.id));
      const changed = await t.app.inject({
        method: 'PATCH',
        url: `/api/visits/${visit!.id}`,
        headers: owner,
        // Told the client on the phone, so not told again: the approval's booking goes all the same.
        payload: {
          date,
          start: '11:00',
          end: '12:00',
          workerIds: crew.map((c) => c.userId),
          notifyClient: false,
          confirm: true,
        },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ awaitingApproval: false, start: '11:00' });
      const booked = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
        what: 'the booking at the time the office set',
      });
      expect(booked.parsed.subject).toContain('11:00 AM');
      expect(booked.parsed.attachments.map((a) => a.filename)).toEqual(['visit.ics']);
    } finally {
      await setRules();
    }
  });

  it('a visit asked for and called off before its approval goes without a calendar cancellation (the client never had the entry)', async () => {
    await setRules({ needsApproval: true });
    try {
      const { email, res } = submit({ date: addDays(todayIn(ZONE), 7), start: '08:00' });
      expect((await res).statusCode).toBe(201);
      const [request] = await stored(email);
      const [visit] = await t.database.db.select().from(visits).where(eq(visits.quoteRequestId, request!.id));
      const cancelled = await t.app.inject({
        method: 'POST',
        url: `/api/visits/${visit!.id}/cancel`,
        headers: owner,
        payload: { reason: 'No one free that morning after all.' },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const off = await waitFor(() => smtp.to(email).find((m) => /is cancelled$/.test(m.parsed.subject ?? '')), {
        what: 'the cancellation',
      });
      expect(off.parsed.attachments).toHaveLength(0);
      const late = await t.app.inject({ method: 'POST', url: `/api/visits/${visit!.id}/approve`, headers: owner });
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ code: 'VISIT_CANCELLED' });
    } finally {
      await setRules();
    }
  });

  it('refuses a place outside the booking area, and stores nothing', async () => {
    await setRules({ bookingArea: ['95814', 'Folsom'] });
    try {
      const { email, res } = submit({ date: addDays(todayIn(ZONE), 4), start: '10:00' }, '95616');
      const answer = await res;
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'OUTSIDE_AREA' });
      expect(answer.json().message).toContain('send your request without a visit');
      expect(await stored(email)).toHaveLength(0);
    } finally {
      await setRules();
    }
  });

  it('two visitors racing for the last window: one books it, the other is offered what is left', async () => {
    await setRules({ estimateWorkerIds: [ana] });
    const date = addDays(todayIn(ZONE), 6);
    const [a, b] = [submit({ date, start: '10:00' }), submit({ date, start: '10:00' })];
    const answers = await Promise.all([a.res, b.res]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    expect(loser.json()).toMatchObject({ code: 'WINDOW_TAKEN' });
    expect(loser.json<{ windows: { date: string; start: string }[] }>().windows).not.toContainEqual(
      expect.objectContaining({ date, start: '10:00' }),
    );
    const both = await t.database.db
      .select()
      .from(quoteRequests)
      .where(inArray(quoteRequests.contactEmail, [a.email, b.email]));
    expect(both).toHaveLength(1);
    await setRules();
  });
});
