import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { onCommitted, type Db } from '../db/client';
import { backoffMs } from '../lib/backoff';
import type { JobBoard } from '../lib/job-board';
import { PollingLoop } from '../lib/polling-loop';
import { TEXT_QUEUED } from './outbox';
import { TextProviderError, type TextProvider } from './provider';
import { textLinks, textMessages, textOptOuts } from './tables';

/** Twilio's code for "this number answered STOP": it is recorded as ours too. */
export const TWILIO_UNSUBSCRIBED = 21610;
/** A text the provider cannot take after this many tries (about a day with the default backoff) fails. */
export const MAX_TEXT_ATTEMPTS = 10;

export interface TextRelayOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** The owner's provider now (null: texts are off, or the token cannot be read on this install). */
  provider: () => Promise<TextProvider | null>;
  /** Where the provider posts each text's delivery reports. */
  statusCallback: string;
  /** The site's address: a text's short link to the client's page starts with it. */
  publicUrl: string;
  retryBaseMs: number;
  retryMaxMs: number;
  pollMs: number;
  claimSeconds?: number;
  batchSize?: number;
  /** A text carrying the link to a client's page was sent: their page's 60 days start again. */
  pageLinkSent?: (clientId: string) => Promise<void>;
  board?: JobBoard;
}

export const TEXT_RELAY_JOB = 'text-relay';

type TextRow = typeof textMessages.$inferSelect;

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
    return db
      .update(textMessages)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${this.options.claimSeconds ?? 120})` })
      .where(inArray(textMessages.id, due))
      .returning();
  }

  /** The row's end as not sent, failed or sent; only a row still queued and ours is changed. */
  private settle(id: string, values: Partial<TextRow>) {
    return this.options.db
      .update(textMessages)
      .set({ ...values, lockedUntil: null, stateAt: sql`now()` })
      .where(and(eq(textMessages.id, id), eq(textMessages.state, 'queued')));
  }

  /** The words sent: with the client's short page link at the end when the text carries one. */
  private async bodyOf(row: TextRow): Promise<string> {
    if (!row.pageLink || !row.clientId) return row.body;
    const [link] = await this.options.db.select().from(textLinks).where(eq(textLinks.clientId, row.clientId));
    return link ? `${row.body} ${this.options.publicUrl}/p/${link.code}` : row.body;
  }

  private async deliverOne(row: TextRow): Promise<void> {
    const { db, log } = this.options;
    const [stopped] = await db.select().from(textOptOuts).where(eq(textOptOuts.number, row.toNumber));
    if (stopped) {
      await this.settle(row.id, { state: 'not-sent', reason: 'The number replied STOP' });
      return;
    }
    const provider = await this.options.provider();
    if (!provider) {
      await this.settle(row.id, { state: 'not-sent', reason: 'Texts are off (Settings → Text messages)' });
      return;
    }
    try {
      const body = await this.bodyOf(row);
      const sent = await provider.send({ to: row.toNumber, body, statusCallback: this.options.statusCallback });
      await this.settle(row.id, {
        state: 'sent',
        body,
        providerSid: sent.sid,
        sentAt: new Date(),
        attempts: row.attempts + 1,
        reason: null,
      });
      if (row.clientId && row.pageLink) await this.options.pageLinkSent?.(row.clientId);
      log.info({ textId: row.id, kind: row.kind }, 'text sent');
    } catch (error) {
      const failures = row.attempts + 1;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (error instanceof TextProviderError && error.kind === 'refused') {
        if (error.code === TWILIO_UNSUBSCRIBED)
          await db.insert(textOptOuts).values({ number: row.toNumber }).onConflictDoNothing();
        await this.settle(row.id, { state: 'failed', reason, attempts: failures });
        log.warn({ textId: row.id, reason }, 'text refused by the provider');
        return;
      }
      if (failures >= MAX_TEXT_ATTEMPTS) {
        await this.settle(row.id, { state: 'failed', reason, attempts: failures });
        return;
      }
      const delay = backoffMs(failures, this.options.retryBaseMs, this.options.retryMaxMs);
      log.warn({ textId: row.id, failures, retryInMs: delay, reason }, 'text not sent; will retry');
      await db
        .update(textMessages)
        .set({
          attempts: failures,
          reason,
          nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`,
          lockedUntil: null,
        })
        .where(eq(textMessages.id, row.id));
      this.loop.kickIn(delay + 50);
    }
  }
}
