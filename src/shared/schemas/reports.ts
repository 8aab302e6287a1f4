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
});
export type ReportView = z.infer<typeof reportView>;
