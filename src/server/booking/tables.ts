import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { BookingWindow } from '#shared/booking';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * Settings → Online booking (issue 31, decision 046), one row (id 1): the windows clients may pick,
 * the days they are offered on, and what a client may change of their own visits.
 */
export const bookingSettings = pgTable(
  'booking_settings',
  {
    id: integer('id').primaryKey().default(1),
    /** The arrival windows offered, per weekday, on the business's clock. */
    windows: jsonb('windows').$type<BookingWindow[]>().notNull(),
    /** The soonest day a window is offered: this many business days (Monday to Friday) after today. */
    leadBusinessDays: integer('lead_business_days').notNull().default(1),
    /** The furthest: this many days after today. */
    horizonDays: integer('horizon_days').notNull().default(30),
    /** Whether clients may move or cancel their own visits from their page. */
    clientChanges: boolean('client_changes').notNull().default(true),
    /** Until how long before a visit they may (after it, the page says to call). */
    changeCutoffHours: integer('change_cutoff_hours').notNull().default(24),
    /** How many times a client may move one visit. */
    maxMoves: integer('max_moves').notNull().default(2),
    /** Whether visitors may book an estimate visit on Get a Quote (and clients on their page). */
    onlineBooking: boolean('online_booking').notNull().default(false),
    /**
     * Whether an online booking waits for the office's approval (the window held meanwhile) instead of
     * being booked at once.
     */
    needsApproval: boolean('needs_approval').notNull().default(false),
    /** How long an estimate visit lasts. */
    estimateMinutes: integer('estimate_minutes').notNull().default(60),
    /** Who takes estimate visits: a window is offered when one of them is free. */
    estimateWorkerIds: text('estimate_worker_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** ZIP codes and cities where visitors may book online; empty: anywhere. */
    bookingArea: text('booking_area')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('booking_settings_single_row', sql`${t.id} = 1`),
    check('booking_settings_lead_range', sql`${t.leadBusinessDays} between 0 and 30`),
    check('booking_settings_horizon_range', sql`${t.horizonDays} between 1 and 120`),
    check('booking_settings_cutoff_range', sql`${t.changeCutoffHours} between 0 and 168`),
    check('booking_settings_moves_range', sql`${t.maxMoves} between 0 and 10`),
    check('booking_settings_estimate_range', sql`${t.estimateMinutes} between 15 and 480`),
  ],
);
