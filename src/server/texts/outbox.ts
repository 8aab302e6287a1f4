import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { TextKind } from '#shared/schemas/texts';
import { plainForText } from '#shared/sms';
import { afterCommit, type Db, type DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { newId } from '../db/ids';
import { totalBeforeLimit, totalOf } from '../lib/sql';
import { clients } from '../db/schema';
import { textAccounts, textLinks, textMessages, textOptOuts } from './tables';

/** Told after a commit that queued a text: the relay sends it at once rather than at its next poll. */
export const TEXT_QUEUED = 'text-queued';

/** What a text needs to know of the business when it is written (the quiet hours are on its clock). */
export interface TextContext {
  timeZone: string;
}

/** Why a client with a mobile that can be texted is not: they chose e-mail. */
const PREFERS_EMAIL = 'The client prefers e-mail';

/** How a client can be reached now: by e-mail, and by text (their number) or why not. */
export interface ClientReach {
  email: boolean;
  /** The number a text goes to, or null. */
  text: string | null;
  /** Why no text, in words for the crew and the office (null when one can go). */
  why: string | null;
  /** The client asked for texts (text or both), whether or not one can go now. */
  wantsText: boolean;
}

/** Whether the owner has set texts up (a saved account; whether its token still reads is the relay's concern). */
export async function textsOn(tx: DbOrTx): Promise<boolean> {
  const [row] = await tx.select({ id: textAccounts.id }).from(textAccounts).limit(1);
  return Boolean(row);
}

/** Whether the number answered STOP (and not START since). */
export async function optedOut(tx: DbOrTx, number: string): Promise<Date | null> {
  const [row] = await tx.select().from(textOptOuts).where(eq(textOptOuts.number, number));
  return row?.stoppedAt ?? null;
}

/**
 * The one rule for a client's channels (decision 045): e-mail as they chose, and a text when they
 * chose text or both, texts are set up, they have a mobile, and it did not answer STOP. A client who
 * chose text alone but cannot be texted now is e-mailed instead, so nothing goes nowhere.
 */
export async function clientReach(tx: DbOrTx, clientId: string | null): Promise<ClientReach> {
  const [client] = clientId
    ? await tx
        .select({ mobile: clients.mobile, channel: clients.messageChannel })
        .from(clients)
        .where(eq(clients.id, clientId))
    : [];
  const wantsText = (client?.channel ?? 'email') !== 'email';
  let why: string | null = null;
  if (!(await textsOn(tx))) why = 'Texts are off (Settings → Text messages)';
  else if (!client?.mobile) why = 'No mobile number on file';
  else if (await optedOut(tx, client.mobile)) why = 'The client replied STOP to our texts';
  else if (!wantsText) why = PREFERS_EMAIL;
  const text = why ? null : client!.mobile;
  return { email: client?.channel !== 'text' || text === null, text, why, wantsText };
}

/** The client's short page code (one per client, made on first use). */
export async function linkCodeOf(tx: DbOrTx, clientId: string): Promise<string> {
  // 10 characters of 62: about 60 bits, unguessable behind the public rate limit.
  const code = randomBytes(16)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 10);
  await tx.insert(textLinks).values({ code, clientId }).onConflictDoNothing({ target: textLinks.clientId });
  const [row] = await tx.select({ code: textLinks.code }).from(textLinks).where(eq(textLinks.clientId, clientId));
  return row!.code;
}

export interface OutgoingText {
  clientId: string;
  kind: TextKind;
  body: string;
  visitId?: string;
  /** The request and the job it is about: their pages list it. */
  about?: TextAbout;
  /** Not before this moment (a reminder the day before). */
  notBefore?: Date;
  /** Add the short link to the client's page at the end. */
  pageLink?: boolean;
  /** Sent even in the quiet hours ("on my way": the client is expecting us). */
  anyHour?: boolean;
  /** The e-mail it stands in for (one text per e-mail). */
  mailId?: string;
}

/** What a text is about, beyond its client: the request's and the job's pages list it. */
export interface TextAbout {
  quoteRequestId?: string | null;
  jobId?: string | null;
}

/**
 * Writes a text to the ledger in the transaction of the change that causes it; the relay sends it
 * after the commit. Nothing is written (null) when the client cannot or would not be texted. The quiet
 * hours and the number's limit for the day are the relay's to hold, when it sends.
 */
export async function enqueueText(tx: DbOrTx, ctx: TextContext, text: OutgoingText): Promise<string | null> {
  const reach = await clientReach(tx, text.clientId);
  const to = reach.text;
  if (!to) return null;
  // The short link is made now (one per client) and written into the body as the relay sends it.
  if (text.pageLink) await linkCodeOf(tx, text.clientId);
  const body = plainForText(text.body);
  const due = text.notBefore ?? new Date();
  const id = newId();
  await tx.insert(textMessages).values({
    id,
    clientId: text.clientId,
    visitId: text.visitId ?? null,
    mailId: text.mailId ?? null,
    quoteRequestId: text.about?.quoteRequestId ?? null,
    jobId: text.about?.jobId ?? null,
    kind: text.kind,
    toNumber: to,
    body,
    pageLink: text.pageLink ?? false,
    // The quiet hours are the relay's to hold, when it sends.
    nextAttemptAt: due,
  });
  afterCommit(tx, TEXT_QUEUED);
  return id;
}

