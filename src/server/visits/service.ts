import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { formatArrival } from '#shared/arrival-window';
import { formatShortDay, wallTimeIn, weekdayOf, zonedTimeToUtc } from '#shared/dates';
import type {
  helpersInput,
  LeadCrewView,
  VisitConflict,
  VisitView,
  visitChangeInput,
  visitInput,
} from '#shared/schemas/visits';
import type { WeeklySchedule } from '#shared/schemas/schedule';
import type { DbOrTx, Tx } from '../db/client';
import { users } from '../db/schema';
import { visits } from './tables';
import { addJobWorkers, findJobById } from '../jobs';
import type { BusinessSettings } from '../lib/business';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import { cancelMail, enqueueMail, toClient } from '../mail';
import { staffName, timeOffBetween } from '../users';
import { emitWebhook } from '../webhooks';
import { clientOfVisit, type ClientOfJob } from './client-of-visit';
import { visitMail, visitText, type VisitMailKind } from './emails';
import { cancelVisitTexts, clientReach, enqueueText, outsideQuietHours } from '../texts';
import { reminderDay, reminderTime } from './reminder';
import {
  calledOffVisitsOf,
  comingEstimateVisitsOf,
  comingVisitsOf,
  crewMembers,
  findVisit,
  leadVisitIds,
  visitCrewOf,
  insertVisit,
  overlappingVisits,
  remindedVisitsOf,
  visitIdsOf,
  setVisitWorkers,
  visitById,
  viewOf,
  workersByIds,
  type VisitRow,
} from './repository';

type VisitBody = z.output<typeof visitInput>;
type VisitChangeBody = z.output<typeof visitChangeInput>;

/** Calendars replace an event they have when its sequence grows: seconds since 2020 always do. */
export const sequenceOf = (row: Pick<VisitRow, 'updatedAt'>) =>
  Math.max(0, Math.floor((row.updatedAt.getTime() - Date.UTC(2020, 0, 1)) / 1000));

/** The instants of a wall-clock date and times in the business's zone. */
function instantsOf(body: VisitBody, timeZone: string) {
  const startsAt = zonedTimeToUtc(body.date, body.start, timeZone);
  const endsAt = zonedTimeToUtc(body.date, body.end, timeZone);
  if (endsAt <= startsAt) throw badRequest('end: The end time must be after the start time');
  return { startsAt, endsAt };
}

/** Why a worker should not be booked then: another visit, or outside the hours they said they work. */
export async function conflictsOf(
  db: DbOrTx,
  workerIds: string[],
  body: Pick<VisitBody, 'date' | 'start' | 'end'>,
  startsAt: Date,
  endsAt: Date,
  timeZone: string,
  exceptVisitId?: string,
): Promise<VisitConflict[]> {
  // One after another: `db` may be the booking's transaction, one connection, which pg@9 refuses to
  // give two queries at once (tests/helpers/one-query-at-a-time.ts).
  const workers = await workersByIds(db, workerIds);
  const busy = await overlappingVisits(db, workerIds, startsAt, endsAt, exceptVisitId);
  const off = await timeOffBetween(db, workerIds, body.date, body.date, timeZone);
  const found: VisitConflict[] = [];
  for (const o of off) {
    const worker = workers.find((w) => w.id === o.userId);
    const days = o.from === o.to ? formatShortDay(o.from) : `${formatShortDay(o.from)} to ${formatShortDay(o.to)}`;
    found.push({
      worker: worker ? staffName(worker) : 'A worker',
      kind: 'unavailable',
      detail: `is off ${days}${o.reason ? ` (${o.reason})` : ''}`,
    });
  }
  for (const b of busy) {
    const worker = workers.find((w) => w.id === b.userId);
    const from = wallTimeIn(timeZone, b.startsAt).time;
    const to = wallTimeIn(timeZone, b.endsAt).time;
    found.push({
      worker: worker ? staffName(worker) : 'A worker',
      kind: 'busy',
      detail: `is booked ${from}–${to} that day (${b.clientName})`,
    });
  }
  const day = weekdayOf(body.date);
  for (const w of workers) {
    const schedule = w.schedule as WeeklySchedule;
    if (schedule.length === 0) continue; // No hours given: nothing to check against.
    const hours = schedule.find((d) => d.day === day);
    if (!hours) found.push({ worker: staffName(w), kind: 'unavailable', detail: `does not work on ${day}s` });
    else if (body.start < hours.start || body.end > hours.end)
      found.push({ worker: staffName(w), kind: 'unavailable', detail: `works ${hours.start}–${hours.end} on ${day}s` });
  }
  return found;
}

