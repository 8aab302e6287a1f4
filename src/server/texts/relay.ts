import { and, asc, count, eq, gt, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { onCommitted, type Db } from '../db/client';
import { backoffMs } from '../lib/backoff';
import type { JobBoard } from '../lib/job-board';
import { PollingLoop } from '../lib/polling-loop';
import { TEXT_QUEUED } from './outbox';
import { TextProviderError, type TextProvider } from './provider';
import { outsideQuietHours, type QuietHours } from './quiet-hours';
import { clients } from '../db/schema';
import { textLinks, textMessages, textOptOuts } from './tables';

/** Twilio's code for "this number answered STOP": it is recorded as ours too. */
export const TWILIO_UNSUBSCRIBED = 21610;
/** A text the provider cannot take after this many tries (about a day with the default backoff) fails. */
export const MAX_TEXT_ATTEMPTS = 10;
/** "On my way" not sent within this long is not sent: the crew has arrived by then. */
export const ON_MY_WAY_USEFUL_MS = 60 * 60_000;
/** After a send that got no answer, the next try waits at least this long for the provider's report. */
export const UNANSWERED_WAIT_MS = 60_000;
/** How far before the first unanswered send the provider's messages are searched (clocks differ). */
const UNANSWERED_LOOKBACK_MS = 5 * 60_000;

export interface TextRelayOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** The owner's provider now and the day's limit per number; 'off' without an account, 'unreadable' when its token cannot be read here. */
  provider: () => Promise<{ provider: TextProvider; dailyLimit: number } | 'off' | 'unreadable'>;
  /** The business's time zone now (the quiet hours). */
  timeZone: () => Promise<string>;
  /** The quiet hours (TEXTS_QUIET_HOURS); null: none. */
  quietHours: QuietHours | null;
  /** A text that ended failed or not sent: the e-mail in its place, for a client who takes texts alone. */
  emailInstead?: (row: TextRow) => Promise<void>;
  /** Where the provider posts each text's delivery reports. */
  statusCallback: string;
  /** The site's address: a text's short link to the client's page starts with it. */
  publicUrl: string;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Tests: UNANSWERED_WAIT_MS. */
  unansweredWaitMs?: number;
  pollMs: number;
  claimSeconds?: number;
  batchSize?: number;
  /** A text carrying the link to a client's page was sent: their page's 60 days start again. */
  pageLinkSent?: (clientId: string) => Promise<void>;
  board?: JobBoard;
}

export const TEXT_RELAY_JOB = 'text-relay';

export type TextRow = typeof textMessages.$inferSelect;

/**
 * Sends the texts the ledger holds, as the mail relay sends the outbox: claims due rows (one relay
 * per row however many processes run), sends each through the provider, and records what happened.
 * A refusal (a bad number, STOP) is final; an outage is tried again with backoff.
 */
export class TextRelay {
  private readonly loop: PollingLoop;
  private stopListening: (() => void) | undefined;

  constructor(private readonly options: TextRelayOptions) {
    const { board } = options;
    this.loop = new PollingLoop({
      work: () => (board ? board.run(TEXT_RELAY_JOB, () => this.deliverDue()) : this.deliverDue()),
      pollMs: options.pollMs,
      failed: (error) => options.log.warn({ err: error }, 'text relay could not read the ledger'),
      waiting: (next) => board?.scheduled(TEXT_RELAY_JOB, next),
    });
  }

  start(): void {
    if (this.loop.started) return;
    this.options.board?.declare(TEXT_RELAY_JOB, 'Sending texts', this.options.pollMs / 1000);
    this.stopListening = onCommitted(this.options.db, TEXT_QUEUED, () => this.kick());
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    this.stopListening?.();
    await this.loop.stop();
  }

  /** Sends everything due now; returns how many texts were tried. */
  async deliverDue(): Promise<number> {
    const batch = await this.claim();
    for (const row of batch) await this.deliverOne(row);
    return batch.length;
  }

  private claim(): Promise<TextRow[]> {
    const { db } = this.options;
    const now = sql`now()`;
    const due = db
      .select({ id: textMessages.id })
      .from(textMessages)
      .where(
        and(
          eq(textMessages.state, 'queued'),
          lte(textMessages.nextAttemptAt, now),
          or(isNull(textMessages.lockedUntil), lt(textMessages.lockedUntil, now)),
        ),
      )
      .orderBy(asc(textMessages.nextAttemptAt), asc(textMessages.createdAt))
      .limit(this.options.batchSize ?? 10)
      .for('update', { skipLocked: true });
    return (
      db
        .update(textMessages)
        // Whole milliseconds, so the claim reads back exactly as stored (stillOurs compares it).
        .set({
          lockedUntil: sql`date_trunc('milliseconds', now() + make_interval(secs => ${this.options.claimSeconds ?? 120}))`,
        })
        .where(inArray(textMessages.id, due))
        .returning()
    );
  }