/** Calls off the texts of these kinds not yet sent about a visit (or visits): a reminder for a time no longer right. */
export async function cancelVisitTexts(tx: DbOrTx, visitId: string | string[], kinds: TextKind[]): Promise<void> {
  const ids = typeof visitId === 'string' ? [visitId] : visitId;
  if (ids.length === 0) return;
  await tx
    .update(textMessages)
    .set({ state: 'cancelled', stateAt: sql`now()` })
    .where(
      and(
        inArray(textMessages.visitId, ids),
        inArray(textMessages.kind, kinds),
        eq(textMessages.state, 'queued'),
        // One being sent right now is left to the relay, which records what happened to it.
        or(isNull(textMessages.lockedUntil), lt(textMessages.lockedUntil, sql`now()`)),
      ),
    );
}

/** The visit's "on my way" text as the ledger has it (null: none was written). */
export async function onMyWayText(tx: DbOrTx, visitId: string) {
  const [row] = await tx
    .select({ state: textMessages.state, body: textMessages.body, stateAt: textMessages.stateAt })
    .from(textMessages)
    .where(and(eq(textMessages.visitId, visitId), eq(textMessages.kind, 'on-my-way')));
  return row ?? null;
}

const failing = preparedStatement((db) =>
  db
    .select({
      clientId: textMessages.clientId,
      name: sql<string>`coalesce(${clients.name}, ${textMessages.toNumber})`,
      reason: sql<string>`coalesce(${textMessages.reason}, 'Not delivered')`,
      total: totalBeforeLimit(),
    })
    .from(textMessages)
    .leftJoin(clients, eq(clients.id, textMessages.clientId))
    .where(
      and(
        inArray(textMessages.state, ['failed', 'not-sent']),
        gt(textMessages.createdAt, sql`now() - interval '7 days'`),
      ),
    )
    .orderBy(desc(textMessages.createdAt), desc(textMessages.id))
    .limit(sql.placeholder('limit'))
    .prepare('failing_texts'),
);
/**
 * Texts of the last week that failed or were held back, newest first, with their client, and how many:
 * one prepared statement (the dashboard reads it live on every opening, decisions 006 and 028).
 */
export async function failingTexts(db: Db, limit: number) {
  return totalOf(await failing(db).execute({ limit }));
}

/** Which of these e-mails were sent by text instead (one text per e-mail). */
export async function mailsTextedInstead(db: DbOrTx, mailIds: string[]): Promise<Set<string>> {
  if (mailIds.length === 0) return new Set();
  const rows = await db
    .select({ mailId: textMessages.mailId })
    .from(textMessages)
    .where(inArray(textMessages.mailId, mailIds));
  return new Set(rows.map((r) => r.mailId!));
}

/** The texts a client was sent or we tried to send (sent, delivered, failed), newest first: what their own page lists. */
export async function textsSentTo(db: DbOrTx, clientId: string, limit: number) {
  const at = sql<Date>`coalesce(${textMessages.sentAt}, ${textMessages.stateAt})`.mapWith(textMessages.stateAt);
  const rows = await db
    .select({ at, body: textMessages.body, state: textMessages.state })
    .from(textMessages)
    .where(and(eq(textMessages.clientId, clientId), inArray(textMessages.state, ['sent', 'delivered', 'failed'])))
    .orderBy(desc(at))
    .limit(limit);
  return rows.map((r) => ({ at: r.at, body: r.body, state: r.state as 'sent' | 'delivered' | 'failed' }));
}

/** What the System page shows of the texts (decision 045): failures of the last day, and texts due that nobody sends. */
export async function textsState(db: DbOrTx) {
  const [row] = await db
    .select({
      failedLastDay:
        sql<number>`count(*) filter (where ${textMessages.state} = 'failed' and ${textMessages.stateAt} > now() - interval '1 day')`.mapWith(
          Number,
        ),
      latestFailure: sql<
        string | null
      >`(array_agg(${textMessages.reason} order by ${textMessages.stateAt} desc) filter (where ${textMessages.state} = 'failed' and ${textMessages.stateAt} > now() - interval '1 day'))[1]`,
      stuck:
        sql<number>`count(*) filter (where ${textMessages.state} = 'queued' and ${textMessages.nextAttemptAt} < now() - interval '10 minutes')`.mapWith(
          Number,
        ),
      oldestStuck:
        sql<Date | null>`min(${textMessages.nextAttemptAt}) filter (where ${textMessages.state} = 'queued' and ${textMessages.nextAttemptAt} < now() - interval '10 minutes')`.mapWith(
          (v) => (v ? new Date(v as string) : null),
        ),
    })
    .from(textMessages)
    .where(
      or(
        and(eq(textMessages.state, 'queued'), sql`${textMessages.nextAttemptAt} < now() - interval '10 minutes'`),
        and(
          inArray(textMessages.state, ['failed', 'not-sent']),
          gt(textMessages.createdAt, sql`now() - interval '2 days'`),
        ),
      ),
    );
  const [last] = await db
    .select({ at: textMessages.sentAt })
    .from(textMessages)
    .where(sql`${textMessages.sentAt} is not null`)
    .orderBy(desc(textMessages.sentAt))
    .limit(1);
  return {
    failedLastDay: row?.failedLastDay ?? 0,
    latestFailure: row?.latestFailure ?? null,
    stuck: row?.stuck ?? 0,
    oldestStuck: row?.oldestStuck ?? null,
    lastSentAt: last?.at ?? null,
  };
}

/** A text's words without the short page link the relay put at its end (to send them again, or by e-mail). */
export const withoutPageLink = (body: string) => body.replace(/ https?:\/\/\S+\/p\/[A-Za-z0-9]+$/, '');

/** A text's short page link as staff see it: the link opens the client's page, so its code is not shown. */
export const maskPageLink = (body: string) => body.replace(/\/p\/[A-Za-z0-9]+/g, '/p/…');
