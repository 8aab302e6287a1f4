import { and, eq, inArray, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatArrival } from '#shared/arrival-window';
import { paths } from '#shared/paths';
import type { VisitView } from '#shared/schemas/visits';
import { recordActivity } from '../activity';
import type { Tx } from '../db/client';
import { jobs, quoteRequests, users } from '../db/schema';
import type { BusinessSettings } from '../lib/business';
import { conflict, notFound } from '../lib/http-errors';
import { composeEmail, enqueueMail } from '../mail';
import { visits, visitWorkers } from './tables';
import { clientOfVisit } from './client-of-visit';
import { loadView, tellClient } from './service';

/*
 * A client moving or cancelling their own visit from their page (issue 31, decision 046). The rules of
 * when they may (the cut-off, the moves allowed, the free windows) are the booking feature's: it passes
 * them in as `check`, which runs inside the change's transaction with the visit and its crew locked, so
 * two clients racing for the last window are checked one after the other.
 */

/** A client's own visit as a change of it needs it. */
export interface ClientVisit {
  id: string;
  jobId: string | null;
  quoteRequestId: string | null;
  startsAt: Date;
  endsAt: Date;
  cancelled: boolean;
  clientMoves: number;
  workerIds: string[];
}

/** The rules a change must pass, checked with the visit and its crew locked; throws to refuse. */
export type ChangeCheck = (tx: Tx, visit: ClientVisit) => Promise<void>;

/** Who asked: the client, and how the change goes into the trail with them as the actor. */
export interface Asker {
  clientId: string;
  /** Writes the trail's entry in the change's transaction (the audit feature is above visits). */
  record: (tx: Tx, entry: { actorName: string; action: string; details: Record<string, string> }) => Promise<void>;
}

async function crewIds(tx: Tx | FastifyInstance['db'], visitId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: visitWorkers.userId })
    .from(visitWorkers)
    .where(eq(visitWorkers.visitId, visitId));
  return rows.map((r) => r.userId).sort();
}

/** The client's visit (of one of their jobs), or undefined: another client's visit is not found. */
export async function visitOfClient(
  db: FastifyInstance['db'],
  visitId: string,
  clientId: string,
): Promise<ClientVisit | undefined> {
  const [row] = await db
    .select({
      id: visits.id,
      jobId: visits.jobId,
      quoteRequestId: visits.quoteRequestId,
      startsAt: visits.startsAt,
      endsAt: visits.endsAt,
      cancelledAt: visits.cancelledAt,
      clientMoves: visits.clientMoves,
    })
    .from(visits)
    .leftJoin(jobs, eq(jobs.id, visits.jobId))
    .leftJoin(quoteRequests, eq(quoteRequests.id, visits.quoteRequestId))
    .where(and(eq(visits.id, visitId), or(eq(jobs.clientId, clientId), eq(quoteRequests.clientId, clientId))));
  if (!row) return undefined;
  const { cancelledAt, ...rest } = row;
  return { ...rest, cancelled: cancelledAt !== null, workerIds: await crewIds(db, visitId) };
}

/** Locks the visit's row and its crew's (in id order, as the office's booking does), then checks the rules. */
async function lockAndCheck(tx: Tx, visitId: string, check: ChangeCheck): Promise<ClientVisit & { changedAt: Date }> {
  const [row] = await tx.select().from(visits).where(eq(visits.id, visitId)).for('update');
  if (!row) throw notFound('Visit not found');
  if (row.cancelledAt) throw conflict('This visit was cancelled', 'VISIT_CANCELLED');
  const workerIds = await crewIds(tx, visitId);
  if (workerIds.length) await tx.select({ id: users.id }).from(users).where(inArray(users.id, workerIds)).for('update');
  const visit = {
    changedAt: row.updatedAt,
    id: row.id,
    jobId: row.jobId,
    quoteRequestId: row.quoteRequestId,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    cancelled: false,
    clientMoves: row.clientMoves,
    workerIds,
  };
  await check(tx, visit);
  return visit;
}

async function clientJob(app: FastifyInstance, visitId: string, clientId: string) {
  const visit = await visitOfClient(app.db, visitId, clientId);
  const job = visit && (await clientOfVisit(app.db, visit));
  if (!job) throw notFound('Visit not found');
  return job;
}

/**
 * The change's time, at least a second after the last: calendars replace an entry only when its
 * sequence (seconds, `sequenceOf`) grows, and a client may move a visit the moment it was booked.
 */
const changeTime = (last: Date) => new Date(Math.max(Date.now(), last.getTime() + 1000));

