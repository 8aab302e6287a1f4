import { and, desc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  TIMELINE_EARLIER_CAP,
  type ActivityActor,
  type ActivityKind,
  type ActivityTimeline,
  type MailState,
  type TimelineQuery,
} from '#shared/schemas/activity';
import type { Db, DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { newId } from '../db/ids';
import { cancelUnsentMail } from '../mail';
import { mailOutbox, quoteRequests, users } from '../db/schema';
import { clientReach, mailsTextedInstead } from '../texts';
import { quoteRequestEvents } from './tables';

export interface NewActivity {
  quoteRequestId: string;
  kind: ActivityKind;
  actor: ActivityActor;
  userId?: string | null | undefined;
  quoteNumber?: string | null | undefined;
  message?: string | null | undefined;
  details?: Record<string, string | number | boolean | null>;
  /** The e-mail this step caused, whose delivery the timeline shows. */
  mailId?: string | null | undefined;
  /** When it happened, if not now (a reminder: when it is due). */
  at?: Date;
}

/** Adds a step to a request's history; pass the transaction of the change it records. */
export async function recordActivity(tx: DbOrTx, activity: NewActivity): Promise<void> {
  await tx.insert(quoteRequestEvents).values({
    id: newId(),
    quoteRequestId: activity.quoteRequestId,
    kind: activity.kind,
    actor: activity.actor,
    userId: activity.userId ?? null,
    quoteNumber: activity.quoteNumber ?? null,
    message: activity.message ?? null,
    details: activity.details ?? {},
    mailId: activity.mailId ?? null,
    // now() is the transaction's start: steps recorded in one transaction would tie and lose their order.
    createdAt: activity.at ?? sql`clock_timestamp()`,
  });
}

type MailRow = { sent: boolean; cancelledAt: Date | null; lastError: string | null };

/** Not sent, not called off, and its last try failed: the relay keeps trying it. */
const isFailing = (m: MailRow) => !m.sent && !m.cancelledAt && Boolean(m.lastError);

function mailState(m: MailRow & { nextAttemptAt: Date; now: Date }): MailState {
  if (m.sent) return 'sent';
  if (m.cancelledAt) return 'cancelled';
  if (isFailing(m)) return 'failing';
  return m.nextAttemptAt > m.now ? 'scheduled' : 'queued';
}

/** The steps of a request's history that come before step `before` (its whole history without one). */
function stepsBefore(t: EventColumns, quoteRequestId: string, before: string | undefined) {
  const ofRequest = eq(t.quoteRequestId, quoteRequestId);
  if (before === undefined) return ofRequest;
  // By time, then by the order written (two steps can share a time); read from the row itself, since
  // the ISO time the client holds drops PostgreSQL's microseconds.
  const cursor = alias(quoteRequestEvents, 'cursor');
  const from = sql`from ${quoteRequestEvents} as ${sql.identifier('cursor')} where ${cursor.id} = ${before} and ${cursor.quoteRequestId} = ${quoteRequestId}`;
  // The first bound is the one the (request, time) index can use; the second settles ties.
  return and(
    ofRequest,
    sql`${t.createdAt} <= (select ${cursor.createdAt} ${from})`,
    sql`(${t.createdAt}, ${t.seq}) < (select ${cursor.createdAt}, ${cursor.seq} ${from})`,
  );
}

type EventColumns = Record<'quoteRequestId' | 'createdAt' | 'seq', AnyPgColumn>;

/** The newest steps matching `where` (the events or their counted alias), with how far the count reaches. */
function timelineRows(
  db: Db,
  where: (t: EventColumns) => SQL | undefined,
  limit: number | Placeholder,
  reachLimit: number | Placeholder,
) {
  // Counted in the same statement (one snapshot), over at most limit + cap index entries.
  const counted = alias(quoteRequestEvents, 'counted');
  const reach = db
    .select({ one: sql`1` })
    .from(counted)
    .where(where(counted))
    .limit(reachLimit);
  return db
    .select({
      event: quoteRequestEvents,
      actorName: sql<string | null>`coalesce(nullif(${users.fullName}, ''), ${users.username})`,
      mail: {
        id: mailOutbox.id,
        to: mailOutbox.toAddress,
        subject: mailOutbox.subject,
        sent: mailOutbox.sent,
        cancelledAt: mailOutbox.cancelledAt,
        lastError: mailOutbox.lastError,
        attempts: mailOutbox.attempts,
        nextAttemptAt: mailOutbox.nextAttemptAt,
        sentAt: mailOutbox.sentAt,
      },
      now: sql<string>`now()`,
      reached: sql<number>`(select count(*) from (${reach}) as reach)`.mapWith(Number),
    })
    .from(quoteRequestEvents)
    .leftJoin(users, eq(users.id, quoteRequestEvents.userId))
    .leftJoin(mailOutbox, eq(mailOutbox.id, quoteRequestEvents.mailId))
    .where(where(quoteRequestEvents))
    .orderBy(desc(quoteRequestEvents.createdAt), desc(quoteRequestEvents.seq))
    .limit(limit);
}

/**
 * A request's newest steps, the timeline as the office opens it: prepared, since PostgreSQL took longer to
 * plan this statement (0.3 ms) than to run it (0.1 ms) on a request of 403 steps (decision 006).
 */
const newestSteps = preparedStatement((db) =>
  timelineRows(
    db,
    (t) => eq(t.quoteRequestId, sql.placeholder('id')),
    sql.placeholder('limit'),
    sql.placeholder('reach'),
  ).prepare('timeline_newest'),
);

/**
 * The newest `limit` steps of a request's history (before step `before`, if given), oldest first,
 * each e-mail with where its delivery stands, and how many steps come earlier (up to TIMELINE_EARLIER_CAP).
 */
export async function requestTimeline(
  db: Db,
  quoteRequestId: string,
  { limit, before }: TimelineQuery,
): Promise<ActivityTimeline> {
  const rows =
    before === undefined
      ? await newestSteps(db).execute({ id: quoteRequestId, limit, reach: limit + TIMELINE_EARLIER_CAP })
      : await timelineRows(db, (t) => stepsBefore(t, quoteRequestId, before), limit, limit + TIMELINE_EARLIER_CAP);
  // No rows: nothing before the cursor either, so nothing earlier.
  const earlier = rows[0] ? Math.min(rows[0].reached - rows.length, TIMELINE_EARLIER_CAP) : 0;
  const texted = await mailsTextedInstead(
    db,
    rows.flatMap((r) => (r.mail?.id ? [r.mail.id] : [])),
  );
  const clientId = await clientOfRequest(db, quoteRequestId);
  const events = rows.reverse().map(({ event, actorName, mail, now }) => ({
    _id: event.id,
    kind: event.kind as ActivityKind,
    actor: event.actor as ActivityActor,
    actorName: event.userId ? actorName : null,
    quoteNumber: event.quoteNumber,
    message: event.message,
    details: event.details,
    at: event.createdAt.toISOString(),
    mail:
      mail && mail.id
        ? {
            _id: mail.id,
            to: mail.to,
            subject: mail.subject,
            state: mailState({ ...mail, now: new Date(now) }),
            lastError: mail.sent ? null : mail.lastError,
            attempts: mail.attempts,
            nextAttemptAt: mail.sent || mail.cancelledAt ? null : mail.nextAttemptAt.toISOString(),
            sentAt: mail.sentAt?.toISOString() ?? null,
            textedInstead: texted.has(mail.id),
          }
        : null,
  }));
  return { events, earlier, canText: clientId ? (await clientReach(db, clientId)).text !== null : false };
}

const clientOf = preparedStatement((db) =>
  db
    .select({ clientId: quoteRequests.clientId })
    .from(quoteRequests)
    .where(eq(quoteRequests.id, sql.placeholder('id')))
    .prepare('request_client'),
);
async function clientOfRequest(db: Db, quoteRequestId: string): Promise<string | null> {
  const [row] = await clientOf(db).execute({ id: quoteRequestId });
  return row?.clientId ?? null;
}

/**
 * The e-mail of one step of a request's history, for "Send by text instead": with the request's client,
 * or why it cannot be (no such step, no e-mail, not failing).
 */
export async function failingMailOfStep(
  db: DbOrTx,
  quoteRequestId: string,
  eventId: string,
): Promise<{ clientId: string; mail: { id: string; subject: string } } | 'not-found' | 'not-failing'> {
  const [row] = await db
    .select({
      mail: {
        id: mailOutbox.id,
        subject: mailOutbox.subject,
        sent: mailOutbox.sent,
        cancelledAt: mailOutbox.cancelledAt,
        lastError: mailOutbox.lastError,
      },
      clientId: quoteRequests.clientId,
    })
    .from(quoteRequestEvents)
    .innerJoin(quoteRequests, eq(quoteRequests.id, quoteRequestEvents.quoteRequestId))
    .innerJoin(mailOutbox, eq(mailOutbox.id, quoteRequestEvents.mailId))
    .where(and(eq(quoteRequestEvents.id, eventId), eq(quoteRequestEvents.quoteRequestId, quoteRequestId)));
  if (!row?.clientId) return 'not-found';
  const { mail } = row;
  if (!isFailing(mail)) return 'not-failing';
  return { clientId: row.clientId, mail: { id: mail.id, subject: mail.subject } };
}

/** The reminders still waiting for a request's quote: called off by any answer, revision or acceptance. */
export async function cancelReminders(tx: DbOrTx, quoteRequestId: string): Promise<number> {
  const reminders = tx
    .select({ id: quoteRequestEvents.mailId })
    .from(quoteRequestEvents)
    .where(and(eq(quoteRequestEvents.quoteRequestId, quoteRequestId), eq(quoteRequestEvents.kind, 'reminder')));
  return cancelUnsentMail(tx, reminders);
}

/** Whether a request's history has this kind of step since a moment (e.g. an update already asked for). */
export async function hasActivitySince(
  db: DbOrTx,
  quoteRequestId: string,
  kind: ActivityKind,
  since: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: quoteRequestEvents.id })
    .from(quoteRequestEvents)
    .where(
      and(
        eq(quoteRequestEvents.quoteRequestId, quoteRequestId),
        eq(quoteRequestEvents.kind, kind),
        sql`${quoteRequestEvents.createdAt} >= ${since}`,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The request whose history holds each of these e-mails (the page where the office can send it again). */
export async function requestsOfMail(db: DbOrTx, mailIds: string[]): Promise<Map<string, string>> {
  if (mailIds.length === 0) return new Map();
  const rows = await db
    .select({ mailId: quoteRequestEvents.mailId, quoteRequestId: quoteRequestEvents.quoteRequestId })
    .from(quoteRequestEvents)
    .where(inArray(quoteRequestEvents.mailId, mailIds));
  return new Map(rows.map((r) => [r.mailId!, r.quoteRequestId]));
}

/** The reminders of a quote version that went out (their days after sending, as the settings said then). */
export async function sentReminderDays(db: DbOrTx, quoteRequestId: string, quoteNumber: string): Promise<number[]> {
  const rows = await db
    .select({ details: quoteRequestEvents.details })
    .from(quoteRequestEvents)
    .innerJoin(mailOutbox, eq(mailOutbox.id, quoteRequestEvents.mailId))
    .where(
      and(
        eq(quoteRequestEvents.quoteRequestId, quoteRequestId),
        eq(quoteRequestEvents.kind, 'reminder'),
        eq(quoteRequestEvents.quoteNumber, quoteNumber),
        eq(mailOutbox.sent, true),
      ),
    );
  return rows.map((r) => Number(r.details.afterDays));
}
