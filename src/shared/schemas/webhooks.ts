import { z } from 'zod';

/** What a webhook can be told of (issue 33, decision 044), in the order the business lives them. */
export const WEBHOOK_EVENTS = [
  'request.created',
  'quote.accepted',
  'visit.booked',
  'job.completed',
  'invoice.sent',
  'payment.recorded',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'request.created': 'A quote request comes in',
  'quote.accepted': 'A client accepts a quote',
  'visit.booked': 'A visit is booked',
  'job.completed': 'A job is completed',
  'invoice.sent': 'An invoice is sent',
  'payment.recorded': 'A payment is recorded',
};

/** At most this many webhooks an install keeps. */
export const MAX_WEBHOOKS = 10;

export const webhookInput = z.object({
  url: z
    .string()
    .trim()
    .max(2000, 'The address must be at most 2000 characters')
    .url('Enter the full address, starting with https://')
    .refine((u) => /^https?:\/\//i.test(u), 'The address must start with https:// or http://'),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'Choose at least one event').max(WEBHOOK_EVENTS.length),
  description: z.string().trim().max(120).default(''),
});
export type WebhookInput = z.input<typeof webhookInput>;

export const webhookView = z.object({
  _id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  createdAt: z.string(),
  /** How the last delivery went, if there was one. */
  lastDelivery: z
    .object({ event: z.string(), state: z.enum(['waiting', 'delivered', 'failing', 'failed']), at: z.string() })
    .nullable(),
});
export type WebhookView = z.infer<typeof webhookView>;

/** A new webhook, with its signing secret: shown this once. */
export const webhookCreated = webhookView.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreated>;

export const webhookDeliveryView = z.object({
  _id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  state: z.enum(['waiting', 'delivered', 'failing', 'failed']),
  attempts: z.number(),
  /** The receiver's HTTP status of the last attempt, if it answered. */
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;
