import { z } from 'zod';
import { QUOTE_STATUSES, type QuoteStatus } from '../constants';
import { isoDate, signedName } from './fields';
import { dollarsInput, quantityInput, twoDecimals } from './numbers';
import type { LaborLineDollars, MaterialLineDollars, PricedQuote } from '../money';

/** A material line as typed in the Add Material dialog (dollars). */
export const materialLineInput = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(200),
  unitPrice: dollarsInput('Unit Price'),
  quantity: quantityInput('Quantity'),
  /** The client chooses whether to include it. */
  optional: z.boolean().optional().default(false),
  /** Charged sales tax; left out, the Settings' default for materials. */
  taxable: z.boolean().optional(),
}) satisfies z.ZodType<MaterialLineDollars>;
export type MaterialLineInput = z.infer<typeof materialLineInput>;

/**
 * A labor line as typed in the Add Labor dialog (dollars per hour), or a flat-price line (`flat`: the
 * price in `hourlyRate`, no hours asked; stored as 1 so its total is the price).
 */
export const laborLineInput = z
  .object({
    description: z
      .string()
      .trim()
      .max(200, 'Description must be at most 200 characters')
      .optional()
      .transform((v) => v ?? ''),
    hourlyRate: dollarsInput('Hourly Rate'),
    hours: quantityInput('Hours').optional(),
    /** A flat price for the work instead of an hourly rate. */
    flat: z.boolean().optional().default(false),
    optional: z.boolean().optional().default(false),
    /** Charged sales tax; left out, the Settings' default for labor. */
    taxable: z.boolean().optional(),
  })
  .refine((l) => l.flat || l.hours !== undefined, { message: 'Hours must be a number', path: ['hours'] })
  .transform((l) => ({ ...l, hours: l.flat ? 1 : l.hours! })) satisfies z.ZodType<LaborLineDollars>;

/** A flat-price line as typed in its dialog: what the work is and its price. */
export const flatLineInput = z.object({
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(1, 'Description is required')
    .max(200, 'Description must be at most 200 characters'),
  price: dollarsInput('Price'),
  optional: z.boolean().optional().default(false),
  taxable: z.boolean().optional(),
});
export type LaborLineInput = z.infer<typeof laborLineInput>;

/** A quote's deposit: a whole percent (1–100) of the accepted total, or an amount in dollars. */
export const depositInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('percent'),
    value: z
      .number({ error: 'The deposit must be a number' })
      .int('A deposit percent is a whole number')
      .min(1, 'A deposit is at least 1%')
      .max(100, 'A deposit is at most 100%'),
  }),
  z.object({
    kind: z.literal('amount'),
    value: twoDecimals('The deposit', { above: 0, max: 1_000_000 }),
  }),
]);
export type DepositInput = z.infer<typeof depositInput>;

/** Free text on a quote: what the client reads under the lines, or the office's own notes. */
export const quoteNotesInput = (label: string) =>
  z
    .string()
    .trim()
    .max(MAX_QUOTE_NOTES, `${label} must be at most ${MAX_QUOTE_NOTES} characters`)
    .optional()
    .transform((v) => v ?? '');
export const MAX_QUOTE_NOTES = 2000;

/** A client's purchase-order number, printed on their quotes and invoices (commercial clients). */
export const poNumberInput = z
  .string()
  .trim()
  .max(40, 'PO number must be at most 40 characters')
  .optional()
  .transform((v) => v ?? '');

export const quoteFields = z.object({
  quoteRequestId: z.string().min(1).max(64),
  /** Notes the client reads on the quote (page, e-mail, PDF): what is included, access, timing. */
  notes: quoteNotesInput('Notes for the client'),
  /** The office's own notes: never shown to the client, never kept in a template. */
  internalNotes: quoteNotesInput('Internal notes'),
  /** The client's purchase-order number, when they gave one. */
  poNumber: poNumberInput,
  clientName: z.string({ error: 'Client name is required' }).trim().min(1, 'Client name is required').max(200),
  projectName: z.string({ error: 'Project name is required' }).trim().min(1, 'Project name is required').max(200),
  materials: z.array(materialLineInput).max(100),
  labor: z.array(laborLineInput).max(100),
  /** The last day the client may accept; by default the settings' quote validity from today. */
  validUntil: isoDate.optional(),
  /** A deposit asked when the client accepts: a percent of the total they accept, or an amount. */
  deposit: depositInput.nullable().optional(),
});

const atLeastOneLine = (q: { materials: unknown[]; labor: unknown[] }) => q.materials.length + q.labor.length > 0;
const oneLineMessage = { message: 'Add at least one material or labor line', path: ['materials'] };

