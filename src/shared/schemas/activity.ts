import { z } from 'zod';

/** What can happen to a request, as its timeline names it. */
export const ACTIVITY_KINDS = [
  'request-created',
  'request-accepted',
  'request-declined',
  'quote-sent',
  'quote-revised',
  'quote-opened',
  'question',
  'answer',
  'reminder',
  'quote-accepted',
  'quote-declined',
  'update-requested',
  'job-created',
  // The visitor booked an estimate visit with the request; the client moved or cancelled a visit from
  // their page (decision 046).
  'estimate-booked',
  'visit-moved',
  'visit-cancelled',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ACTIVITY_ACTORS = ['client', 'staff', 'system'] as const;
export type ActivityActor = (typeof ACTIVITY_ACTORS)[number];

/** Where an e-mail is: written and waiting for its time, on its way, delivered, failing, or called off. */
export const MAIL_STATES = ['scheduled', 'queued', 'sent', 'failing', 'cancelled'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export const mailDelivery = z.object({
  _id: z.string(),
  to: z.string(),
  subject: z.string(),
  state: z.enum(MAIL_STATES),
  /** The SMTP server's answer to the last failed attempt. */
  lastError: z.string().nullable(),
  attempts: z.number(),
  /** When it goes (scheduled) or is tried again (failing). */
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** The office sent a text instead ("Send by text instead"), once per e-mail. */
  textedInstead: z.boolean(),
});
export type MailDelivery = z.infer<typeof mailDelivery>;

export const activityEvent = z.object({
  _id: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  actor: z.enum(ACTIVITY_ACTORS),
  /** The staff member's name, for staff actions. */
  actorName: z.string().nullable(),
  quoteNumber: z.string().nullable(),
  message: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  at: z.string(),
  mail: mailDelivery.nullable(),
});
export type ActivityEvent = z.infer<typeof activityEvent>;

/** A timeline opens on its newest steps; earlier ones come a page at a time, on asking. */
export const TIMELINE_NEWEST = 50;
export const TIMELINE_EARLIER_PAGE = 100;
export const TIMELINE_MAX_LIMIT = 1000;
/** Earlier steps are counted up to this many: a count that stops here means "this many or more". */
export const TIMELINE_EARLIER_CAP = 10_000;

export const timelineQuery = z.object({
  limit: z.coerce.number().int().min(1).max(TIMELINE_MAX_LIMIT).default(TIMELINE_NEWEST),
  /** A step's id: the steps before it (a page further back), instead of the newest. */
  before: z.string().min(1).max(64).optional(),
});
export type TimelineQuery = z.infer<typeof timelineQuery>;

/**
 * The newest `limit` steps (before `before`, if given), oldest first, and how many come earlier
 * (counted up to TIMELINE_EARLIER_CAP).
 */
export const activityTimeline = z.object({
  events: z.array(activityEvent),
  earlier: z.number().int().min(0),
  /** The request's client can be texted now: a failing e-mail may be sent by text instead. */
  canText: z.boolean(),
});
export type ActivityTimeline = z.infer<typeof activityTimeline>;
