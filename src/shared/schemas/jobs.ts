import { z } from 'zod';
import { JOB_STATUSES } from '../constants';
import { CREW_JOB_MOVES } from '../statuses';
import { pricedQuote } from './quotes';
import { workerRef } from './users';

export const jobStatus = z.enum(JOB_STATUSES);

/** The quote a job was sold with (prices in dollars, as the spec's client expects). */
export const jobQuoteView = pricedQuote.extend({
  quoteId: z.string(),
  projectName: z.string(),
});

export const jobView = z.object({
  _id: z.string(),
  contactPerson: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
  notes: z.string(),
  assignedTo: z.array(z.object({ _id: z.string(), fullName: z.string() })),
  status: jobStatus,
  quoteId: z.string().nullable(),
  createdAt: z.string(),
  quote: jobQuoteView.nullable().optional(),
});
export type JobView = z.infer<typeof jobView>;

export const assignWorkersInput = z.object({ workers: z.array(workerRef).max(50) });
export const jobStatusInput = z.object({ status: jobStatus });

/** The crew marks one of its jobs started or done. */
export const crewJobStatusInput = z.object({ status: z.enum(CREW_JOB_MOVES) });