/**
 * Checks the workers' time inside the booking's transaction, their user rows locked: two bookings of
 * the same worker at once are checked one after the other, so neither slips past the warning.
 */
async function checkWorkers(
  tx: Tx,
  workerIds: string[],
  body: VisitBody,
  startsAt: Date,
  endsAt: Date,
  timeZone: string,
  exceptVisitId?: string,
) {
  if (workerIds.length === 0 || body.confirm) return;
  await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, [...workerIds].sort()))
    .for('update');
  refuseConflicts(await conflictsOf(tx, workerIds, body, startsAt, endsAt, timeZone, exceptVisitId));
}

function refuseConflicts(found: VisitConflict[]) {
  if (found.length === 0) return;
  throw conflict(`${found.map((c) => `${c.worker} ${c.detail}`).join('; ')}. Book anyway?`, 'VISIT_CONFLICT');
}

export async function loadView(tx: DbOrTx, id: string, timeZone: string): Promise<VisitView> {
  const record = await visitById(tx, id, timeZone);
  if (!record) throw notFound('Visit not found');
  return viewOf(record);
}

/** The job's client as messages reach them: their e-mail and, for texts, who they are. */

/** What a visit's change is called in the texts' ledger. */
const TEXT_KIND = {
  booked: 'visit-booked',
  requested: 'visit-booked',
  moved: 'visit-moved',
  cancelled: 'visit-cancelled',
  'called-off': 'visit-cancelled',
  'client-cancelled': 'visit-cancelled',
} as const;

/**
 * The client's word about the visit on their channels (decision 045): the e-mail (with its .ics) and
 * the text, and the reminder in the outbox and the ledger, replacing the ones for the visit's old time.
 */
export async function tellClient(
  tx: Tx,
  business: BusinessSettings,
  job: ClientOfJob,
  row: VisitRow,
  view: VisitView,
  kind: Exclude<VisitMailKind, 'reminder'>,
) {
  const reach = await clientReach(tx, job.clientId);
  if (reach.email) await enqueueMail(tx, toClient(visitMail(business, job.contactEmail, view, kind, sequenceOf(row))));
  if (reach.text && job.clientId)
    await enqueueText(tx, business, {
      clientId: job.clientId,
      kind: TEXT_KIND[kind],
      visitId: row.id,
      about: { quoteRequestId: job.quoteRequestId, jobId: job.id },
      ...visitText(business, view, kind),
    });
  await callOffReminder(tx, row);
  const off = kind === 'cancelled' || kind === 'called-off' || kind === 'client-cancelled';
  // No reminder for a time still asked for: the approval books one.
  await scheduleReminder(tx, business, job, row, off || view.awaitingApproval ? null : view);
}

/** The visit's reminder (by e-mail and by text) and an "on my way" not yet sent, called off: its time changed, or it is off. */
export async function callOffReminder(tx: Tx, row: Pick<VisitRow, 'id' | 'reminderMailId'>) {
  await cancelMail(tx, row.reminderMailId);
  await cancelVisitTexts(tx, row.id, ['visit-reminder', 'on-my-way']);
}

/**
 * The reminder in the outbox ("not before") and in the texts' ledger: the day before, or the morning
 * of a visit booked later than that, or at once (`reminderTime`); none for a visit begun, or without a
 * view (cancelled). `quietly` (a move the client is not told of): none that would go at once, as that
 * would tell them.
 */
export async function scheduleReminder(
  tx: Tx,
  business: BusinessSettings,
  job: ClientOfJob,
  row: VisitRow,
  view: VisitView | null,
  quietly = false,
) {
  let reminderMailId: string | null = null;
  // One reminder text per visit: one still waiting (a job reopened) gives way to this one.
  await cancelVisitTexts(tx, row.id, ['visit-reminder']);
  const now = new Date();
  const remindAt = view && reminderTime(row.startsAt, business.timeZone, now);
  if (view && remindAt && !(quietly && remindAt <= now)) {
    const day = reminderDay(row.startsAt, remindAt, business.timeZone);
    const reach = await clientReach(tx, job.clientId);
    if (reach.email)
      reminderMailId = await enqueueMail(tx, {
        ...visitMail(business, job.contactEmail, view, 'reminder', sequenceOf(row), day),
        notBefore: remindAt,
        clientPage: true,
      });
    // A text waits out the quiet hours: its day word is the day it arrives, and none arrives once the visit began.
    const textAt = outsideQuietHours(remindAt, business.timeZone, business.textQuietHours);
    if (reach.text && job.clientId && textAt < row.startsAt)
      await enqueueText(tx, business, {
        clientId: job.clientId,
        kind: 'visit-reminder',
        visitId: row.id,
        about: { quoteRequestId: job.quoteRequestId, jobId: job.id },
        notBefore: textAt,
        ...visitText(business, view, 'reminder', reminderDay(row.startsAt, textAt, business.timeZone)),
      });
  }
  await tx.update(visits).set({ reminderMailId }).where(eq(visits.id, row.id));
}

