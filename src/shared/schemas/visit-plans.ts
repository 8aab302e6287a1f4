import { z } from 'zod';
import { recurrenceInput } from '../recurrence';
import { dollarsInput } from './numbers';

/** How repeating work is billed: not by the plan, each visit once it is over, or each month (decision 047). */
export const PLAN_BILLINGS = ['none', 'visit', 'month'] as const;
export type PlanBilling = (typeof PLAN_BILLINGS)[number];

/** A job's visits that repeat (issue 31, decision 047): the rule, and the crew and notes each visit takes. */
export const visitPlanInput = z
  .object({
    rule: recurrenceInput,
    workerIds: z.array(z.string().min(1).max(64)).max(20).default([]),
    notes: z.string().trim().max(2000, 'Notes must be at most 2000 characters').default(''),
    clientNote: z.string().trim().max(2000, 'A note to the client must be at most 2000 characters').default(''),
    /** How far ahead its visits are made. */
    horizonWeeks: z.coerce.number().int().min(1).max(52).default(8),
    billing: z.enum(PLAN_BILLINGS).default('none'),
    /** The price of a visit or of a month, per `billing` (dollars, before sales tax). */
    price: dollarsInput('Price').default(0),
    /** Whether sales tax is charged on that price. */
    taxable: z.boolean().default(false),
  })
  .refine((p) => p.billing === 'none' || p.price > 0, { message: 'Price must be more than 0', path: ['price'] });
export type VisitPlanInput = z.input<typeof visitPlanInput>;

export const visitPlanView = z.object({
  _id: z.string(),
  jobId: z.string(),
  rule: recurrenceInput,
  /** "Every 2 weeks on Tuesday, 9:00 AM – 11:00 AM, from …": as the office and the client read it. */
  description: z.string(),
  rrule: z.string(),
  workerIds: z.array(z.string()),
  /** For the crew (office and crew only), and for the client (on each visit's reminder). */
  notes: z.string(),
  clientNote: z.string(),
  horizonWeeks: z.number().int(),
  /** The last date its visits are made for. */
  madeThrough: z.string().nullable(),
  ended: z.boolean(),
  /** Ended by a change from a date ("this and following"): the plan after it goes on. */
  replaced: z.boolean(),
  /** The plan that goes on from its change ("this and following"); null while it runs or once stopped. */
  replacedBy: z.string().nullable(),
  billing: z.enum(PLAN_BILLINGS),
  /** Dollars, before sales tax: a visit's or a month's, per `billing`. */
  price: z.number(),
  taxable: z.boolean(),
  /**
   * Only as it is started or changed: its visits just made whose crew is booked elsewhere, off or outside
   * their hours then ("Tue, Dec 1: Gus is booked 09:00–10:00 that day (Lee)"). They are booked anyway.
   */
  clashes: z.array(z.string()),
  /** Its next dates from today (up to five), made or still to be made. */
  nextDates: z.array(z.string()),
});
export type VisitPlanView = z.infer<typeof visitPlanView>;
export const visitPlanList = z.object({ plans: z.array(visitPlanView) });
