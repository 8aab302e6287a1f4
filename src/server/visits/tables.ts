import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { Recurrence } from '#shared/recurrence';
import { PLAN_BILLINGS, type PlanBilling } from '#shared/schemas/visit-plans';
import { createdAt, oneOf } from '../db/columns';
import { clients } from '../clients/tables';
import { jobs } from '../jobs/tables';
import { quoteRequests } from '../quote-requests/tables';
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
    /** The job it is for; null for an estimate visit, which is its request's (`quoteRequestId`). */
    jobId: text('job_id').references(() => jobs.id, { onDelete: 'cascade' }),
    /** An estimate visit's request (issue 31: booked online with the request); null for a job's visit. */
    quoteRequestId: text('quote_request_id').references(() => quoteRequests.id, { onDelete: 'cascade' }),
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
    /** How many times the client moved it themselves (decision 046: Settings → Online booking caps it). */
    clientMoves: integer('client_moves').notNull().default(0),
    /**
     * An estimate visit booked online while Settings → Online booking says the office approves them
     * (issue 31): its window is held, the client told it is asked for, and nothing more (no calendar
     * entry, no reminder) until the office approves it.
     */
    awaitingApproval: boolean('awaiting_approval').notNull().default(false),
    /**
     * The repeating plan it was made by (decision 047), and the rule's date it stands for: moved to
     * another day it is still that occurrence, and the plan never makes it twice.
     */
    planId: text('plan_id').references((): AnyPgColumn => visitPlans.id, { onDelete: 'set null' }),
    planDate: date('plan_date', { mode: 'string' }),
    /** A plan billed per visit: the invoice this visit went on once it was over (once: never billed twice). */
    invoiceId: text('invoice_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('visits_end_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    check('visits_of_a_job_or_a_request', sql`(${t.jobId} is null) <> (${t.quoteRequestId} is null)`),
    index('visits_request_idx')
      .on(t.quoteRequestId, t.startsAt)
      .where(sql`${t.quoteRequestId} is not null`),
    // A calendar's range ("visits overlapping this month") is a range overlap: a GiST index answers it.
    index('visits_range_idx').using('gist', sql`tstzrange(${t.startsAt}, ${t.endsAt})`),
    index('visits_job_idx').on(t.jobId, t.startsAt),
    // The visits CSV reads every visit in this order, a batch at a time (decision 028).
    index('visits_starts_idx').on(t.startsAt, t.id),
    uniqueIndex('visits_plan_date_idx')
      .on(t.planId, t.planDate)
      .where(sql`${t.planId} is not null`),
  ],
);

/**
 * A job's repeating visits (issue 31, decision 047): the rule on the business's wall clock
 * (`src/shared/recurrence.ts`), the crew and notes each visit takes, and how far ahead its visits are
 * made. The horizon job makes the visits up to today + `horizon_weeks`, one occurrence once.
 */
export const visitPlans = pgTable(
  'visit_plans',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    rule: jsonb('rule').$type<Recurrence>().notNull(),
    /** The RFC 5545 RRULE the rule is (for people and other tools; `rule` is what is read). */
    rrule: text('rrule').notNull(),
    workerIds: text('worker_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notes: text('notes').notNull().default(''),
    clientNote: text('client_note').notNull().default(''),
    horizonWeeks: integer('horizon_weeks').notNull().default(8),
    /** How the plan bills (decision 047): not at all ('none'), each visit once over, or each month. */
    billing: text('billing').$type<PlanBilling>().notNull().default('none'),
    /** The price of a visit or of a month (per `billing`), before sales tax. */
    priceCents: bigint('price_cents', { mode: 'number' }).notNull().default(0),
    /** Whether that price is charged sales tax (labor is usually not). */
    taxable: boolean('taxable').notNull().default(false),
    /** A monthly plan: the first day of the last month invoiced; null before the first. */
    billedThrough: date('billed_through', { mode: 'string' }),
    /** The last date its visits were made for; null before the first. */
    madeThrough: date('made_through', { mode: 'string' }),
    /** Stopped (or replaced by a plan from a later date: "this and following"). */
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    /** The plan that took over from a date on ("this and following"); null when stopped or running. */
    replacedBy: text('replaced_by'),
    /** A service plan the client signed (its name is the plan's): renewed, it is reminded before its end. */
    offerId: text('offer_id'),
    /** When the owner and the client were reminded that it ends (30 days before; once). */
    renewalRemindedAt: timestamp('renewal_reminded_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('visit_plans_job_idx').on(t.jobId),
    check('visit_plans_horizon_range', sql`${t.horizonWeeks} between 1 and 52`),
    oneOf('visit_plans_billing_check', t.billing, PLAN_BILLINGS),
    check('visit_plans_price_range', sql`${t.priceCents} >= 0`),
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

/**
 * The service plans the business sells (issue 31): offered to a client, signed on their page, they become
 * a job with repeating visits that invoice themselves.
 */
export const servicePlans = pgTable(
  'service_plans',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    included: text('included').notNull().default(''),
    visitsPerYear: integer('visits_per_year').notNull(),
    start: text('start').notNull(),
    end: text('end').notNull(),
    billing: text('billing').$type<'visit' | 'month'>().notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    taxable: boolean('taxable').notNull().default(false),
    termMonths: integer('term_months').notNull().default(12),
    archivedAt: timestamp('archived_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('service_plans_billing_check', t.billing, ['visit', 'month']),
    check('service_plans_price_range', sql`${t.priceCents} > 0`),
  ],
);

/**
 * A service plan offered to a client: what they were offered, as it was then (a later change of the plan
 * does not change what they sign), and their signature. Signing once makes one job.
 */
export const planOffers = pgTable(
  'plan_offers',
  {
    id: text('id').primaryKey(),
    servicePlanId: text('service_plan_id')
      .notNull()
      .references(() => servicePlans.id, { onDelete: 'restrict' }),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    included: text('included').notNull(),
    /** Where the visits are: one of the client's addresses, as it was when offered. */
    serviceAddressId: text('service_address_id'),
    address: jsonb('address').$type<{ street: string; city: string; state: string; zip: string }>().notNull(),
    rule: jsonb('rule').$type<Recurrence>().notNull(),
    billing: text('billing').$type<'visit' | 'month'>().notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    taxable: boolean('taxable').notNull(),
    termMonths: integer('term_months').notNull(),
    state: text('state').$type<'Offered' | 'Signed' | 'Withdrawn'>().notNull().default('Offered'),
    signedName: text('signed_name'),
    signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }),
    /** The job and repeating visits signing made. */
    jobId: text('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    planId: text('plan_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('plan_offers_client_idx').on(t.clientId, t.createdAt),
    oneOf('plan_offers_state_check', t.state, ['Offered', 'Signed', 'Withdrawn']),
  ],
);