/** A completed or cancelled job: its visits' reminders still waiting are called off. */
async function callOffReminders(tx: Tx, jobId: string): Promise<void> {
  const waiting = await remindedVisitsOf(tx, jobId);
  for (const row of waiting) await cancelMail(tx, row.reminderMailId);
  await cancelVisitTexts(tx, await visitIdsOf(tx, jobId), ['visit-reminder']);
  if (waiting.length)
    await tx
      .update(visits)
      .set({ reminderMailId: null })
      .where(
        inArray(
          visits.id,
          waiting.map((v) => v.id),
        ),
      );
}

/**
 * A job ends (finished, or cancelled): its visits still to come are called off, so the crew's
 * calendar and the company feed free their times, and the client is told once per visit with a
 * calendar cancellation (the job's own cancel reason is the office's and is not sent). A visit under
 * way is left as it is; the reminders still waiting are called off. Reopening the job (or undoing
 * its cancellation) books these visits again: `restoreComingVisits`.
 */
export async function endComingVisits(
  tx: Tx,
  business: BusinessSettings,
  job: ClientOfJob & { id: string },
  how: 'Completed' | 'Cancelled',
): Promise<void> {
  const cancelReason = how === 'Completed' ? 'The work is finished.' : 'The job is cancelled.';
  const at = new Date();
  for (const coming of await comingVisitsOf(tx, job.id, at)) {
    const [row] = await tx
      .update(visits)
      .set({ cancelledAt: at, cancelReason, calledOffWithJob: true, updatedAt: at })
      .where(and(eq(visits.id, coming.id), isNull(visits.cancelledAt)))
      .returning();
    if (row) await tellClient(tx, business, job, row, await loadView(tx, row.id, business.timeZone), 'called-off');
  }
  await callOffReminders(tx, job.id);
}

/**
 * A request declined: its estimate visits still to come are called off (issue 31), so the worker's day
 * and feeds free the time and the client's calendar entry is cancelled. The decline's own reason goes
 * in its own e-mail; this one only says the visit is off.
 */
export async function endEstimateVisits(tx: Tx, business: BusinessSettings, quoteRequestId: string): Promise<void> {
  const at = new Date();
  for (const coming of await comingEstimateVisitsOf(tx, quoteRequestId, at)) {
    const [row] = await tx
      .update(visits)
      .set({
        cancelledAt: at,
        cancelReason: 'We will not be coming for an estimate.',
        // Past its last change, so the calendar cancellation's SEQUENCE is higher (a move a second ago).
        updatedAt: new Date(Math.max(at.getTime(), coming.updatedAt.getTime() + 1000)),
      })
      .where(and(eq(visits.id, coming.id), isNull(visits.cancelledAt)))
      .returning();
    if (!row) continue;
    // Its reminder and texts are called off with it (tellClient).
    const client = await clientOfVisit(tx, row);
    if (client)
      await tellClient(tx, business, client, row, await loadView(tx, row.id, business.timeZone), 'called-off');
  }
}

/**
 * A job reopened (or its cancellation undone): the visits its end called off that are still to come
 * are booked again (the client gets the booking and its calendar entry once more), and the booked
 * visits still to come get their reminders again.
 */
