import { z } from 'zod';

/** GET /api/reports: the figures the owner looks at, in dollars without sales tax. */
export const reportView = z.object({
  /** Payments received per month (the business's months), the last twelve, oldest first. */
  revenueByMonth: z.array(z.object({ month: z.string(), revenue: z.number() })),
  /** How far requests get: asked, quoted, accepted, paid in full. */
  funnel: z.object({ requests: z.number(), quoted: z.number(), accepted: z.number(), paid: z.number() }),
  /** Average days from a request to its first quote, and from a job's completion to its last payment. */
  averageDaysToQuote: z.number().nullable(),
  averageDaysToPayment: z.number().nullable(),
  /**
   * Repeating work (issue 31): the plans running, what the monthly ones bill a month, and the next
   * `days` by their rules: how many visits, and what they will invoice (dollars, before sales tax).
   */
  recurring: z.object({
    plans: z.number().int(),
    monthly: z.number(),
    days: z.number().int(),
    visitsAhead: z.number().int(),
    ahead: z.number(),
  }),
});
export type ReportView = z.infer<typeof reportView>;