  /** The row's end as not sent, failed or cancelled: only a row still queued is changed. */
  private async settle(row: TextRow, values: Partial<TextRow>) {
    const [ended] = await this.options.db
      .update(textMessages)
      .set({ ...values, lockedUntil: null, stateAt: sql`now()` })
      .where(and(eq(textMessages.id, row.id), eq(textMessages.state, 'queued')))
      .returning();
    // A client who takes texts alone hears by e-mail what could not reach them by text.
    if (ended && (ended.state === 'failed' || ended.state === 'not-sent'))
      await this.options
        .emailInstead?.(ended)
        .catch((error: unknown) =>
          this.options.log.warn({ err: error, textId: row.id }, 'the e-mail in place of a text could not be written'),
        );
  }

  /** Due again later, not counted as a try (the quiet hours; a provider that cannot be reached with this token). */
  private async later(row: TextRow, at: Date | SQL, reason?: string) {
    await this.options.db
      .update(textMessages)
      .set({ nextAttemptAt: at, lockedUntil: null, ...(reason ? { reason } : {}) })
      .where(and(eq(textMessages.id, row.id), eq(textMessages.state, 'queued')));
  }

  /**
   * The row, still queued and still this relay's: claimed again for the send (a batch that took longer
   * than its claim may have been taken by another relay, which then sends it instead).
   */
  private async stillOurs(row: TextRow): Promise<boolean> {
    const claim = this.options.claimSeconds ?? 120;
    const [mine] = await this.options.db
      .update(textMessages)
      .set({ lockedUntil: sql`date_trunc('milliseconds', now() + make_interval(secs => ${claim}))` })
      .where(
        and(
          eq(textMessages.id, row.id),
          eq(textMessages.state, 'queued'),
          row.lockedUntil ? eq(textMessages.lockedUntil, row.lockedUntil) : isNull(textMessages.lockedUntil),
        ),
      )
      .returning({ id: textMessages.id });
    return Boolean(mine);
  }