export async function restoreComingVisits(
  tx: Tx,
  business: BusinessSettings,
  job: ClientOfJob & { id: string },
): Promise<void> {
  const at = new Date();
  for (const row of await calledOffVisitsOf(tx, job.id, at)) {
    const [back] = await tx
      .update(visits)
      .set({
        cancelledAt: null,
        cancelReason: null,
        calledOffWithJob: false,
        confirmedAt: null,
        confirmedBy: null,
        timeSetAt: at,
        updatedAt: at,
      })
      .where(and(eq(visits.id, row.id), eq(visits.calledOffWithJob, true)))
      .returning();
    if (back) await tellClient(tx, business, job, back, await loadView(tx, back.id, business.timeZone), 'booked');
  }
  for (const row of await comingVisitsOf(tx, job.id, at)) {
    if (row.reminderMailId) continue;
    await scheduleReminder(tx, business, job, row, await loadView(tx, row.id, business.timeZone));
  }
}

export async function existingWorkers(app: FastifyInstance, ids: string[]) {
  const unique = [...new Set(ids)];
  const found = await workersByIds(app.db, unique);
  if (found.length !== unique.length) throw badRequest('workerIds: every worker must be an existing user');
  return unique;
}

/**
 * The `visit.booked` webhook. The crew's notes stay out: what the office's other tools need is when,
 * where and who, and the job's or (an estimate visit) the request's id.
 */
function announceBooking(tx: Tx, view: VisitView) {
  return emitWebhook(tx, 'visit.booked', {
    visitId: view._id,
    jobId: view.jobId,
    quoteRequestId: view.quoteRequestId,
    startsAt: view.startsAt,
    endsAt: view.endsAt,
    date: view.date,
    start: view.start,
    end: view.end,
    workers: view.workers.map((w) => w.fullName),
    client: { name: view.client.name, address: view.client.address },
  });
}

/** The job visits are booked for: it must exist and be open (404, 409 once it is finished or cancelled). */
export async function bookableJob(db: DbOrTx, jobId: string) {
  const job = await findJobById(db, jobId);
  if (!job) throw notFound('Job not found');
  if (job.status === 'Cancelled' || job.status === 'Completed')
    throw conflict(`This job is ${job.status}: visits cannot be booked`, 'INVALID_STATUS_CHANGE');
  return job;
}

/** Books a visit for a job; warns (409) about busy or unavailable workers unless confirmed. */
export async function bookVisit(app: FastifyInstance, jobId: string, body: VisitBody): Promise<VisitView> {
  const business = await app.settings.current();
  const job = await bookableJob(app.db, jobId);
  const workerIds = await existingWorkers(app, body.workerIds);
  const { startsAt, endsAt } = instantsOf(body, business.timeZone);
  const view = await app.db.transaction(async (tx) => {
    await checkWorkers(tx, workerIds, body, startsAt, endsAt, business.timeZone);
    const row = await insertVisit(tx, { jobId, startsAt, endsAt, notes: body.notes, clientNote: body.clientNote });
    await setVisitWorkers(tx, row.id, workerIds);
    // The visit's crew is on the job: they see it, its photos and its work in their list.
    await addJobWorkers(tx, jobId, workerIds);
    const view = await loadView(tx, row.id, business.timeZone);
    await tellClient(tx, business, job, row, view, 'booked');
    await announceBooking(tx, view);
    return view;
  });
  return view;
}

/**
 * An estimate visit a visitor booked with their request (issue 31): the request's, one worker, the
 * client told like any booking (e-mail with the .ics, text, reminder). The caller holds the worker's
 * lock and has checked the window is free, in this transaction.
 */
export async function bookEstimateVisit(
  tx: Tx,
  business: BusinessSettings,
  request: { id: string; contactEmail: string; clientId: string | null },
  at: { startsAt: Date; endsAt: Date },
  workerId: string,
  awaitingApproval = false,
): Promise<VisitView> {
  const row = await insertVisit(tx, { quoteRequestId: request.id, ...at, notes: '', clientNote: '', awaitingApproval });
  await setVisitWorkers(tx, row.id, [workerId]);
  const view = await loadView(tx, row.id, business.timeZone);
  const client: ClientOfJob = {
    id: null,
    quoteRequestId: request.id,
    contactEmail: request.contactEmail,
    clientId: request.clientId,
  };
  // Waiting for the office: the client is told the time is held; the booking's word comes with the approval.
  await tellClient(tx, business, client, row, view, awaitingApproval ? 'requested' : 'booked');
  if (!awaitingApproval) await announceBooking(tx, view);
  return view;
}

/**
 * The office approves an estimate visit booked online (Settings → Online booking: the office approves
 * them): the client gets the booking's e-mail with its calendar entry, the reminder is set, and the
 * `visit.booked` webhook goes. Twice is once: a second approval finds nothing waiting (409).
 */
