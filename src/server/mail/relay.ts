import { backoffMs } from '../lib/backoff';
import { PollingLoop } from '../lib/polling-loop';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { onCommitted, type Db } from '../db/client';
import type { JobBoard } from '../lib/job-board';
import { mailOutbox } from './tables';
import { MAIL_QUEUED } from './outbox';
import { CLIENT_PAGE_MARK } from './compose';
import type { MailTransport, OutboxMessage, Sender } from './transports';

export interface RelayOptions {
  db: Db;
  transport: MailTransport;
  log: FastifyBaseLogger;
  retryBaseMs: number;
  retryMaxMs: number;
  pollMs: number;
  /** How long a claimed message stays reserved for this relay before another may try it. */
  claimSeconds?: number;
  batchSize?: number;
  /** When the relay looks again at a message whose PDF is being drawn, if the drawing has not told it sooner. */
  documentRetryMs?: number;
  /** The business at the moment of sending (from the settings): the From name and where replies go. */
  sender?: () => Promise<Sender>;
  /**
   * The bytes of a stored document an attachment names (`invoice:<id>`); 'drawing' while it is being
   * drawn (`drawn` is called once it is); undefined when it is gone.
   */
  document?: (key: string, drawn: () => void) => Promise<{ bytes: Buffer } | 'drawing' | undefined>;
  /**
   * For a message to a client (`client_page`): the block that links to their own page, as HTML and
   * text, or null when the address is no client's (decision 036). Asked when the message is sent,
   * so the link's 60 days count from the last e-mail that carried one.
   */
  clientPage?: (to: string) => Promise<{ html: string; text: string } | null>;
  /** Where each pass over the outbox is recorded (the System page, the metrics). */
  board?: JobBoard;
}

/** The relay's job on the board. */
export const RELAY_JOB = 'mail-relay';

/** The message with the link to the client's page put in its bodies: at the mark, or at the end. */
export function withClientPage(message: OutboxMessage, block: { html: string; text: string }): OutboxMessage {
  const html = message.html.includes(CLIENT_PAGE_MARK)
    ? message.html.replace(CLIENT_PAGE_MARK, block.html)
    : message.html.replace(/<\/body>/i, `${block.html}</body>`);
  const footerAt = message.text.lastIndexOf('\n--\n');
  const text =
    footerAt >= 0
      ? `${message.text.slice(0, footerAt)}\n\n${block.text}${message.text.slice(footerAt)}`
      : `${message.text}\n\n${block.text}\n`;
  return { ...message, html, text };
}

/** `documentRetryMs` unless given. */
const DOCUMENT_RETRY_MS = 1000;

export { backoffMs };

/**
 * Delivers the outbox: claims due messages, sends each, marks it sent, and on failure schedules a
 * retry with exponential backoff. Several relays (one per app process) can share one database.
 */
export class MailRelay {
  private readonly loop: PollingLoop;
  private stopListening: (() => void) | undefined;

  constructor(private readonly options: RelayOptions) {
    const { board } = options;
    this.loop = new PollingLoop({
      work: () => (board ? board.run(RELAY_JOB, () => this.deliverDue()) : this.deliverDue()),
      pollMs: options.pollMs,
      failed: (error) => options.log.warn({ err: error }, 'mail relay could not read the outbox'),
      waiting: (next) => board?.scheduled(RELAY_JOB, next),
    });
  }

  get transportName(): string {
    return this.options.transport.describe;
  }

  start(): void {
    if (this.loop.started) return;
    this.options.board?.declare(RELAY_JOB, 'Sending e-mail', this.options.pollMs / 1000);
    // A transaction that queued mail wakes the relay once it has committed (outbox.ts, enqueueMail).
    this.stopListening = onCommitted(this.options.db, MAIL_QUEUED, () => this.kick());
    this.loop.start();
  }

  /** Look at the outbox now rather than at the next poll (after a commit that queued mail, a PDF drawn). */
  kick(): void {
    this.loop.kick();
  }

  /** Stops polling; a send under way is finished and recorded first. */
  async stop(): Promise<void> {
    this.stopListening?.();
    await this.loop.stop();
    this.options.transport.close();
  }

