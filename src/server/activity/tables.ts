import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';
import { quoteRequests } from '../quote-requests/tables';
import { users } from '../users/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * A request's history, oldest first: what happened, who did it, and the e-mail it caused (whose
 * delivery state the timeline reads from the outbox).
 */
export const quoteRequestEvents = pgTable(
  'quote_request_events',
  {
    id: text('id').primaryKey(),
    quoteRequestId: text('quote_request_id')
      .notNull()
      .references(() => quoteRequests.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** 'client', 'staff' or 'system'. */
    actor: text('actor').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The quote version it concerns (QT74936259-2), if any. */
    quoteNumber: text('quote_number'),
    /** A question, an answer or a reason, as written. */
    message: text('message'),
    details: jsonb('details')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    mailId: text('mail_id'),
    createdAt: createdAt(),
    /**
     * The order events were written in: two written in one transaction can share a time (PGlite's clock
     * is coarser than PostgreSQL's), and the timeline must still show them in order.
     */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    index('quote_request_events_request_idx').on(t.quoteRequestId, t.createdAt),
    // The dashboard's failing e-mails open the request whose history holds them.
    index('quote_request_events_mail_idx')
      .on(t.mailId)
      .where(sql`${t.mailId} is not null`),
  ],
);
