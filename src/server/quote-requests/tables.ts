import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { QUOTE_REQUEST_STATUSES, QUOTE_STATUSES, type QuoteRequestStatus, type QuoteStatus } from '#shared/constants';
import { bytea, oneOf, createdAt } from '../db/columns';
import { clientAddresses, clients } from '../clients/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const quoteRequests = pgTable(
  'quote_requests',
  {
    id: text('id').primaryKey(),
    /** "Q" + the last 9 characters of the id, upper-case: what the client types to look it up. */
    quoteNumber: text('quote_number').notNull(),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone').notNull().default(''),
    street: text('street').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    notes: text('notes').notNull(),
    preferredEndDate: date('preferred_end_date', { mode: 'string' }),
    status: text('status').$type<QuoteRequestStatus>().notNull().default('Pending'),
    declineReason: text('decline_reason'),
    clientId: text('client_id').references((): AnyPgColumn => clients.id, { onDelete: 'set null' }),
    /** The client's service address the request is for (its street… columns are a copy, kept as sent). */
    serviceAddressId: text('service_address_id').references((): AnyPgColumn => clientAddresses.id, {
      onDelete: 'set null',
    }),
    /** Where the current quote stands (its status), beside the request's own; null before a quote is sent. */
    quoteStatus: text('quote_status').$type<QuoteStatus>(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('quote_requests_status_check', t.status, QUOTE_REQUEST_STATUSES),
    oneOf('quote_requests_quote_status_check', t.quoteStatus, QUOTE_STATUSES),
    index('quote_requests_client_idx').on(t.clientId, t.createdAt),
    index('quote_requests_quote_status_idx').on(t.quoteStatus, t.createdAt, t.id),
    uniqueIndex('quote_requests_quote_number_idx').on(t.quoteNumber),
    // The admin list: newest first, optionally by status, optionally searched by name. Ascending
    // indexes read backwards serve "order by created_at desc, id desc" (DESC NULLS FIRST).
    index('quote_requests_created_idx').on(t.createdAt, t.id),
    index('quote_requests_status_created_idx').on(t.status, t.createdAt, t.id),
    index('quote_requests_contact_name_trgm_idx').using('gin', sql`${t.contactName} gin_trgm_ops`),
    // The request list's search by e-mail ("@" in the search), at 100,000 rows.
    index('quote_requests_contact_email_trgm_idx').using('gin', sql`${t.contactEmail} gin_trgm_ops`),
  ],
);

/**
 * How many requests are in each status, kept by a trigger on quote_requests (migration 0002): the
 * admin list's page count without counting 100,000 rows on every page.
 */
export const quoteRequestCounts = pgTable('quote_request_counts', {
  status: text('status').$type<QuoteRequestStatus>().primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

export const quoteRequestImages = pgTable(
  'quote_request_images',
  {
    id: text('id').primaryKey(),
    quoteRequestId: text('quote_request_id')
      .notNull()
      .references(() => quoteRequests.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    data: bytea('data').notNull(),
    thumbnail: bytea('thumbnail').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('quote_request_images_request_idx').on(t.quoteRequestId, t.position)],
);