  /**
   * Reserves the number's place in its day: under a lock on the number, counts the texts it was sent in
   * the last day and, below the limit, stamps this one as sending now (so the next count sees it).
   * "On my way" is not held back by the limit (the crew asked for it, once a visit, and the client is
   * waiting at the door) but counts in the day like any text.
   */
  private async reserve(row: TextRow, limit: number): Promise<boolean> {
    return this.options.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`text:${row.toNumber}`}, 0))`);
      const [sent] = await tx
        .select({ n: count() })
        .from(textMessages)
        .where(and(eq(textMessages.toNumber, row.toNumber), gt(textMessages.sentAt, sql`now() - interval '1 day'`)));
      if (row.kind !== 'on-my-way' && (sent?.n ?? 0) >= limit) return false;
      await tx
        .update(textMessages)
        .set({ sentAt: sql`now()` })
        .where(eq(textMessages.id, row.id));
      return true;
    });
  }

  /** The words sent: with the client's short page link at the end when the text carries one. */
  private async bodyOf(row: TextRow): Promise<string> {
    if (!row.pageLink || !row.clientId) return row.body;
    const [link] = await this.options.db.select().from(textLinks).where(eq(textLinks.clientId, row.clientId));
    return link ? `${row.body} ${this.options.publicUrl}/p/${link.code}` : row.body;
  }

  private async deliverOne(row: TextRow): Promise<void> {
    const { db, log } = this.options;
    if (!(await this.stillOurs(row))) return;
    const now = new Date();
    if (row.kind === 'on-my-way' && now.getTime() - row.createdAt.getTime() > ON_MY_WAY_USEFUL_MS)
      return this.settle(row, { state: 'not-sent', reason: 'Too late to say the crew is on the way' });
    // The quiet hours hold when it is sent, not only when it was written (a retry, a relay that was down).
    if (row.kind !== 'on-my-way') {
      const allowed = outsideQuietHours(now, await this.options.timeZone(), this.options.quietHours);
      if (allowed > now) return this.later(row, allowed);
    }
    // The client's number or choice changed since it was written: it is no longer theirs to get.
    if (row.clientId && row.kind !== 'test' && row.kind !== 'reply') {
      const [client] = await db
        .select({ mobile: clients.mobile, channel: clients.messageChannel })
        .from(clients)
        .where(eq(clients.id, row.clientId));
      if (!client || client.mobile !== row.toNumber || client.channel === 'email')
        return this.settle(row, { state: 'cancelled', reason: "The client's mobile or choice of messages changed" });
    }
    const [stopped] = await db.select().from(textOptOuts).where(eq(textOptOuts.number, row.toNumber));
    if (stopped) return this.settle(row, { state: 'not-sent', reason: 'The number replied STOP' });
    const account = await this.options.provider();
    if (account === 'off')
      return this.settle(row, { state: 'not-sent', reason: 'Texts are off (Settings → Text messages)' });
    if (account === 'unreadable')
      // Kept: the owner pastes the token again (the System page says so) and it goes.
      return this.later(
        row,
        sql`now() + interval '15 minutes'`,
        'The saved auth token cannot be read here: paste it again in Settings',
      );
    if (!(await this.reserve(row, account.dailyLimit)))
      return this.settle(row, {
        state: 'not-sent',
        reason: `The limit of ${account.dailyLimit} texts a day to this number was reached`,
      });
    const body = await this.bodyOf(row);
    let sid: string;
    try {
      // An earlier send got no answer: if the provider took it then, it is recorded, not sent twice.
      const taken = row.unansweredAt
        ? await account.provider.findSent(
            { to: row.toNumber, body },
            new Date(row.unansweredAt.getTime() - UNANSWERED_LOOKBACK_MS),
          )
        : null;
      if (taken) log.info({ textId: row.id }, 'a text that got no answer had been taken: not sent again');
      sid = (
        taken ??
        (await account.provider.send({
          to: row.toNumber,
          body,
          statusCallback: `${this.options.statusCallback}?t=${row.id}`,
        }))
      ).sid;
    } catch (error) {
      await db.update(textMessages).set({ sentAt: null }).where(eq(textMessages.id, row.id));
      return this.failed(row, error);
    }
    // Recorded whatever a status report (which may come first) did meanwhile; never sent twice.
    await db
      .update(textMessages)
      .set({
        state: sql`case when ${textMessages.state} = 'queued' then 'sent' else ${textMessages.state} end`,
        body,
        providerSid: sid,
        attempts: row.attempts + 1,
        reason: null,
        lockedUntil: null,
        stateAt: sql`now()`,
      })
      .where(eq(textMessages.id, row.id));
    log.info({ textId: row.id, kind: row.kind }, 'text sent');
    if (row.clientId && row.pageLink)
      await this.options
        .pageLinkSent?.(row.clientId)
        .catch((error: unknown) => log.warn({ err: error, textId: row.id }, 'the page link could not be noted'));
  }

  /** A send that failed: a refusal is final (STOP recorded when it is why); an outage is tried again with backoff. */
  private async failed(row: TextRow, error: unknown): Promise<void> {
    const { db, log } = this.options;
    const failures = row.attempts + 1;
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const code = error instanceof TextProviderError ? error.code : undefined;
    if (error instanceof TextProviderError && error.kind === 'refused') {
      if (code === TWILIO_UNSUBSCRIBED)
        await db.insert(textOptOuts).values({ number: row.toNumber }).onConflictDoNothing();
      log.warn({ textId: row.id, code }, 'text refused by the provider');
      return this.settle(row, { state: 'failed', reason, attempts: failures });
    }
    if (failures >= MAX_TEXT_ATTEMPTS) return this.settle(row, { state: 'failed', reason, attempts: failures });
    const unanswered = error instanceof TextProviderError && error.unanswered;
    // No answer: the provider may have it. The next try waits for its report (which marks it sent) and
    // then looks for it before sending.
    const delay = Math.max(
      backoffMs(failures, this.options.retryBaseMs, this.options.retryMaxMs),
      unanswered ? (this.options.unansweredWaitMs ?? UNANSWERED_WAIT_MS) : 0,
    );
    log.warn({ textId: row.id, failures, retryInMs: delay, code }, 'text not sent; will retry');
    await db
      .update(textMessages)
      .set({
        attempts: failures,
        reason,
        ...(unanswered ? { unansweredAt: sql`coalesce(${textMessages.unansweredAt}, now())` } : {}),
        nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`,
        lockedUntil: null,
      })
      .where(eq(textMessages.id, row.id));
    this.loop.kickIn(delay + 50);
  }
}
