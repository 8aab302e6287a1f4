import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * A file sent with an e-mail: its bytes (small ones), or the key of a stored document (a PDF such as
 * `invoice:<id>`) that the relay reads, or draws, when it sends, so the outbox never holds a copy.
 */
export type MailAttachment =
  | { filename: string; contentType: string; contentBase64: string }
  | { filename: string; contentType: string; document: string };

/** Transactional outbox: written with the change that causes the mail, delivered by the relay. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    attachments: jsonb('attachments')
      .$type<MailAttachment[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    sent: boolean('sent').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A message written to leave later (a reminder): the moment it was due, kept through its retries. */
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** A scheduled message no longer wanted (a reminder after the client answered): never sent. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    /** A message to a client: the relay adds the signed link to their own page when it sends it (decision 036). */
    clientPage: boolean('client_page').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sent} = false`),
    // The System page's "last sent" (decision 039).
    index('mail_outbox_sent_at_idx')
      .on(t.sentAt)
      .where(sql`${t.sentAt} is not null`),
  ],
);
