import { z } from 'zod';
import { INVOICE_KINDS, INVOICE_STATUSES, PAYMENT_METHODS, type InvoiceState, type InvoiceStatus } from '../constants';
import { STORED_PAYMENT_METHODS } from '../payment-methods';
import { isoDate } from './fields';
import { dollarsInput, quantityInput } from './numbers';

/** A line of a draft invoice; a negative unit price is a discount. */
export const invoiceLineInput = z.object({
  description: z.string().trim().min(1, 'Describe the line').max(500, 'A line must be at most 500 characters'),
  quantity: quantityInput(),
  unitPrice: dollarsInput('Unit price', -1_000_000),
  /** Charged sales tax (a line sent without it is, as before issue 24). */
  taxable: z.boolean().default(true),
});
export type InvoiceLineInput = z.infer<typeof invoiceLineInput>;

/** PUT /api/invoices/:id while Draft. */
export const invoiceDraftInput = z.object({
  lines: z.array(invoiceLineInput).min(1, 'An invoice needs at least one line').max(200, 'At most 200 lines'),
  dueDays: z
    .number({ error: 'Days to pay must be a number' })
    .int('Days to pay must be whole days')
    .min(0, 'Days to pay cannot be negative')
    .max(365, 'Days to pay must be at most 365'),
  notes: z.string().trim().max(2000, 'Notes must be at most 2000 characters'),
  /** The client's purchase-order number; left out, unchanged. */
  poNumber: z.string().trim().max(40, 'PO number must be at most 40 characters').optional(),
});
export type InvoiceDraftInput = z.infer<typeof invoiceDraftInput>;

export const paymentInput = z.object({
  method: z.enum(PAYMENT_METHODS, { error: 'Choose how it was paid' }),
  /** A check's number or a transfer's reference. */
  reference: z.string().trim().max(100, 'A reference must be at most 100 characters').default(''),
  paidOn: isoDate,
  amount: dollarsInput('Amount', 0.01),
  note: z.string().trim().max(500, 'A note must be at most 500 characters').default(''),
});
export type PaymentInput = z.input<typeof paymentInput>;

export const voidInput = z.object({
  reason: z.string().trim().min(1, 'Please give a reason').max(2000),
});

export const paymentView = z.object({
  _id: z.string(),
  method: z.enum(STORED_PAYMENT_METHODS),
  reference: z.string(),
  paidOn: z.string(),
  /** Dollars; a refund is negative. */
  amount: z.number(),
  note: z.string(),
  /** Paid online: the provider's fee when it reported it, and what can still be given back. */
  online: z.boolean(),
  fee: z.number().nullable(),
  refundable: z.number(),
});

/** An invoice as staff see it (the client's view leaves out the internal fields). */
export const invoiceView = z.object({
  _id: z.string(),
  number: z.string().nullable(),
  jobId: z.string().nullable(),
  /** The job's bill, the deposit asked when its quote was accepted, or repeating work's month or visit. */
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(INVOICE_STATUSES),
  /** The client's record (their page), when the invoice's job came from a request of theirs. */
  clientId: z.string().nullable(),
  clientName: z.string(),
  /** '' when the client has no e-mail: nothing was e-mailed. */
  clientEmail: z.string(),
  address: z.string(),
  /** Where the bill goes when not to the property above ('' = there): a commercial client's billing address. */
  billingAddress: z.string(),
  /** A commercial client's company ('' for a household): first under "Bill to". */
  companyName: z.string(),
  /** The client's purchase-order number ('' when none). */
  poNumber: z.string(),
  lines: z.array(
    z.object({
      description: z.string(),
      quantity: z.number(),
      unitPrice: z.number(),
      amount: z.number(),
      taxable: z.boolean(),
    }),
  ),
  taxRateBasisPoints: z.number(),
  subtotal: z.number(),
  /** The part of the subtotal charged sales tax: "Tax 8% on $78.94". */
  taxable: z.number(),
  tax: z.number(),
  total: z.number(),
  /** The job's deposit invoice taken off (its whole total, paid or not), and its number. */
  credit: z.number(),
  creditedNumber: z.string().nullable(),
  /** That deposit invoice as it stands (staff: "the deposit is still unpaid"). */
  creditedDeposit: z
    .object({ _id: z.string(), number: z.string().nullable(), total: z.number(), balance: z.number() })
    .nullable(),
  paid: z.number(),
  balance: z.number(),
  dueDays: z.number(),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  notes: z.string(),
  voidReason: z.string().nullable(),
  payments: z.array(paymentView),
  /** The PDF (signed address), once sent. */
  pdfUrl: z.string().nullable(),
});
export type InvoiceView = z.infer<typeof invoiceView>;

