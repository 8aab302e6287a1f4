import { z } from 'zod';
import { MAX_REQUEST_PHOTOS, MAX_UPLOAD_BYTES, QUOTE_REQUEST_STATUSES, QUOTE_STATUSES } from '../constants';
import { messages } from '../messages';
import { isoDate } from './fields';

const required = (message: string, max = 200) =>
  z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`);
const optional = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .transform((v) => v ?? '');
const email = z
  .string({ error: messages.emailInvalid })
  .trim()
  .max(254, messages.emailInvalid)
  .pipe(z.email(messages.emailInvalid));

/** A calendar date (YYYY-MM-DD) in the range a person may enter: see fields.ts. */
export { isoDate };

/**
 * A date a client may ask us to finish by: a real date between 2000 and 2100, and not before today where
 * the business is (the Settings' time zone, which a static schema cannot know: the form checks it with
 * `quoteRequestFormIn`, the server with `checkPreferredEndDate`).
 */
export const PAST_DATE_MESSAGE = 'Must not be in the past';
export const notBefore = (today: string) => isoDate.refine((v) => v >= today, PAST_DATE_MESSAGE);

/** A photo as the browser sends it: `data:image/…;base64,…`. Its content is checked on the server. */
export const imageDataUrl = z
  .string()
  .max(Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 100, messages.filesTooLarge)
  .regex(/^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/]+={0,2}$/, 'Each image must be a base64 data URL');

export const contactPersonInput = z.object({
  name: required(messages.firstNameRequired, 120),
  email,
  phone: optional(40),
});

export const addressInput = z.object({
  street: required(messages.streetRequired),
  city: required(messages.cityRequired, 100),
  state: required(messages.stateRequired, 50),
  zip: required(messages.zipRequired, 20),
});

/** POST /api/quoterequest/create: the body the spec's client sends. */
/** The estimate-visit window a visitor picks with their request (issue 31): its day and start. */
export const estimatePick = z.object({
  date: isoDate,
  start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Pick a window'),
});
export type EstimatePick = z.infer<typeof estimatePick>;

export const quoteRequestInput = z.strictObject({
  contactPerson: contactPersonInput,
  address: addressInput,
  notes: required(messages.specificationsRequired, 5000),
  images: z.array(imageDataUrl).max(MAX_REQUEST_PHOTOS, `At most ${MAX_REQUEST_PHOTOS} images`).optional().default([]),
  preferredEndDate: z
    .union([isoDate, z.literal(''), z.null()])
    .optional()
    .transform((v) => v || null),
  /** Book an estimate visit in this window (Settings → Online booking). */
  estimate: estimatePick.optional(),
});
export type QuoteRequestInput = z.input<typeof quoteRequestInput>;

/** The Get a Quote form: the same rules, field by field as the visitor sees them, on `today` where the business is. */
export const quoteRequestFormIn = (today: string) =>
  z.object({
    firstName: required(messages.firstNameRequired, 60),
    lastName: required(messages.lastNameRequired, 60),
    phone: optional(40),
    email,
    street: required(messages.streetRequired),
    city: required(messages.cityRequired, 100),
    state: required(messages.stateRequired, 50),
    zip: required(messages.zipRequired, 20),
    specifications: required(messages.specificationsRequired, 5000),
    preferredEndDate: z.union([notBefore(today), z.literal('')]).optional(),
  });
type QuoteRequestFormSchema = ReturnType<typeof quoteRequestFormIn>;
export type QuoteRequestForm = z.input<QuoteRequestFormSchema>;
export type QuoteRequestFormValues = z.output<QuoteRequestFormSchema>;

export function quoteRequestFromForm(form: QuoteRequestFormValues, images: string[]): QuoteRequestInput {
  return {
    contactPerson: { name: `${form.firstName} ${form.lastName}`, email: form.email, phone: form.phone },
    address: { street: form.street, city: form.city, state: form.state, zip: form.zip },
    notes: form.specifications,
    images,
    preferredEndDate: form.preferredEndDate || null,
  };
}

export const quoteRequestStatus = z.enum(QUOTE_REQUEST_STATUSES);

/** A quote request as the API answers it (spec section 3 names). */
export const quoteRequestView = z.object({
  _id: z.string(),
  quoteNumber: z.string(),
  contactPerson: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() }),
  notes: z.string(),
  preferredEndDate: z.string().nullable(),
  quoteStatus: quoteRequestStatus,
  /** Where the request's current quote stands (its status), beside the request's own; null before a quote. */
  quoteState: z.enum(QUOTE_STATUSES).nullable(),
  clientId: z.string().nullable(),
  quoteRequestDate: z.string(),
  images: z.array(z.object({ _id: z.string(), width: z.number(), height: z.number() })),
});
export type QuoteRequestView = z.infer<typeof quoteRequestView>;

/** The request's status (the spec's), and where its current quote stands beside it (null before one is sent). */
export const quoteStatusResponse = z.object({
  quoteStatus: quoteRequestStatus,
  quoteState: z.enum(QUOTE_STATUSES).nullable(),
  /** When the crew comes next (the business's wall-clock date and times), once the work is booked. */
  /** Its arrival window (`arriving`), or its own times (Settings → Visits). */
  nextVisit: z.object({ date: z.string(), start: z.string(), end: z.string(), arriving: z.boolean() }).nullable(),
});

/** The number a client types: "Q" and the last 9 characters of the id (the id itself if shorter). */
export function quoteNumberOf(id: string): string {
  const clean = id.trim().replace(/^q/i, '');
  return `Q${(clean.length > 9 ? clean.slice(-9) : clean).toUpperCase()}`;
}

/** POST /api/quoterequest/create and the office's entry: the request as stored. */
export const createdQuoteRequest = z.object({ quoteRequest: quoteRequestView });
export type CreatedQuoteRequest = z.infer<typeof createdQuoteRequest>;
export type QuoteStatusResponse = z.infer<typeof quoteStatusResponse>;
