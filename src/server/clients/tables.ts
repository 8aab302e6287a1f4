import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from '../db/columns';
import { MESSAGE_CHANNELS, type MessageChannel } from '#shared/schemas/texts';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * A client: the person behind requests, quotes and jobs, matched by e-mail (case-insensitive) when
 * a request arrives or the office enters one, and by phone when there is no e-mail ('': phoned in,
 * imported without one; nothing is e-mailed to them).
 */
export const clients = pgTable(
  'clients',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    /**
     * The mobile number texts go to, in E.164 ('' when none): set by the office (or the client on their
     * page), never taken from a public form, so a stranger cannot make us text anyone (decision 045).
     */
    mobile: text('mobile').notNull().default(''),
    /** How the client wants to hear from us: e-mail, text, or both (texts only when they are set up). */
    messageChannel: text('message_channel').$type<MessageChannel>().notNull().default('email'),
    notes: text('notes').notNull().default(''),
    /** A commercial client's company ('' for a household): shown with the contact's name. */
    companyName: text('company_name').notNull().default(''),
    /** Name, e-mail, phone (also as bare digits) and every address: what the Clients search reads. */
    searchText: text('search_text').notNull().default(''),
    /** The phone's digits without a leading US "1": what a typed number is matched against. */
    phoneDigits: text('phone_digits').notNull().default(''),
    /** Where bills go when not to the property (an import's billing address); '' when not given. */
    billingStreet: text('billing_street').notNull().default(''),
    billingCity: text('billing_city').notNull().default(''),
    billingState: text('billing_state').notNull().default(''),
    billingZip: text('billing_zip').notNull().default(''),
    /**
     * When we last sent them an e-mail carrying the link to their own page (decision 036): the link
     * opens it until 60 days after that; null: never sent one.
     */
    pageLinkSentAt: timestamp('page_link_sent_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('clients_message_channel_check', t.messageChannel, MESSAGE_CHANNELS),
    // Reversed, so "ends with these digits" (the whole number, or its last four) is a prefix search.
    index('clients_phone_digits_reversed_idx').on(sql`reverse(${t.phoneDigits}) text_pattern_ops`),
    uniqueIndex('clients_email_lower_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} <> ''`),
    // One client per phone among those without an e-mail: two phone-ins at once make one client.
    uniqueIndex('clients_phone_without_email_idx')
      .on(t.phoneDigits)
      .where(sql`${t.email} = '' and ${t.phoneDigits} <> ''`),
    index('clients_created_idx').on(t.createdAt, t.id),
    index('clients_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** How many clients there are, kept by a trigger (migration 0008): the Clients page's page count. */
export const clientCounts = pgTable('client_counts', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/**
 * The properties a client has us work at (their service addresses): a request and a job each name the
 * one they are for (decision 037). The oldest is the first, offered first.
 */
export const clientAddresses = pgTable(
  'client_addresses',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    street: text('street').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    /** What the client calls it ("Store #12", "Rental on 5th"); '' when unnamed. */
    label: text('label').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('client_addresses_unique_idx').on(t.clientId, sql`lower(${t.street})`, sql`lower(${t.zip})`)],
);
