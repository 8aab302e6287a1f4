import { z } from 'zod';
import { INVOICE_KINDS } from '../constants';
import { STORED_PAYMENT_METHODS } from '../payment-methods';
import { messages } from '../messages';
import { CLIENT_INVOICE_STATUSES } from './status-timeline';

/**
 * The client's own page (decision 036): everything of theirs behind one signed link, newest first.
 * Amounts are integer cents.
 */

/** Where a quote version stands, in the client's words. */
export const CLIENT_QUOTE_STATES = ['open', 'accepted', 'declined', 'replaced', 'expired'] as const;
export type ClientQuoteState = (typeof CLIENT_QUOTE_STATES)[number];

const address = z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() });

/**
 * A service plan on the client's page: "offered" until signed (or "lapsed" when its dates passed
 * unsigned), "signed" while it runs, "ended" after its last date. `href`: the plan's own page, signed
 * like its e-mail's link; null when it cannot be opened from here.
 */
export const clientPagePlan = z.object({
  id: z.string(),
  name: z.string(),
  /** "Every 6 months on the 14th, 9:00 AM – 11:00 AM, from …, until …". */
  schedule: z.string(),
  /** "$18.00 a month, plus sales tax" (planPriceWords). */
  price: z.string(),
  address: z.string(),
  state: z.enum(['offered', 'lapsed', 'signed', 'ended']),
  signedAt: z.string().nullable(),
  href: z.string().nullable(),
});
export type ClientPagePlan = z.infer<typeof clientPagePlan>;

export const clientPageView = z.object({
  client: z.object({
    name: z.string(),
    email: z.string(),
    phone: z.string(),
    addresses: z.array(address),
  }),
  /** Staff opened it from the client's admin page: nothing on it may be sent. */
  readOnly: z.boolean(),
  /** The last day the link opens the page (60 days after the last e-mail that carried it); null for staff. */
  linkValidUntil: z.string().nullable(),
  requests: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      status: z.string(),
      address: z.string(),
      /** The day it was sent, where the business is. */
      sentOn: z.string(),
      /** The request's status page (by its full id: with the documents' links). */
      href: z.string(),
    }),
  ),
  quotes: z.array(
    z.object({
      number: z.string(),
      projectName: z.string(),
      state: z.enum(CLIENT_QUOTE_STATES),
      totalCents: z.number().int(),
      sentOn: z.string(),
      validUntil: z.string(),
      href: z.string(),
      pdfHref: z.string(),
    }),
  ),
  visits: z.array(
    z.object({
      id: z.string(),
      date: z.string(),
      start: z.string(),
      end: z.string(),
      /** `start`–`end` is an arrival window (Settings → Visits), not the visit's own times. */
      arriving: z.boolean(),
      startsAt: z.string(),
      address: z.string(),
      upcoming: z.boolean(),
      /** The client confirmed this time (decision 045): by a reply C, or Confirm here. */
      confirmed: z.boolean(),
      /** Booked online and waiting for the office's approval (issue 31): held, not yet in their calendar. */
      awaitingApproval: z.boolean(),
      /** An .ics of the visit, signed like the page. */
      icsHref: z.string(),
      /**
       * Whether the client may move or cancel it from here (decision 046): until when (an instant), and
       * how many moves are left; null: the business takes changes by phone only.
       */
      change: z.object({ until: z.string(), movesLeft: z.number().int() }).nullable(),
    }),
  ),
  reports: z.array(z.object({ jobId: z.string(), on: z.string(), at: z.string(), href: z.string() })),
  /** Their service plans (issue 31), newest first: offered (to read and sign), signed, or past their dates. */
  servicePlans: z.array(clientPagePlan),
  /** The texts we sent them, newest first (decision 045): when, what, and whether it arrived. */
  texts: z.array(
    z.object({
      at: z.string(),
      body: z.string(),
      state: z.enum(['sent', 'delivered', 'failed']),
    }),
  ),
  invoices: z.array(
    z.object({
      id: z.string(),
      number: z.string(),
      kind: z.enum(INVOICE_KINDS),
      status: z.enum(CLIENT_INVOICE_STATUSES),
      totalCents: z.number().int(),
      balanceCents: z.number().int(),
      issueDate: z.string().nullable(),
      dueDate: z.string().nullable(),
      /** The client's invoice page (where it can be paid), signed as in the invoice's e-mail. */
      href: z.string(),
      pdfHref: z.string(),
      /** Where Pay starts the online checkout (a signed API path): null when it cannot be paid online now. */
      checkout: z.string().nullable(),
      /** Each payment received: the receipt's figures. */
      payments: z.array(
        z.object({ paidOn: z.string(), amountCents: z.number().int(), method: z.enum(STORED_PAYMENT_METHODS) }),
      ),
    }),
  ),
  /** What they owe on sent invoices. */
  balanceCents: z.number().int(),
});
export type ClientPageView = z.infer<typeof clientPageView>;

/**
 * The client page's words (decision 036). Kept here rather than in messages.ts, which the home page
 * loads: only the pages that offer the link load these.
 */
export const clientPageMessages = {
  /** "E-mail me my link": the one answer, whether or not the address is on file. */
  linkSent:
    'If this e-mail address is on file with us, we have sent it the link to your page. It can take a few minutes to arrive.',
  /** A link to a client's page past its 60 days. */
  linkExpired: 'This link has expired. We can e-mail a fresh one to the address we have on file.',
  linkInvalid: 'This link is not valid. Please use the link in your e-mail, or ask for a new one.',
};

/** "E-mail me my link": the address typed. */
export const pageLinkRequest = z.strictObject({
  email: z
    .string({ error: messages.emailInvalid })
    .trim()
    .max(254, messages.emailInvalid)
    .pipe(z.email(messages.emailInvalid)),
});
export type PageLinkRequest = z.infer<typeof pageLinkRequest>;

/** "E-mail me a fresh link" from an expired one: the old link's token. */
export const freshLinkRequest = z.strictObject({ token: z.string().max(2000) });

/** The one answer to either (`clientPageMessages.linkSent`), whether or not the address or link is known. */
export const pageLinkAnswer = z.object({ message: z.string() });

/** Confirm on the client's page: the page's own token proves whose visit it is. */
export const confirmVisitInput = z.object({ token: z.string().max(2000) });
export const confirmVisitAnswer = z.object({ confirmed: z.literal(true), when: z.string() });