/** The office's word of it: one e-mail to the owner, with the job to open. */
function officeNotice(
  app: FastifyInstance,
  business: BusinessSettings,
  view: VisitView,
  subject: string,
  rows: [string, string][],
  reason?: string,
) {
  const { html, text } = composeEmail({
    business,
    heading: subject,
    blocks: [
      { kind: 'details', rows: [['Client', view.client.name], ...rows] },
      ...(reason ? [{ kind: 'preformatted' as const, text: reason }] : []),
      { kind: 'paragraph', text: 'The calendar, the crew’s day and their calendar feeds show it already.' },
      view.jobId
        ? { kind: 'button', label: 'Open the job', href: `${app.config.PUBLIC_URL}${paths.admin.job(view.jobId)}` }
        : {
            kind: 'button',
            label: 'Open the request',
            href: `${app.config.PUBLIC_URL}${paths.admin.quoteRequest(view.quoteRequestId!)}`,
          },
    ],
  });
  return { to: business.ownerEmail, subject, html, text };
}

/**
 * Moves the client's visit to a new time: they get the "moved" e-mail and text (the .ics with the
 * same UID and a higher SEQUENCE), the reminder follows the new time, the office is told, the request's
 * timeline and the trail record the client. Answers the new time as their messages read it.
 */
export async function moveVisitForClient(
  app: FastifyInstance,
  visitId: string,
  asker: Asker,
  to: { startsAt: Date; endsAt: Date },
  check: ChangeCheck,
): Promise<string> {
  const business = await app.settings.current();
  const job = await clientJob(app, visitId, asker.clientId);
  return app.db.transaction(async (tx) => {
    const before = await lockAndCheck(tx, visitId, check);
    const was = formatArrival(before, business.arrivalWindowMinutes, business.timeZone);
    const [row] = await tx
      .update(visits)
      .set({
        startsAt: to.startsAt,
        endsAt: to.endsAt,
        clientMoves: before.clientMoves + 1,
        updatedAt: changeTime(before.changedAt),
        // The client chose this time: it is confirmed as it is set, and told again like any new time.
        confirmedAt: new Date(),
        confirmedBy: 'page',
        onMyWayAt: null,
        timeSetAt: new Date(),
      })
      .where(eq(visits.id, visitId))
      .returning();
    const view = await loadView(tx, visitId, business.timeZone);
    const now = formatArrival(view, business.arrivalWindowMinutes, business.timeZone);
    // A time still asked for stays so: the client hears the new one is held, the office approves it.
    await tellClient(tx, business, job, row!, view, view.awaitingApproval ? 'requested' : 'moved');
    const crew = view.workers.map((w) => w.fullName).join(', ') || 'No one yet';
    await enqueueMail(
      tx,
      officeNotice(app, business, view, `${view.client.name} moved their visit to ${now}`, [
        ['Was', was],
        ['Now', now],
        ['Crew', crew],
      ]),
    );
    if (job.quoteRequestId)
      await recordActivity(tx, {
        quoteRequestId: job.quoteRequestId,
        kind: 'visit-moved',
        actor: 'client',
        details: { was, to: now },
      });
    await asker.record(tx, {
      actorName: `${view.client.name} (client)`,
      action: 'The client moved their visit',
      details: { was, to: now },
    });
    return now;
  });
}

/** Cancels the client's visit with their reason: the same messages and records as a move. */
export async function cancelVisitForClient(
  app: FastifyInstance,
  visitId: string,
  asker: Asker,
  reason: string,
  check: ChangeCheck,
): Promise<void> {
  const business = await app.settings.current();
  const job = await clientJob(app, visitId, asker.clientId);
  await app.db.transaction(async (tx) => {
    const before = await lockAndCheck(tx, visitId, check);
    const was = formatArrival(before, business.arrivalWindowMinutes, business.timeZone);
    const [row] = await tx
      .update(visits)
      .set({
        cancelledAt: new Date(),
        cancelReason: `Cancelled by the client: ${reason}`,
        updatedAt: changeTime(before.changedAt),
      })
      .where(eq(visits.id, visitId))
      .returning();
    const view = await loadView(tx, visitId, business.timeZone);
    await tellClient(tx, business, job, row!, view, 'client-cancelled');
    await enqueueMail(
      tx,
      officeNotice(app, business, view, `${view.client.name} cancelled their visit of ${was}`, [['Was', was]], reason),
    );
    if (job.quoteRequestId)
      await recordActivity(tx, {
        quoteRequestId: job.quoteRequestId,
        kind: 'visit-cancelled',
        actor: 'client',
        message: reason,
        details: { was },
      });
    await asker.record(tx, {
      actorName: `${view.client.name} (client)`,
      action: 'The client cancelled their visit',
      details: { was, reason },
    });
  });
}
