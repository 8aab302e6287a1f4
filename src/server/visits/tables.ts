import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';
import { jobs } from '../jobs/tables';
import { users } from '../users/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * A visit: when a crew is at a job. Stored as instants; entered and shown as the business's wall-clock
 * date and times (settings' time zone).
 */
export const visits = pgTable(
  'visits',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** For the crew only (gate codes, "collect the check first"): never in anything the client receives. */
    notes: text('notes').notNull().default(''),
    /** What the office means the client to read: in their e-mails and their calendar entry. */
    clientNote: text('client_note').notNull().default(''),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    cancelReason: text('cancel_reason'),
    /** Called off because its job ended (not by the office): booked again if the job is reopened. */
    calledOffWithJob: boolean('called_off_with_job').notNull().default(false),
    /** The client's reminder the day before, in the outbox: called off when the visit moves or is cancelled. */
    reminderMailId: text('reminder_mail_id'),
    /** When the visit's time was last set (booked, moved, booked again): a reminder older than this is for another time. */
    timeSetAt: timestamp('time_set_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the client confirmed this time (a reply C, Confirm on their page); cleared when it moves. */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
    /** How: 'text', 'page'. */
    confirmedBy: text('confirmed_by'),
    /** When the crew said "On my way" (once per visit; decision 045). */
    onMyWayAt: timestamp('on_my_way_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('visits_end_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    // A calendar's range ("visits overlapping this month") is a range overlap: a GiST index answers it.
    index('visits_range_idx').using('gist', sql`tstzrange(${t.startsAt}, ${t.endsAt})`),
    index('visits_job_idx').on(t.jobId, t.startsAt),
    // The visits CSV reads every visit in this order, a batch at a time (decision 028).
    index('visits_starts_idx').on(t.startsAt, t.id),
  ],
);

export const visitWorkers = pgTable(
  'visit_workers',
  {
    visitId: text('visit_id')
      .notNull()
      .references(() => visits.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.visitId, t.userId] }), index('visit_workers_user_idx').on(t.userId)],
);

/**
 * One number that grows whenever what a calendar shows changes (visits, their crews, their jobs, the
 * crew's names): deferred triggers (migration 0016) add one at each such commit. A calendar range read
 * with it in the same statement can be answered from a cache while the number stands (decision 015).
 */
export const calendarVersion = pgTable(
  'calendar_version',
  {
    id: integer('id').primaryKey().default(1),
    v: bigint('v', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('calendar_version_single_row', sql`${t.id} = 1`)],
);