export async function approveVisit(app: FastifyInstance, visitId: string): Promise<VisitView> {
  const business = await app.settings.current();
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(visits)
      .set({ awaitingApproval: false, timeSetAt: new Date(), updatedAt: new Date() })
      .where(and(eq(visits.id, visitId), eq(visits.awaitingApproval, true), isNull(visits.cancelledAt)))
      .returning();
    if (!row) {
      const current = await findVisit(tx, visitId);
      if (!current) throw notFound('Visit not found');
      throw conflict(
        current.cancelledAt ? 'This visit was cancelled' : 'This visit is already approved',
        current.cancelledAt ? 'VISIT_CANCELLED' : 'VISIT_APPROVED',
      );
    }
    const client = await clientOfVisit(tx, row);
    const view = await loadView(tx, visitId, business.timeZone);
    if (client) await tellClient(tx, business, client, row, view, 'booked');
    await announceBooking(tx, view);
    return view;
  });
}

/**
 * Moves or resizes a visit, or changes its crew or notes; the client hears of a new time unless the
 * office says not to (`notifyClient: false`, e.g. agreed on the phone): then only the reminder follows.
 */
export async function changeVisit(app: FastifyInstance, visitId: string, body: VisitChangeBody): Promise<VisitView> {
  const business = await app.settings.current();
  const current = await findVisit(app.db, visitId);
  if (!current) throw notFound('Visit not found');
  if (current.cancelledAt) throw conflict('This visit was cancelled', 'VISIT_CANCELLED');
  const job = await clientOfVisit(app.db, current);
  if (!job) throw notFound('Job not found');
  const workerIds = await existingWorkers(app, body.workerIds);
  const { startsAt, endsAt } = instantsOf(body, business.timeZone);
  const moved = startsAt.getTime() !== current.startsAt.getTime() || endsAt.getTime() !== current.endsAt.getTime();
  const view = await app.db.transaction(async (tx) => {
    await checkWorkers(tx, workerIds, body, startsAt, endsAt, business.timeZone, visitId);
    const [row] = await tx
      .update(visits)
      .set({
        startsAt,
        endsAt,
        notes: body.notes,
        clientNote: body.clientNote,
        updatedAt: new Date(),
        // A new time is confirmed again.
        // A new time is told and confirmed again, and the crew may say they are on the way to it.
        ...(moved ? { confirmedAt: null, confirmedBy: null, onMyWayAt: null, timeSetAt: new Date() } : {}),
      })
      .where(eq(visits.id, visitId))
      .returning();
    await setVisitWorkers(tx, visitId, workerIds);
    if (current.jobId) await addJobWorkers(tx, current.jobId, workerIds);
    if (current.awaitingApproval) {
      // An estimate visit asked for online: the office setting its time approves it, and the client
      // gets the booking (their first calendar entry) whatever else was chosen.
      const [approved] = await tx
        .update(visits)
        .set({ awaitingApproval: false, timeSetAt: new Date() })
        .where(eq(visits.id, visitId))
        .returning();
      const view = await loadView(tx, visitId, business.timeZone);
      await tellClient(tx, business, job, approved!, view, 'booked');
      await announceBooking(tx, view);
      return view;
    }
    const view = await loadView(tx, visitId, business.timeZone);
    if (moved && body.notifyClient) await tellClient(tx, business, job, row!, view, 'moved');
    else if (moved) {
      await callOffReminder(tx, row!);
      await scheduleReminder(tx, business, job, row!, view, true);
    }
    return view;
  });
  return view;
}

/** Cancels a visit with a reason: the client gets the cancellation (.ics), the reminder is called off. */
export async function cancelVisit(app: FastifyInstance, visitId: string, reason: string): Promise<VisitView> {
  const business = await app.settings.current();
  const current = await findVisit(app.db, visitId);
  if (!current) throw notFound('Visit not found');
  if (current.cancelledAt) throw conflict('This visit was already cancelled', 'VISIT_CANCELLED');
  const job = await clientOfVisit(app.db, current);
  if (!job) throw notFound('Job not found');
  const view = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(visits)
      .set({ cancelledAt: new Date(), cancelReason: reason, updatedAt: new Date() })
      .where(eq(visits.id, visitId))
      .returning();
    const view = await loadView(tx, visitId, business.timeZone);
    await tellClient(tx, business, job, row!, view, 'cancelled');
    return view;
  });
  return view;
}

