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

export const activityTimeline = z.object({ events: z.array(activityEvent) });
export type ActivityTimeline = z.infer<typeof activityTimeline>;
