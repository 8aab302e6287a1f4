import { z } from 'zod';
import { JOB_STATUSES } from '../constants';
import { CREW_JOB_MOVES } from '../statuses';
import { pricedQuote } from './quotes';
import { requestPhoto } from './staff-quote-requests';
import { workerRef } from './users';

export const jobStatus = z.enum(JOB_STATUSES);

/** A job's number as people say it: "J" and the last nine characters of its id (like a request's "Q…"). */
export function jobNumberOf(id: string): string {
  return `J${id.slice(-9).toUpperCase()}`;
}

/** The quote a job was sold with (prices in dollars, as the spec's client expects). */
export const jobQuoteView = pricedQuote.extend({
  quoteId: z.string(),
  projectName: z.string(),
  /** The client's purchase-order number on the quote ('' when none): the job's invoices carry it. */
  poNumber: z.string().optional(),
});

export const jobView = z.object({
  _id: z.string(),
  contactPerson: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
  /** The client's record (their page), when the job came from a request. */
  clientId: z.string().nullable(),
  /** A commercial client's company, as their record has it now (one job's page only; '' for a household). */
  companyName: z.string().optional(),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
  /** Which of the client's service addresses the job is at (null: a job from before, or without a client). */
  serviceAddressId: z.string().nullable(),
  notes: z.string(),
  assignedTo: z.array(z.object({ _id: z.string(), fullName: z.string() })),
  status: jobStatus,
  quoteId: z.string().nullable(),
  /** The request the job came from (null for a job entered by hand or whose request was deleted). */
  quoteRequestId: z.string().nullable(),
  createdAt: z.string(),
  /** Why a cancelled job was cancelled. */
  cancelReason: z.string().nullable().optional(),
  quote: jobQuoteView.nullable().optional(),
  /** The client's photos from the request. */
  photos: z.array(requestPhoto).optional(),
});
export type JobView = z.infer<typeof jobView>;

/** PATCH /api/jobs/:id/address: the job moves to another of its client's service addresses. */
export const jobAddressInput = z.object({ serviceAddressId: z.string().min(1).max(64) });

export const assignWorkersInput = z.object({ workers: z.array(workerRef).max(50) });
export const jobStatusInput = z.object({
  status: jobStatus,
  /** Why it is cancelled (required for Cancelled). */
  reason: z.string().trim().max(2000).optional(),
});

/** The crew marks one of its jobs started or done. */
/** What a crew member sees of a job: no prices; the sold quote's lines as the work to do. */
export const crewJob = jobView.omit({ quote: true }).extend({
  work: z.array(z.string()),
});
export type CrewJob = z.infer<typeof crewJob>;

/** A sold quote's lines as work, without prices: "Gate hinge kit × 2", "Rehang the gate (3.5 h)". */
export function workLines(quote: z.infer<typeof jobQuoteView> | null | undefined): string[] {
  if (!quote) return [];
  return [
    ...quote.materials.map((m) => `${m.name} × ${m.quantity}`),
    ...quote.labor.map((l) => (l.flat ? l.description || 'Labor' : `${l.description || 'Labor'} (${l.hours} h)`)),
  ];
}

export const crewJobStatusInput = z.object({ status: z.enum(CREW_JOB_MOVES) });

/** GET /api/employee/jobs: the signed-in worker's jobs. */
export const crewJobList = z.object({ jobs: z.array(crewJob) });
export type CrewJobList = z.infer<typeof crewJobList>;
/** GET /api/jobs: a page of jobs. */
export const jobList = z.object({ jobs: z.array(jobView), totalPages: z.number(), total: z.number() });
export type JobList = z.infer<typeof jobList>;
/** GET /api/jobs/by-quote-request/:id: the job a request became. */
export const jobRef = z.object({ _id: z.string() });
export type JobRef = z.infer<typeof jobRef>;
