import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * The audit trail: every staff action with who, when, from where and what was asked to change. Rows
 * are only ever added: triggers (migration 0015) refuse UPDATE, DELETE and TRUNCATE, and the user is
 * kept by id and name, without a foreign key, so deleting a user leaves their entries as they were.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    /** The order entries were written in (two can share a time). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    userId: text('user_id'),
    /** The person's name when it happened (or the username typed at a failed sign-in). */
    actorName: text('actor_name').notNull(),
    ip: text('ip').notNull(),
    /** What part of the business: sign-in, users, requests, quotes, jobs, visits, invoices, … */
    kind: text('kind').notNull(),
    /** What was done, in words ("Sent a quote"). */
    action: text('action').notNull(),
    /** The route it went through ("POST /api/quotes/:id/send"), or how it happened. */
    route: text('route').notNull().default(''),
    /** The thing it was done to (the id in the address), if any. */
    target: text('target'),
    /** What was sent, with passwords and secrets hidden and long values (photos) shortened. */
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.seq),
    index('audit_log_user_idx').on(t.userId, t.at),
    index('audit_log_kind_idx').on(t.kind, t.at),
  ],
);

/**
 * Everyone who appears in the trail, by the name they last had there: kept by a trigger on audit_log
 * (migration 0026) as entries are added, so the Activity page's people filter reads a few rows instead
 * of sorting the whole trail. A deleted user stays, as their entries do.
 */
export const auditPeople = pgTable('audit_people', {
  userId: text('user_id').primaryKey(),
  name: text('name').notNull(),
  /** When their newest entry was written: an older entry arriving late does not rename them. */
  lastAt: timestamp('last_at', { withTimezone: true, mode: 'date' }).notNull(),
});