/**
 * What the client sees on their link, with how to pay what is owed (shared/how-to-pay.ts): only what
 * their page shows. Named field by field, so a field added for the office (ids, the payments with the
 * office's notes, a void's reason, the client's e-mail) stays out until the page needs it.
 */
export const clientInvoiceView = invoiceView
  .pick({
    number: true,
    kind: true,
    status: true,
    clientName: true,
    address: true,
    billingAddress: true,
    companyName: true,
    poNumber: true,
    lines: true,
    taxRateBasisPoints: true,
    subtotal: true,
    taxable: true,
    tax: true,
    total: true,
    credit: true,
    creditedNumber: true,
    paid: true,
    balance: true,
    issueDate: true,
    dueDate: true,
    notes: true,
    pdfUrl: true,
  })
  .extend({ howToPay: z.array(z.object({ label: z.string(), text: z.string() })) });
export type ClientInvoiceView = z.infer<typeof clientInvoiceView>;

/** The status an invoice shows: its stored state, then its payments and due date. */
export function invoiceStatusOf(
  state: InvoiceState,
  dueCents: number,
  paidCents: number,
  dueDate: string | null,
  today: string,
): InvoiceStatus {
  if (state !== 'Sent') return state;
  if (paidCents >= dueCents) return 'Paid';
  if (dueDate !== null && dueDate < today) return 'Overdue';
  return paidCents > 0 ? 'Partially Paid' : 'Sent';
}

/** An invoice's status in the client's words (their page's chip): what they owe, not the office's steps. */
export type ClientInvoiceStatus = 'Due' | 'Partly paid' | 'Paid' | 'Overdue' | 'Void';

/**
 * The client's word for a status. Overdue stays "Overdue": it is the client's word too, and the
 * reminder e-mail they get says the invoice is past its due date, so "Due" would contradict it.
 */
export function clientInvoiceStatusOf(status: InvoiceStatus): ClientInvoiceStatus {
  switch (status) {
    case 'Draft':
    case 'Sent':
      return 'Due';
    case 'Partially Paid':
      return 'Partly paid';
    default:
      return status;
  }
}

/**
 * What the office should do about a deposit invoice still unpaid when its job ends: the owner's notice
 * and the job page say it in these words.
 */
export function openDepositAdvice(how: 'Completed' | 'Cancelled'): string {
  return how === 'Cancelled'
    ? 'Void it if the client owes nothing, so its reminders stop.'
    : 'The final invoice takes the whole deposit off, so the client still owes it on the deposit invoice: record the payment when it comes in.';
}

/** GET /api/jobs/:id/invoice: a job's final invoice and its deposit's, if any. */
/** GET /api/invoices: a page of invoices. */
/** An invoice as the list shows it: built from its row alone (what was paid is kept on it). */
export const invoiceSummary = invoiceView.pick({
  _id: true,
  number: true,
  jobId: true,
  kind: true,
  status: true,
  clientId: true,
  clientName: true,
  clientEmail: true,
  total: true,
  paid: true,
  balance: true,
  issueDate: true,
  dueDate: true,
});
export const jobInvoices = z.object({
  invoice: invoiceView.nullable(),
  deposit: invoiceView.nullable(),
  /** Its repeating visits' invoices (months or visits), newest first: the last 24. */
  recurring: z.array(invoiceSummary),
});
export type JobInvoices = z.infer<typeof jobInvoices>;
export type InvoiceSummary = z.infer<typeof invoiceSummary>;

export const invoiceList = z.object({ invoices: z.array(invoiceSummary), total: z.number(), totalPages: z.number() });
export type InvoiceList = z.infer<typeof invoiceList>;

/** A refund from the invoice page (decision 035): whole or part of one payment. */
export const refundInput = z.object({
  paymentId: z.string().max(64),
  amount: dollarsInput('Amount', 0.01),
  note: z.string().trim().max(500).default(''),
});
export type RefundInput = z.input<typeof refundInput>;