/** POST /api/quotes/createNew: a draft with its number and totals; nothing is stored yet. */
export const createQuoteInput = quoteFields.refine(atLeastOneLine, oneLineMessage);

/** POST /api/quotes/sendQuote: the spec's body. The server renders the e-mail itself; quoteHTML is ignored. */
export const sendQuoteInput = quoteFields
  .extend({
    userEmail: z.string().max(254).optional(),
    quote: z
      .object({ quoteId: z.string().max(40).optional() })
      .passthrough()
      .optional(),
    quoteHTML: z.string().max(2_000_000).optional(),
  })
  .refine(atLeastOneLine, oneLineMessage);

export const quoteStatus = z.enum(QUOTE_STATUSES);

/** How staff see a sent quote's status (spec section 4). */
export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  Pending: 'Awaiting Client Response',
  Accepted: 'Accepted By Client',
  Declined: 'Declined By Client',
  'Requested More Info': 'Requested More Info',
};

/** The priced lines and totals as the API carries them (quotes, a job's quote): money.ts's PricedQuote. */
const lineChoice = { optional: z.boolean(), included: z.boolean(), taxable: z.boolean() };
export const pricedQuote = z.object({
  materials: z.array(
    z.object({ name: z.string(), unitPrice: z.number(), quantity: z.number(), subtotal: z.number(), ...lineChoice }),
  ),
  labor: z.array(
    z.object({
      description: z.string(),
      hourlyRate: z.number(),
      hours: z.number(),
      /** A flat price: `hourlyRate` is the price, `hours` 1. */
      flat: z.boolean(),
      total: z.number(),
      ...lineChoice,
    }),
  ),
  totalCostBeforeTax: z.number(),
  taxableBeforeTax: z.number(),
  taxCost: z.number(),
  totalCostAfterTax: z.number(),
  taxRateBasisPoints: z.number().int(),
}) satisfies z.ZodType<PricedQuote>;

export const quoteView = pricedQuote.extend({
  _id: z.string(),
  quoteId: z.string(),
  quoteRequestId: z.string(),
  clientName: z.string(),
  projectName: z.string(),
  status: quoteStatus,
  quoteDate: z.string(),
  clientMessage: z.string().nullable(),
  /** Notes the client reads on the quote. */
  notes: z.string(),
  /** The office's own notes (staff views only: the client's views leave them out). */
  internalNotes: z.string(),
  /** The client's purchase-order number ('' when none). */
  poNumber: z.string(),
  /** Who it is for, as sent (decision 037): the client's company ('' for a household). */
  companyName: z.string(),
  /** Where the client's bills go ('' = to the property). */
  billingAddress: z.string(),
  /** The property the work is at ('' for a quote sent before it was kept). */
  serviceAddress: z.string(),
  /** 1, 2, …: the quote's number carries it from 2 on (QT74936259-2). */
  version: z.number().int(),
  /** False once a newer version replaced it. */
  current: z.boolean(),
  validUntil: z.string(),
  /** Past its valid-until date (in the business's time zone) and not accepted. */
  expired: z.boolean(),
  openedAt: z.string().nullable(),
  answeredAt: z.string().nullable(),
  /** The name the client typed to accept, and the network address the acceptance came from. */
  acceptedName: z.string().nullable(),
  acceptedIp: z.string().nullable(),
  /** The deposit asked on acceptance, and what it comes to on the current total (dollars). */
  deposit: z.object({ kind: z.enum(['percent', 'amount']), value: z.number(), due: z.number() }).nullable(),
});
export type QuoteView = z.infer<typeof quoteView>;

/** The draft createNew answers: the number the quote will carry, and its totals. */
export const quoteDraft = quoteView.pick({
  quoteId: true,
  quoteRequestId: true,
  clientName: true,
  projectName: true,
  quoteDate: true,
  validUntil: true,
  version: true,
  notes: true,
  poNumber: true,
  companyName: true,
  billingAddress: true,
  serviceAddress: true,
  materials: true,
  labor: true,
  totalCostBeforeTax: true,
  taxableBeforeTax: true,
  taxCost: true,
  totalCostAfterTax: true,
  taxRateBasisPoints: true,
});
export type QuoteDraft = z.infer<typeof quoteDraft>;

/** What the client's link shows: no internal ids, no network address. */
export const clientQuoteView = quoteView
  .omit({ _id: true, quoteRequestId: true, acceptedIp: true, openedAt: true, internalNotes: true })
  .extend({
    business: z.object({ name: z.string(), email: z.string(), phone: z.string() }),
    /** When a newer version replaced this one: its number and its page's address (signed for the client). */
    replacedBy: z.object({ quoteId: z.string(), link: z.string() }).nullable(),
    /** The client already asked for an updated quote after this one expired. */
    updateRequested: z.boolean(),
    /** The quote asks a deposit and the business takes deposits online: "Accept and pay the deposit". */
    depositOnline: z.boolean(),
  });
