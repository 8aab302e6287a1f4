import { z } from 'zod';
import { pageQuery } from './paging';
import { QUOTE_STATUSES } from '../constants';
import { EMAIL_OR_PHONE_REQUIRED, isReachable } from '../phone';
import {
  contactPersonInput,
  quoteRequestFormIn,
  quoteRequestInput,
  quoteRequestStatus,
  quoteRequestView,
} from './quote-request';

export const quoteRequestListQuery = pageQuery.extend({
  status: z.union([quoteRequestStatus, z.literal('All')]).optional(),
  /** Where the request's quote stands (awaiting the client, question asked, accepted, declined). */
  quoteState: z.enum(QUOTE_STATUSES).optional(),
});

/**
 * The client on a request the office enters: an e-mail, or a phone number when they gave none
 * (matched by phone then; nothing is e-mailed to them).
 */
export const staffContactPersonInput = contactPersonInput
  .extend({
    email: z
      .union([z.literal(''), contactPersonInput.shape.email])
      .optional()
      .transform((v) => v ?? ''),
  })
  .superRefine((contact, ctx) => {
    if (!isReachable(contact)) ctx.addIssue({ code: 'custom', path: ['email'], message: EMAIL_OR_PHONE_REQUIRED });
  });

/** The office's phone-in form: the public form's fields, the e-mail optional when there is a phone. */
export const staffRequestFormIn = (today: string) =>
  quoteRequestFormIn(today)
    .extend({ email: z.union([z.literal(''), contactPersonInput.shape.email]) })
    .superRefine((form, ctx) => {
      if (!isReachable(form)) ctx.addIssue({ code: 'custom', path: ['email'], message: EMAIL_OR_PHONE_REQUIRED });
    });

/** POST /api/quoterequest/staff-entry: a request the office takes on the phone (photos and e-mail optional). */
export const staffQuoteRequestInput = quoteRequestInput
  .extend({
    contactPerson: staffContactPersonInput,
    /** Send the client the usual confirmation e-mail (when they gave one). */
    emailClient: z.boolean().optional().default(false),
    /**
     * For an existing client: the client and which of their service addresses the request is for (the
     * address sent is then replaced by that one as stored). Both or neither.
     */
    clientId: z.string().max(64).optional(),
    serviceAddressId: z.string().max(64).optional(),
  })
  .refine((b) => (b.clientId === undefined) === (b.serviceAddressId === undefined), {
    message: 'Choose one of the client’s service addresses',
    path: ['serviceAddressId'],
  });

export const quoteRequestList = z.object({
  /** Each with how many photos the client sent (the list marks them; the photos are on the request's page). */
  quoteRequests: z.array(quoteRequestView.extend({ photoCount: z.number().int() })),
  totalPages: z.number(),
  total: z.number(),
});

/** The detail: each photo with short-lived signed addresses an <img> can load. */
/** A client's photo as staff pages show it: signed addresses of the photo and its thumbnail. */
export const requestPhoto = z.object({
  _id: z.string(),
  width: z.number(),
  height: z.number(),
  url: z.string(),
  thumbnailUrl: z.string(),
});
export type RequestPhoto = z.infer<typeof requestPhoto>;

export const quoteRequestDetail = quoteRequestView.extend({
  images: z.array(requestPhoto),
  /** A commercial client's company and where their bills go, as their record has them now ('' when none). */
  companyName: z.string(),
  billingAddress: z.string(),
});
export type QuoteRequestDetail = z.infer<typeof quoteRequestDetail>;

/** POST /api/quoterequest/markDeclined (the spec's body; the e-mail goes to the stored address). */
export const declineInput = z.object({
  quoteRequestId: z.string().min(1),
  clientEmail: z.string().optional(),
  clientName: z.string().optional(),
  reasonForDecline: z.string().trim().min(1, 'Please give a reason').max(2000),
});

export const dashboardStats = z.object({
  completedJobs: z.number(),
  /** Payments received, all time, without sales tax (dollars). */
  revenue: z.number(),
  /** The same, this month (in the business's time zone). */
  revenueThisMonth: z.number(),
  /** What sent invoices still owe. */
  outstanding: z.number(),
  /** Sent invoices past their due date with a balance. */
  overdueInvoices: z.number(),
  pendingQuoteRequests: z.number(),
  newThisWeek: z.number(),
  newThisMonth: z.number(),
  /** Sent quotes by where they stand (current versions). */
  quotes: z.object({
    awaiting: z.number(),
    questions: z.number(),
    accepted: z.number(),
    declined: z.number(),
  }),
});
export type DashboardStats = z.infer<typeof dashboardStats>;
export type QuoteRequestList = z.infer<typeof quoteRequestList>;
