import { z } from 'zod';
import { isoDate, isoInstant } from './fields';

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time such as 08:00');

/** A visit as the office books it: the business's wall-clock date and times, the crew, notes. */
const visitFields = z.object({
  date: isoDate,
  start: time,
  end: time,
  workerIds: z.array(z.string().min(1).max(64)).max(20).default([]),
  /** For the crew only: never in the client's e-mails or calendar entry. */
  notes: z.string().trim().max(2000, 'Notes must be at most 2000 characters').default(''),
  /** For the client: in their e-mails and their calendar entry. */
  clientNote: z.string().trim().max(2000, 'A note to the client must be at most 2000 characters').default(''),
  /** Book it even though a worker is busy or unavailable then (after the 409's warning). */
  confirm: z.boolean().default(false),
});
const endAfterStart = { message: 'The end time must be after the start time', path: ['end'] };
export const visitInput = visitFields.refine((v) => v.start < v.end, endAfterStart);
export type VisitInput = z.input<typeof visitInput>;

/** A booked visit changed: the same, and whether the client is e-mailed a new time (yes unless told not). */
export const visitChangeInput = visitFields
  .extend({ notifyClient: z.boolean().default(true) })
  .refine((v) => v.start < v.end, endAfterStart);
export type VisitChangeInput = z.input<typeof visitChangeInput>;

export const cancelVisitInput = z.object({
  reason: z.string().trim().min(1, 'Please give a reason').max(2000),
});

export const visitView = z.object({
  _id: z.string(),
  /** The job's; null for an estimate visit (issue 31), which is its request's. */
  jobId: z.string().nullable(),
  quoteRequestId: z.string().nullable(),
  /** The repeating visits it is one of (decision 047); null for a visit booked on its own. */
  planId: z.string().nullable(),
  startsAt: z.string(),
  endsAt: z.string(),
  /** The business's wall-clock date and times. */
  date: z.string(),
  start: z.string(),
  end: z.string(),
  workers: z.array(z.object({ _id: z.string(), fullName: z.string() })),
  notes: z.string(),
  clientNote: z.string(),
  cancelled: z.boolean(),
  cancelReason: z.string().nullable(),
  /** When the client confirmed this time (by text or on their page); null until they do. */
  confirmedAt: z.string().nullable(),
  /** How many times the client moved it from their page (decision 046). */
  clientMoves: z.number().int(),
  /** An estimate visit booked online that waits for the office's approval (Settings → Online booking). */
  awaitingApproval: z.boolean(),
  /** What the job is about (the request's description): what the crew reads on the way. */
  work: z.string(),
  client: z.object({ name: z.string(), phone: z.string(), address: z.string() }),
});
export type VisitView = z.infer<typeof visitView>;

export const visitRangeQuery = z
  .object({
    from: isoInstant,
    to: isoInstant,
    workerId: z.string().max(64).optional(),
  })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), { message: 'to must be after from', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 100 * 86_400_000, {
    message: 'A range covers at most 100 days',
    path: ['to'],
  });

/** What a 409 on booking names: who is busy or unavailable then. */
export const visitConflict = z.object({
  worker: z.string(),
  kind: z.enum(['busy', 'unavailable']),
  detail: z.string(),
});
export type VisitConflict = z.infer<typeof visitConflict>;
/** A calendar feed's secret address (GET and regenerate). */
export const feedAddress = z.object({ url: z.string() });
export type FeedAddress = z.infer<typeof feedAddress>;

/** At most this many helpers a Crew lead adds to one visit. */
export const MAX_HELPERS = 10;

/** PUT /api/my/visits/:id/helpers: the Crew a Crew lead has with them on the visit (decision 042). */
export const helpersInput = z.object({
  helperIds: z
    .array(z.string().min(1).max(64))
    .max(MAX_HELPERS, `At most ${MAX_HELPERS} helpers on a visit`)
    .default([]),
  /** Add them even though one is busy or unavailable then (after the 409's warning). */
  confirm: z.boolean().default(false),
});
export type HelpersInput = z.input<typeof helpersInput>;

/** GET /api/my/jobs/:id/crew: a Crew lead's coming visits of the job, and the Crew they may add. */
export const leadCrewView = z.object({
  visits: z.array(visitView),
  helpers: z.array(z.object({ _id: z.string(), fullName: z.string() })),
});
export type LeadCrewView = z.infer<typeof leadCrewView>;
