import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { afterCommit, type Db, type DbOrTx } from '../db/client';
import { conflict, notFound } from '../lib/http-errors';
import { totalBeforeLimit, totalOf } from '../lib/sql';
import { newId } from '../db/ids';
import { preparedStatement } from '../db/prepared';
import { mailOutbox, type MailAttachment } from './tables';

export interface OutgoingMail {
  to: string;
  /**
   * Where the recipient's reply goes when not to the business (whose e-mail the relay puts on every
   * other message): the client who wrote a contact message, on the owner's notice.
   */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** Not before this moment (a reminder days from now); the relay sends it once it is due. */
  notBefore?: Date;
  /**
   * A message to a client: when it is sent, the relay adds the signed link to the client's own page
   * (decision 036). Staff notices leave it out.
   */
  clientPage?: boolean;
}

/** The same message, marked as one to a client (it carries the link to their page when sent). */
export const toClient = <T extends OutgoingMail>(mail: T): T => ({ ...mail, clientPage: true });

/** A header value cannot carry a line break: one would let input add headers of its own. */
export function safeHeader(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

/** Told after a commit that queued mail: the relay sends it at once rather than at its next poll. */
export const MAIL_QUEUED = 'mail-queued';

/**
 * Writes a message to the outbox. Pass the transaction of the change that causes the mail, so the
 * two are stored together or not at all; the relay delivers it after the commit. A message to nobody
 * (a client without an e-mail) is not written: null.
 */
export async function enqueueMail(tx: DbOrTx, mail: OutgoingMail): Promise<string | null> {
  // A client without an e-mail (phoned in, imported) is sent nothing; the screens say so.
  if (!safeHeader(mail.to)) return null;
  const id = newId();
  await tx.insert(mailOutbox).values({
    id,
    toAddress: safeHeader(mail.to),
    replyTo: mail.replyTo ? safeHeader(mail.replyTo) : null,
    subject: safeHeader(mail.subject),
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments ?? [],
    clientPage: mail.clientPage ?? false,
    ...(mail.notBefore ? { nextAttemptAt: mail.notBefore, notBefore: mail.notBefore } : {}),
  });
  afterCommit(tx, MAIL_QUEUED);
  return id;
}

/** Calls off a message not yet sent (a reminder no longer wanted); a sent one stays as it was. */
export async function cancelMail(tx: DbOrTx, id: string | null | undefined): Promise<void> {
  if (!id) return;
  await tx
    .update(mailOutbox)
    .set({ cancelledAt: sql`now()` })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.sent, false), isNull(mailOutbox.cancelledAt)));
}

/** Calls off the messages of `ids` not yet sent (reminders no longer wanted); returns how many. */
export async function cancelUnsentMail(tx: DbOrTx, ids: SQLWrapper | string[]): Promise<number> {
  const cancelled = await tx
    .update(mailOutbox)
    .set({ cancelledAt: sql`now()` })
    .where(and(inArray(mailOutbox.id, ids), eq(mailOutbox.sent, false), isNull(mailOutbox.cancelledAt)))
    .returning({ id: mailOutbox.id });
  return cancelled.length;
}

/** A message not yet sent, due again now (the office's "send again"): the relay is woken once it is stored. */
export async function sendAgain(db: Db, id: string): Promise<void> {
  const [row] = await db.transaction(async (tx) => {
    const due = await tx
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now()`, lockedUntil: null })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.sent, false), isNull(mailOutbox.cancelledAt)))
      .returning({ id: mailOutbox.id });
    if (due.length) afterCommit(tx, MAIL_QUEUED);
    return due;
  });
  if (row) return;
  const existing = await db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) });
  if (!existing) throw notFound('E-mail not found');
  throw conflict(existing.sent ? 'This e-mail was already sent' : 'This e-mail was called off', 'MAIL_NOT_RETRYABLE');
}

const failing = preparedStatement((db) =>
  db
    .select({ id: mailOutbox.id, to: mailOutbox.toAddress, subject: mailOutbox.subject, total: totalBeforeLimit() })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.sent, false), isNull(mailOutbox.cancelledAt), isNotNull(mailOutbox.lastError)))
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
    .limit(sql.placeholder('limit'))
    .prepare('failing_mail'),
);
/**
 * The e-mails the relay could not deliver and still tries (not sent, not called off), oldest first, and how
 * many: one prepared statement (the dashboard reads it live on every opening, decision 028).
 */
export async function failingMail(db: Db, limit: number) {
  return totalOf(await failing(db).execute({ limit }));
}

/** What the System page shows of the outbox (decision 039). */
export interface OutboxState {
  /** Due now and not yet tried (the relay takes them within seconds). */
  waiting: number;
  /** Tried and failed, still tried again (not sent, not called off). */
  failing: number;
  /** The oldest of those: when it was written and why its last try failed. */
  oldestFailure: { createdAt: Date; error: string } | null;
  /** The oldest message due and not yet tried: a relay that is not running leaves it there. */
  oldestWaitingSince: Date | null;
  lastSentAt: Date | null;
  /** Messages written to leave later (reminders): how many wait for their day, and the last one sent. */
  reminders: { scheduled: number; lastSentAt: Date | null };
}

const dateOrNull = (value: unknown) => (value ? new Date(value as string) : null);

/** Reads the messages not yet sent (the due index's rows) and the newest sent ones (by sent_at's index). */
export async function outboxState(db: DbOrTx): Promise<OutboxState> {
  const unsent = and(eq(mailOutbox.sent, false), isNull(mailOutbox.cancelledAt));
  const fresh = sql`${mailOutbox.lastError} is null and ${mailOutbox.nextAttemptAt} <= now()`;
  const [[open], [oldest], [sent], [reminder]] = await Promise.all([
    db
      .select({
        waiting: sql<number>`count(*) filter (where ${fresh})`.mapWith(Number),
        oldestWaiting: sql<Date | null>`min(${mailOutbox.nextAttemptAt}) filter (where ${fresh})`.mapWith(dateOrNull),
        failing: sql<number>`count(*) filter (where ${mailOutbox.lastError} is not null)`.mapWith(Number),
        scheduled: sql<number>`count(*) filter (where ${mailOutbox.notBefore} > now())`.mapWith(Number),
      })
      .from(mailOutbox)
      .where(unsent),
    db
      .select({ createdAt: mailOutbox.createdAt, error: mailOutbox.lastError })
      .from(mailOutbox)
      .where(and(unsent, isNotNull(mailOutbox.lastError)))
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
      .limit(1),
    db
      .select({ at: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(isNotNull(mailOutbox.sentAt))
      .orderBy(desc(mailOutbox.sentAt))
      .limit(1),
    db
      .select({ at: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(and(isNotNull(mailOutbox.sentAt), isNotNull(mailOutbox.notBefore)))
      .orderBy(desc(mailOutbox.sentAt))
      .limit(1),
  ]);
  return {
    waiting: open?.waiting ?? 0,
    failing: open?.failing ?? 0,
    oldestFailure: oldest ? { createdAt: oldest.createdAt, error: oldest.error ?? '' } : null,
    oldestWaitingSince: open?.oldestWaiting ?? null,
    lastSentAt: sent?.at ?? null,
    reminders: { scheduled: open?.scheduled ?? 0, lastSentAt: reminder?.at ?? null },
  };
}