/**
 * What a Crew lead sees of a job's crew (decision 042): their visits of it still to come or under way,
 * with who is on each, and the Crew they may take along.
 */
export async function leadCrew(app: FastifyInstance, jobId: string, leadId: string): Promise<LeadCrewView> {
  const { timeZone } = await app.settings.current();
  const ids = await leadVisitIds(app.db, jobId, leadId, new Date());
  const [views, crew] = await Promise.all([
    Promise.all(ids.map((id) => loadView(app.db, id, timeZone))),
    crewMembers(app.db),
  ]);
  return { visits: views, helpers: crew.map((c) => ({ _id: c.id, fullName: staffName(c) })) };
}

/**
 * A Crew lead sets the Crew with them on a visit they are booked on: the helpers come and go, the
 * others booked on it (the lead, other leads) stay. A helper busy or not working then is warned
 * about (409 VISIT_CONFLICT) unless confirmed, as the office's booking is; the client hears nothing.
 */
export async function setHelpers(
  app: FastifyInstance,
  visitId: string,
  leadId: string,
  body: z.output<typeof helpersInput>,
): Promise<VisitView> {
  const { timeZone } = await app.settings.current();
  const helperIds = [...new Set(body.helperIds)];
  if ((await crewMembers(app.db, helperIds)).length !== helperIds.length)
    throw badRequest('helperIds: each helper must be a member of the Crew');
  return app.db.transaction(async (tx) => {
    // The visit's row is locked first, so two changes of its crew at once run one after the other.
    const [current] = await tx.update(visits).set({ updatedAt: new Date() }).where(eq(visits.id, visitId)).returning();
    const crew = current ? await visitCrewOf(tx, visitId) : [];
    // A visit the lead is not on answers like a missing one.
    if (!current || !crew.some((c) => c.userId === leadId)) throw notFound('Visit not found');
    if (current.cancelledAt) throw conflict('This visit was cancelled', 'VISIT_CANCELLED');
    if (current.endsAt <= new Date()) throw conflict('This visit is over: its crew stays as it was', 'VISIT_OVER');
    const view = await loadView(tx, visitId, timeZone);
    const before = new Set(crew.map((c) => c.userId));
    const added = helperIds.filter((id) => !before.has(id));
    const asBooked: VisitBody = { ...view, workerIds: added, notes: '', clientNote: '', confirm: body.confirm };
    await checkWorkers(tx, added, asBooked, current.startsAt, current.endsAt, timeZone, visitId);
    const stays = crew.filter((c) => c.teamRole !== 'crew').map((c) => c.userId);
    await setVisitWorkers(tx, visitId, [...stays, ...helperIds]);
    // A helper is on the job: they see it, its photos and its work in their list.
    if (current.jobId) await addJobWorkers(tx, current.jobId, helperIds);
    return loadView(tx, visitId, timeZone);
  });
}

/**
 * The client confirms a visit's time (decision 045): by replying C to its reminder, or with Confirm on
 * their page. Only their own visit, booked and still to come; confirming twice is the same yes. Null
 * when there is no such visit; else its window as their messages read it.
 */
export async function confirmVisit(
  app: FastifyInstance,
  visitId: string,
  clientId: string,
  how: 'text' | 'page',
  /** A reply to a reminder: when it was sent (a reminder older than the visit's time confirms nothing). */
  remindedAt?: Date,
): Promise<string | null> {
  const current = await findVisit(app.db, visitId);
  if (!current || current.cancelledAt || current.startsAt <= new Date()) return null;
  if (remindedAt && remindedAt < current.timeSetAt) return null;
  const job = await clientOfVisit(app.db, current);
  if (!job || job.clientId !== clientId) return null;
  // The time confirmed is the one read: a move or a cancellation meanwhile confirms nothing.
  const [done] = await app.db
    .update(visits)
    .set({
      confirmedAt: sql`coalesce(${visits.confirmedAt}, now())`,
      confirmedBy: sql`coalesce(${visits.confirmedBy}, ${how})`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(visits.id, visitId),
        eq(visits.startsAt, current.startsAt),
        eq(visits.endsAt, current.endsAt),
        isNull(visits.cancelledAt),
      ),
    )
    .returning({ id: visits.id });
  if (!done) return null;
  const { timeZone, arrivalWindowMinutes } = await app.settings.current();
  return formatArrival(current, arrivalWindowMinutes, timeZone);
}