  /** A message put back while its PDF was drawn, due at once now that it is. */
  private async dueNow(id: string): Promise<void> {
    try {
      await this.options.db
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now()` })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.sent, false), isNull(mailOutbox.lockedUntil)));
      this.kick();
    } catch (error) {
      // The relay's own retry still comes (documentRetryMs); a database closed meanwhile is a stop.
      this.options.log.warn({ err: error, mailId: id }, 'mail relay could not mark a message due');
    }
  }

  /** Delivers everything due now; returns how many messages were attempted. */
  async deliverDue(): Promise<number> {
    // The claim returns ids only: a message's bodies and attachments are read when it is its turn, so
    // a batch of messages with large PDFs never sits in memory at once.
    const batch = await this.claim();
    for (const { id } of batch) {
      const [message] = await this.options.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      if (message) await this.deliverOne(message);
    }
    return batch.length;
  }

  private async claim(): Promise<{ id: string }[]> {
    const { db } = this.options;
    // The database's clock decides what is due: it also stamped next_attempt_at.
    const now = sql`now()`;
    const due = db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.sent, false),
          isNull(mailOutbox.cancelledAt),
          lte(mailOutbox.nextAttemptAt, now),
          or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, now)),
        ),
      )
      // Longest due first: a message waiting for its PDF (put a little later) lets the others by.
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.createdAt))
      .limit(this.options.batchSize ?? 10)
      .for('update', { skipLocked: true });
    return db
      .update(mailOutbox)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${this.options.claimSeconds ?? 120})` })
      .where(inArray(mailOutbox.id, due))
      .returning({ id: mailOutbox.id });
  }

  /** The message with each attachment given by reference replaced by the document's bytes. */
  private async withDocuments(message: OutboxMessage, drawn: () => void): Promise<OutboxMessage | undefined> {
    if (!message.attachments.some((a) => 'document' in a)) return message;
    const attachments = [];
    for (const a of message.attachments) {
      if (!('document' in a)) {
        attachments.push(a);
        continue;
      }
      const found = await this.options.document?.(a.document, drawn);
      if (found === 'drawing') return undefined;
      if (!found) throw new Error(`The attached document ${a.document} is not there`);
      attachments.push({ filename: a.filename, contentType: a.contentType, content: found.bytes });
    }
    return { ...message, attachments } as unknown as OutboxMessage;
  }

  private async deliverOne(message: OutboxMessage): Promise<void> {
    const { db, transport, log, retryBaseMs, retryMaxMs } = this.options;
    try {
      // A PDF still being drawn does not hold up the messages behind it: this one waits its turn again
      // shortly (not counted as a failure), while the drawing goes on.
      const retryMs = this.options.documentRetryMs ?? DOCUMENT_RETRY_MS;
      let drawn = () => {};
      const whenDrawn = new Promise<void>((resolve) => (drawn = resolve));
      const ready = await this.withDocuments(message, () => drawn());
      if (!ready) {
        await db
          .update(mailOutbox)
          .set({ nextAttemptAt: sql`now() + make_interval(secs => ${retryMs / 1000})`, lockedUntil: null })
          .where(eq(mailOutbox.id, message.id));
        // Due again then, whatever the poll; or at once when the drawing ends sooner (told after the line
        // above, which would otherwise put it back a second).
        this.loop.kickIn(retryMs + 50);
        void whenDrawn.then(() => this.dueNow(message.id));
        return;
      }
      const page = ready.clientPage ? await this.options.clientPage?.(ready.toAddress) : null;
      await transport.deliver(page ? withClientPage(ready, page) : ready, await this.options.sender?.());
    } catch (error) {
      const failures = message.attempts + 1;
      const delay = backoffMs(failures, retryBaseMs, retryMaxMs);
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ mailId: message.id, failures, retryInMs: delay, reason }, 'mail delivery failed; will retry');
      await db
        .update(mailOutbox)
        .set({
          attempts: failures,
          lastError: reason.slice(0, 1000),
          nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})`,
          lockedUntil: null,
        })
        .where(eq(mailOutbox.id, message.id));
      // Due again then, whatever the poll (the database's clock stamped it; ours may differ a little).
      this.loop.kickIn(delay + 50);
      return;
    }
    await db
      .update(mailOutbox)
      .set({ sent: true, sentAt: sql`now()`, attempts: message.attempts + 1, lockedUntil: null, lastError: null })
      .where(and(eq(mailOutbox.id, message.id), eq(mailOutbox.sent, false)));
    log.info({ mailId: message.id, to: message.toAddress }, 'mail delivered');
  }
}