export type ClientQuoteView = z.infer<typeof clientQuoteView>;

/**
 * The reply to the client's answer: the quote, and after a yes their documents: the signed quote's PDF
 * and the deposit's invoice page (null when the quote asks no deposit), both by signed address.
 */
/** The answer to the client's yes, no or question: the quote as the client may see it (no ids, no network address). */
export const clientAnswerResult = quoteView
  .omit({ _id: true, quoteRequestId: true, acceptedIp: true, openedAt: true, internalNotes: true })
  .extend({
    documents: z
      .object({
        signedQuotePdf: z.string(),
        depositInvoice: z.string().nullable(),
        /** Where paying the deposit online starts (a signed API path), when the business takes it online now. */
        depositCheckout: z.string().nullable(),
      })
      .nullable(),
  });
export type ClientAnswerResult = z.infer<typeof clientAnswerResult>;
export type ClientDocuments = NonNullable<ClientAnswerResult['documents']>;

/** The optional lines the client ticked, by position in materials and in labor. */
export const lineSelection = z
  .object({
    materials: z.array(z.number().int().min(0).max(99)).max(100).default([]),
    labor: z.array(z.number().int().min(0).max(99)).max(100).default([]),
  })
  .default({ materials: [], labor: [] });

export const clientAnswerInput = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('accept'),
    token: z.string().max(2000),
    /** The client's typed name: their signature on the acceptance. */
    signatureName: signedName({
      min: 2,
      max: 120,
      missing: 'Please type your full name to accept',
      tooLong: 'Name must be at most 120 characters',
    }),
    selection: lineSelection,
  }),
  z.object({
    action: z.literal('decline'),
    token: z.string().max(2000),
    reason: z.string().trim().max(2000).optional(),
  }),
  z.object({
    action: z.literal('more-info'),
    token: z.string().max(2000),
    message: z.string().trim().min(1, 'Please write your question').max(2000),
  }),
]);
export type ClientAnswerInput = z.input<typeof clientAnswerInput>;

/** POST /api/client-quotes/:quoteId/request-update: an expired quote's client asks for a new one. */
export const requestUpdateInput = z.object({ token: z.string().max(2000) });

/** POST /api/quotes/:quoteId/reply: the owner answers the client's question. */
export const quoteReplyInput = z.object({
  message: z.string({ error: 'Please write your answer' }).trim().min(1, 'Please write your answer').max(5000),
});

/** POST /api/client-quotes/:quoteId/request-update: whether the client had already asked. */
export const updateRequested = z.object({ alreadyAsked: z.boolean() });
export type UpdateRequested = z.infer<typeof updateRequested>;

/** How many templates the office keeps: enough for every kind of job, bounded for the picker. */
export const MAX_QUOTE_TEMPLATES = 200;

const templateName = z
  .string({ error: 'Template name is required' })
  .trim()
  .min(1, 'Template name is required')
  .max(120, 'Template name must be at most 120 characters');

/**
 * POST /api/quote-templates: a quote's lines and the notes the client reads, kept under a name. What
 * the office keeps to itself (internal notes) and what belongs to one client (names, PO, dates) is not
 * a field here, so it cannot be kept (an unknown field is dropped).
 */
export const quoteTemplateInput = z
  .object({
    name: templateName,
    materials: z.array(materialLineInput).max(100),
    labor: z.array(laborLineInput).max(100),
    notes: quoteNotesInput('Notes for the client'),
  })
  .refine(atLeastOneLine, oneLineMessage);
export type QuoteTemplateInput = z.input<typeof quoteTemplateInput>;

/** PATCH /api/quote-templates/:id: a new name. */
export const quoteTemplateRename = z.object({ name: templateName });

export const quoteTemplate = z.object({
  _id: z.string(),
  name: z.string(),
  materials: z.array(
    z.object({
      name: z.string(),
      unitPrice: z.number(),
      quantity: z.number(),
      optional: z.boolean(),
      taxable: z.boolean().optional(),
    }),
  ),
  labor: z.array(
    z.object({
      description: z.string(),
      hourlyRate: z.number(),
      hours: z.number(),
      flat: z.boolean(),
      optional: z.boolean(),
      taxable: z.boolean().optional(),
    }),
  ),
  notes: z.string(),
  updatedAt: z.string(),
});
export type QuoteTemplate = z.infer<typeof quoteTemplate>;

export const quoteTemplateList = z.object({ templates: z.array(quoteTemplate) });
export type QuoteTemplateList = z.infer<typeof quoteTemplateList>;
