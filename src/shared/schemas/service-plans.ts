import { z } from 'zod';
import { clock, isoDate, signedName } from './fields';
import { formatDollars } from '../money';
import { dollarsInput } from './numbers';

/** How often a service plan's visits come: visits a year, and the words the office picks them by. */
export const PLAN_FREQUENCIES = [
  { visitsPerYear: 52, label: 'Every week' },
  { visitsPerYear: 26, label: 'Every 2 weeks' },
  { visitsPerYear: 12, label: 'Every month' },
  { visitsPerYear: 6, label: 'Every 2 months' },
  { visitsPerYear: 4, label: 'Every 3 months (4 a year)' },
  { visitsPerYear: 3, label: 'Every 4 months (3 a year)' },
  { visitsPerYear: 2, label: 'Every 6 months (twice a year)' },
  { visitsPerYear: 1, label: 'Once a year' },
] as const;
export type VisitsPerYear = (typeof PLAN_FREQUENCIES)[number]['visitsPerYear'];

const FREQUENCIES = PLAN_FREQUENCIES.map((f) => f.visitsPerYear) as [VisitsPerYear, ...VisitsPerYear[]];

/**
 * A service plan the business sells (issue 31): "Gutter care, twice a year, $18 a month, gutters and
 * downspouts cleared". The office offers it to a client, who signs it on a page of their own; signing makes
 * the job, its repeating visits and their invoices.
 */
export const servicePlanInput = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(120, 'Name must be at most 120 characters'),
    /** What is included, as the client reads it. */
    included: z.string().trim().max(2000, 'What is included must be at most 2000 characters').default(''),
    visitsPerYear: z.coerce
      .number()
      .refine((n): n is VisitsPerYear => (FREQUENCIES as number[]).includes(n), 'Pick how often the visits come'),
    start: clock,
    end: clock,
    /** How it is billed: each visit once it is over, or each month on the 1st. */
    billing: z.enum(['visit', 'month']),
    price: dollarsInput('Price').refine((p) => p > 0, 'Price must be more than 0'),
    taxable: z.boolean().default(false),
    /** How long one signing lasts; a renewal reminder goes out 30 days before its end. */
    termMonths: z.coerce.number().int().min(1, 'At least 1 month').max(36, 'At most 36 months').default(12),
  })
  .refine((p) => p.start < p.end, { message: 'The visit must end after it starts', path: ['end'] });
export type ServicePlanInput = z.input<typeof servicePlanInput>;

export const servicePlanView = z.object({
  _id: z.string(),
  name: z.string(),
  included: z.string(),
  visitsPerYear: z.number().int(),
  start: z.string(),
  end: z.string(),
  billing: z.enum(['visit', 'month']),
  /** Dollars, before sales tax. */
  price: z.number(),
  taxable: z.boolean(),
  termMonths: z.number().int(),
  /** No longer offered (its signed plans go on). */
  archived: z.boolean(),
});
export type ServicePlanView = z.infer<typeof servicePlanView>;
export const servicePlanList = z.object({ servicePlans: z.array(servicePlanView) });

/** The office offers a plan to a client: which, from when (the first visit's date). */
export const planOfferInput = z.object({
  servicePlanId: z.string().min(1, 'Pick a service plan').max(64),
  firstDate: isoDate,
  /** One of the client's addresses; left out, their first. */
  addressId: z.string().max(64).optional(),
});
export type PlanOfferInput = z.input<typeof planOfferInput>;

export const PLAN_OFFER_STATES = ['Offered', 'Signed', 'Withdrawn'] as const;

/** An offer as the office and the client read it. */
export const planOfferView = z.object({
  _id: z.string(),
  name: z.string(),
  included: z.string(),
  /** "Every 6 months on the 14th, 9:00 AM – 11:00 AM, from March 14, 2027, until March 13, 2028". */
  schedule: z.string(),
  billing: z.enum(['visit', 'month']),
  price: z.number(),
  taxable: z.boolean(),
  termMonths: z.number().int(),
  firstDate: z.string(),
  until: z.string(),
  /** The first visits' dates (up to five). */
  firstDates: z.array(z.string()),
  clientName: z.string(),
  address: z.string(),
  state: z.enum(PLAN_OFFER_STATES),
  signedName: z.string().nullable(),
  signedAt: z.string().nullable(),
  /** The job signing made (office only: null on the client's view). */
  jobId: z.string().nullable(),
  createdAt: z.string(),
});
export type PlanOfferView = z.infer<typeof planOfferView>;
export const planOfferList = z.object({ offers: z.array(planOfferView) });

/** The client signs: their typed name, and the link's token. */
export const planSignInput = z.object({
  token: z.string().max(2000),
  signedName: signedName({
    min: 2,
    max: 120,
    missing: 'Please type your full name to sign',
    tooLong: 'Name must be at most 120 characters',
  }),
});

/** "$18.00 a month" or "$145.00 a visit", with ", plus sales tax" when taxed: a plan's price as everyone reads it. */
export const planPriceWords = (plan: { price: number; billing: 'visit' | 'month'; taxable: boolean }) =>
  `${formatDollars(plan.price)} ${plan.billing === 'month' ? 'a month' : 'a visit'}${plan.taxable ? ', plus sales tax' : ''}`;
