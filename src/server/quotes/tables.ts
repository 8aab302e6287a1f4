import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { QUOTE_STATUSES, type QuoteStatus } from '#shared/constants';
import { oneOf, createdAt } from '../db/columns';
import { quoteRequests } from '../quote-requests/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const quotes = pgTable(
  'quotes',
  {
    id: text('id').primaryKey(),
    /** The number shown on the quote and in the e-mail ("QT74936259-2"); the API calls it quoteId. */
    quoteNumber: text('quote_number').notNull(),
    quoteRequestId: text('quote_request_id')
      .notNull()
      .references(() => quoteRequests.id, { onDelete: 'cascade' }),
    clientName: text('client_name').notNull(),
    projectName: text('project_name').notNull(),
    status: text('status').$type<QuoteStatus>().notNull().default('Pending'),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    /** The tax rate the quote was priced at (800 = 8%): a later rate change leaves it as sent. */
    taxRateBasisPoints: integer('tax_rate_basis_points').notNull().default(800),
    clientMessage: text('client_message'),
    /** Notes the client reads on the quote (page, e-mail, PDF). */
    notes: text('notes').notNull().default(''),
    /** The office's own notes: never in a client's view, e-mail, PDF or template. */
    internalNotes: text('internal_notes').notNull().default(''),
    /** The client's purchase-order number ('' when none): on the quote and the job's invoices. */
    poNumber: text('po_number').notNull().default(''),
    /**
     * Who the quote is for, as it was when it was sent (decision 037): the client's company ('' for a
     * household), their billing address ('' = bills go to the property) and the request's property.
     */
    companyName: text('company_name').notNull().default(''),
    billingAddress: text('billing_address').notNull().default(''),
    serviceAddress: text('service_address').notNull().default(''),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    quoteDate: createdAt(),
    /** 1 for the first quote sent for a request; each revision adds one ("QT74936259-2"). */
    version: integer('version').notNull().default(1),
    /** When a newer version replaced this one: its link then points to the newer one. */
    replacedAt: timestamp('replaced_at', { withTimezone: true, mode: 'date' }),
    /** The last day the client may accept it (in the business's time zone). */
    validUntil: date('valid_until', { mode: 'string' }).notNull(),
    /** When the client first opened the quote's page. */
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    /** The acceptance: the name the client typed and the network address it came from (the time is answeredAt). */
    acceptedName: text('accepted_name'),
    acceptedIp: text('accepted_ip'),
    /** A deposit asked on acceptance: a whole percent of the accepted total, or an amount in cents. */
    depositKind: text('deposit_kind').$type<'percent' | 'amount'>(),
    depositValue: bigint('deposit_value', { mode: 'number' }),
  },
  (t) => [
    oneOf('quotes_status_check', t.status, QUOTE_STATUSES),
    check(
      'quotes_deposit_check',
      sql`(${t.depositKind} is null and ${t.depositValue} is null) or (${t.depositKind} in ('percent', 'amount') and ${t.depositValue} > 0)`,
    ),
    uniqueIndex('quotes_quote_number_idx').on(t.quoteNumber),
    uniqueIndex('quotes_request_version_idx').on(t.quoteRequestId, t.version),
    // One current version per request.
    uniqueIndex('quotes_current_idx')
      .on(t.quoteRequestId)
      .where(sql`${t.replacedAt} is null`),
    // The quotes CSV reads every quote in this order, a batch at a time (decision 028).
    index('quotes_created_idx').on(t.quoteDate, t.id),
  ],
);

export const quoteMaterials = pgTable(
  'quote_materials',
  {
    id: text('id').primaryKey(),
    quoteId: text('quote_id')
      .notNull()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    /** A line the client may choose to include. */
    optional: boolean('optional').notNull().default(false),
    /** Counted in the totals: every required line; an optional one once the client ticked it. */
    included: boolean('included').notNull().default(true),
    /** Charged sales tax (lines stored before issue 24 were all taxed, and keep what they said). */
    taxable: boolean('taxable').notNull().default(true),
  },
  (t) => [index('quote_materials_quote_idx').on(t.quoteId, t.position)],
);

export const quoteLabor = pgTable(
  'quote_labor',
  {
    id: text('id').primaryKey(),
    quoteId: text('quote_id')
      .notNull()
      .references(() => quotes.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** What the work is ("Rehang the gate"); empty for lines sent before descriptions existed. */
    description: text('description').notNull().default(''),
    hourlyRateCents: bigint('hourly_rate_cents', { mode: 'number' }).notNull(),
    hours: numeric('hours', { precision: 12, scale: 2 }).notNull(),
    /** A flat price for the work: the rate column holds the price and hours are 1 (decision 032). */
    flat: boolean('flat').notNull().default(false),
    /** A line the client may choose to include. */
    optional: boolean('optional').notNull().default(false),
    /** Counted in the totals: every required line; an optional one once the client ticked it. */
    included: boolean('included').notNull().default(true),
    /** Charged sales tax (repair labor is not, in California; lines before issue 24 were all taxed). */
    taxable: boolean('taxable').notNull().default(true),
  },
  (t) => [index('quote_labor_quote_idx').on(t.quoteId, t.position)],
);

/** A template's material line: the price in cents, as every stored price. */
export interface TemplateMaterial {
  name: string;
  unitPriceCents: number;
  quantity: number;
  optional: boolean;
  taxable?: boolean | undefined;
}
/** A template's labor line (a flat price: the rate is the price, hours 1). */
export interface TemplateLabor {
  description: string;
  hourlyRateCents: number;
  hours: number;
  flat: boolean;
  optional: boolean;
  taxable?: boolean | undefined;
}

/**
 * A quote kept under a name to start new ones from (decision 032): its lines and the notes the client
 * reads, never the office's internal notes nor anything of one client's. The lines are one document
 * (read and written whole), so they are kept as JSON, prices in cents.
 */
export const quoteTemplates = pgTable(
  'quote_templates',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    materials: jsonb('materials').$type<TemplateMaterial[]>().notNull(),
    labor: jsonb('labor').$type<TemplateLabor[]>().notNull(),
    notes: text('notes').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('quote_templates_name_idx').on(sql`lower(${t.name})`)],
);
