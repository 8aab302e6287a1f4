import { z } from 'zod';
import { INVOICE_KINDS, QUOTE_REQUEST_STATUSES, QUOTE_STATUSES, type InvoiceStatus } from '../constants';

/** The client's timeline, in order: a deposit's invoice comes after "accepted", the job's bill after "workDone". */
export const TIMELINE_STEPS = ['received', 'quoteSent', 'accepted', 'visit', 'workDone', 'invoice', 'paid'] as const;
export type TimelineStepName = (typeof TIMELINE_STEPS)[number];

/** An invoice's status in the client's words. */
export const CLIENT_INVOICE_STATUSES = ['Due', 'Partly paid', 'Paid', 'Overdue'] as const;
export type ClientInvoiceStatus = (typeof CLIENT_INVOICE_STATUSES)[number];

/** What a client reads for an invoice's status (a draft or a void one never reaches them). */
export function clientInvoiceStatus(status: InvoiceStatus): ClientInvoiceStatus {
  if (status === 'Paid') return 'Paid';
  if (status === 'Partially Paid') return 'Partly paid';
  if (status === 'Overdue') return 'Overdue';
  return 'Due';
}

export const timelineStep = z.object({
  step: z.enum(TIMELINE_STEPS),
  done: z.boolean(),
  /** The day it happened (a visit's day), in the business's time zone. */
  date: z.string().nullable(),
  /** A visit's window, in the business's wall-clock time. */
  /** `arriving`: an arrival window (Settings → Visits), not the visit's own start and end. */
  window: z.object({ start: z.string(), end: z.string(), arriving: z.boolean() }).nullable(),
  /** A booked visit still to come (never once the work is done). */
  upcoming: z.boolean(),
  /** An invoice step: the deposit asked on acceptance, or the job's bill. */
  kind: z.enum(INVOICE_KINDS).nullable(),
  invoiceStatus: z.enum(CLIENT_INVOICE_STATUSES).nullable(),
  /** Only on the page opened from the e-mailed link: the document's number, its signed link, what is left to pay. */
  number: z.string().nullable(),
  href: z.string().nullable(),
  balance: z.number().nullable(),
  dueDate: z.string().nullable(),
});
export type TimelineStep = z.infer<typeof timelineStep>;

/**
 * The status page's answer: the spec's statuses and the client's timeline from the request to the
 * last payment. `documents` says whether links and amounts are in it: only when the page was opened
 * by the request's full id (the link in our e-mails), never by a typed number, which a stranger could guess.
 */
export const statusTimelineResponse = z.object({
  quoteStatus: z.enum(QUOTE_REQUEST_STATUSES),
  quoteState: z.enum(QUOTE_STATUSES).nullable(),
  jobCancelled: z.boolean(),
  documents: z.boolean(),
  steps: z.array(timelineStep),
});
export type StatusTimeline = z.infer<typeof statusTimelineResponse>;

/** A step with nothing known yet beyond whether it happened. */
export const bareStep = (step: TimelineStepName, done: boolean, date: string | null = null): TimelineStep => ({
  step,
  done,
  date,
  window: null,
  upcoming: false,
  kind: null,
  invoiceStatus: null,
  number: null,
  href: null,
  balance: null,
  dueDate: null,
});
