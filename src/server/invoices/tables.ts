import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { INVOICE_KINDS, INVOICE_STATES, type InvoiceKind, type InvoiceState } from '#shared/constants';
import { STORED_PAYMENT_METHODS, type PaymentMethod } from '#shared/payment-methods';
import { oneOf, createdAt } from '../db/columns';
import { clients } from '../clients/tables';
import { jobs } from '../jobs/tables';
import { users } from '../users/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    /** INV-2026-0001: given when sent, per year, without gaps; kept when voided. */
    number: text('number'),
    jobId: text('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    state: text('state').$type<InvoiceState>().notNull().default('Draft'),
    /** The job's bill ('final'), a deposit asked when the quote was accepted, or repeating work's ('plan'). */
    kind: text('kind').$type<InvoiceKind>().notNull().default('final'),
    /**
     * What a 'plan' invoice bills, as its maker names it ("plan:<id>:2026-12", "visit:<id>"): unique, so
     * the same month or visit is invoiced once, whoever makes it and however often.
     */
    sourceKey: text('source_key'),
    /** The client billed (the job's): their page lists their invoices and what they owe. */
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    clientName: text('client_name').notNull(),
    clientEmail: text('client_email').notNull(),
    address: text('address').notNull(),
    /** Where the bill goes when not to the property: the client's billing address ('' = the address above). */
    billingAddress: text('billing_address').notNull().default(''),
    /** The client's company ('' for a household): first under "Bill to". Follows the client until sent. */
    companyName: text('company_name').notNull().default(''),
    /** The client's purchase-order number (the quote's, when it had one); '' when none. */
    poNumber: text('po_number').notNull().default(''),
    taxRateBasisPoints: integer('tax_rate_basis_points').notNull(),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull().default(0),
    /** Subtotal and tax, before any deposit credited. */
    totalCents: bigint('total_cents', { mode: 'number' }).notNull().default(0),
    /** The job's deposit invoice taken off what is due (its whole total, paid or not). */
    creditCents: bigint('credit_cents', { mode: 'number' }).notNull().default(0),
    /** The deposit invoice that `creditCents` takes off (a final invoice's "Less deposit INV-…"). */
    creditedInvoiceId: text('credited_invoice_id'),
    /**
     * What was paid on it: the sum of its payments, kept by a trigger on payments in the same
     * transaction as each payment (migration 0025), so lists and figures never sum payments per row.
     */
    paidCents: bigint('paid_cents', { mode: 'number' }).notNull().default(0),
    /** Days from sending to the due date (while Draft); the dates once sent. */
    dueDays: integer('due_days').notNull().default(14),
    issueDate: date('issue_date', { mode: 'string' }),
    dueDate: date('due_date', { mode: 'string' }),
    notes: text('notes').notNull().default(''),
    voidReason: text('void_reason'),
    /** The overdue reminders waiting in the outbox: called off by the last payment or a void. */
    reminderMailIds: text('reminder_mail_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('invoices_state_check', t.state, INVOICE_STATES),
    uniqueIndex('invoices_number_idx').on(t.number),
    // One live bill per job: two "Create invoice" at once make one (a deposit invoice is apart).
    uniqueIndex('invoices_live_job_idx')
      .on(t.jobId)
      .where(sql`${t.state} <> 'Void' and ${t.kind} = 'final'`),
    oneOf('invoices_kind_check', t.kind, INVOICE_KINDS),
    uniqueIndex('invoices_source_key_idx')
      .on(t.sourceKey)
      .where(sql`${t.sourceKey} is not null`),
    index('invoices_created_idx').on(t.createdAt, t.id),
    index('invoices_client_idx').on(t.clientId, t.createdAt),
    // Overdue and what is owed: only the sent invoices that still owe something, by due date.
    index('invoices_owing_due_idx')
      .on(t.dueDate)
      .where(sql`${t.state} = 'Sent' and ${t.totalCents} - ${t.creditCents} - ${t.paidCents} > 0`),
    // The list's search (part of the number, the client's name or e-mail) without reading every row.
    index('invoices_search_trgm_idx').using(
      'gin',
      sql`(lower(coalesce(${t.number}, '') || ' ' || ${t.clientName} || ' ' || ${t.clientEmail})) gin_trgm_ops`,
    ),
    check('invoices_numbered_when_sent', sql`${t.state} = 'Draft' or ${t.number} is not null`),
    check('invoices_credit_range', sql`${t.creditCents} >= 0 and ${t.creditCents} <= ${t.totalCents}`),
    check('invoices_paid_range', sql`${t.paidCents} >= 0`),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    description: text('description').notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    /** Charged sales tax (lines before issue 24 were all taxed). */
    taxable: boolean('taxable').notNull().default(true),
  },
  (t) => [index('invoice_lines_invoice_idx').on(t.invoiceId, t.position)],
);

/** The last invoice number given in each year: the row lock makes numbers consecutive under load. */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull(),
});

export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    method: text('method').$type<PaymentMethod>().notNull(),
    /** A check's number, a transfer's reference. */
    reference: text('reference').notNull().default(''),
    /** For a payment taken by a provider later (online cards): who and their id for it. */
    provider: text('provider'),
    providerRef: text('provider_ref'),
    /** What the provider kept as its fee, when it reported it (online payments only). */
    feeCents: bigint('fee_cents', { mode: 'number' }),
    /** A refund (a negative amount): the payment it gives money back on. */
    refundOf: text('refund_of'),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    recordedBy: text('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('payments_method_check', t.method, STORED_PAYMENT_METHODS),
    // A refund is a negative payment (decision 035); nothing is ever a zero.
    check('payments_amount_not_zero', sql`${t.amountCents} <> 0`),
    // One row per provider payment (or refund), whoever delivers it first: return, reconciler or webhook.
    uniqueIndex('payments_provider_ref_idx')
      .on(t.provider, t.providerRef)
      .where(sql`${t.providerRef} is not null`),
    index('payments_invoice_idx').on(t.invoiceId),
    // Reports by date, and the payments CSV in this order a batch at a time (decision 028).
    index('payments_paid_on_idx').on(t.paidOn, t.createdAt, t.id),
  ],
);
