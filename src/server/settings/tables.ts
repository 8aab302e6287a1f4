import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bytea } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * The business's own details and rules, one row (id 1), edited on the Settings page. The BUSINESS_*
 * variables only seed it on the first start.
 */
export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().default(1),
    businessName: text('business_name').notNull(),
    businessEmail: text('business_email').notNull(),
    businessPhone: text('business_phone').notNull(),
    businessAddress: text('business_address').notNull().default(''),
    /** The contractor's license number (California's CSLB), printed on quotes, invoices and job reports; empty: none. */
    licenseNumber: text('license_number').notNull().default(''),
    /** The line "Proudly Serving …" on the home page. */
    serviceAreaHeadline: text('service_area_headline').notNull(),
    /** Cities, counties or ZIP codes served: the structured data search engines read. */
    serviceArea: text('service_area')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    taxRateBasisPoints: integer('tax_rate_basis_points').notNull(),
    quoteValidityDays: integer('quote_validity_days').notNull(),
    /** Days after sending when an unanswered quote gets a polite reminder (at most two). */
    quoteReminderDays: integer('quote_reminder_days')
      .array()
      .notNull()
      .default(sql`'{3,7}'::integer[]`),
    /** Where notices for the owner go (new requests, messages, answers). */
    ownerEmail: text('owner_email').notNull(),
    timeZone: text('time_zone').notNull(),
    /** The logo as a PNG, re-encoded from the upload; null when there is none. */
    logo: bytea('logo'),
    /** Days after an invoice's due date when a reminder goes, while it is unpaid (at most three). */
    invoiceReminderDays: integer('invoice_reminder_days')
      .array()
      .notNull()
      .default(sql`'{7,14}'::integer[]`),
    /** Whether the crew sees prices (the price book's materials, what they add); the owner's choice. */
    crewSeesPrices: boolean('crew_sees_prices').notNull().default(false),
    /** Whether Crew leads see them when the crew does not (decision 042); the owner's choice. */
    crewLeadsSeePrices: boolean('crew_leads_see_prices').notNull().default(false),
    /** Whether webhooks may go to this machine or a private network (decision 044); the owner's choice. */
    webhooksAllowPrivate: boolean('webhooks_allow_private').notNull().default(false),
    /** Whether admins (Owner and Office) must sign in with two steps; off, each person chooses. */
    requireTwoStep: boolean('require_two_step').notNull().default(false),
    /** Whether a new material line / labor line is charged sales tax unless switched (California's rule). */
    materialsTaxable: boolean('materials_taxable').notNull().default(true),
    laborTaxable: boolean('labor_taxable').notNull().default(false),
    /** How many daily backups of the embedded database to keep in DATA_DIR/backups. */
    backupsToKeep: integer('backups_to_keep').notNull().default(14),
    /** The arrival window a visit is shown to its client as, in minutes from its start; 0: its own times. */
    arrivalWindowMinutes: integer('arrival_window_minutes').notNull().default(120),
    /** How clients pay (Settings → "How clients pay"), printed on every invoice; empty: "call us". */
    payCheckPayee: text('pay_check_payee').notNull().default(''),
    payCheckAddress: text('pay_check_address').notNull().default(''),
    /** Zelle or bank transfer details, as the owner writes them. */
    payTransfer: text('pay_transfer').notNull().default(''),
    payCardByPhone: boolean('pay_card_by_phone').notNull().default(false),
    /** The number to call to pay by card; empty: the business's phone. */
    payCardPhone: text('pay_card_phone').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('settings_backups_to_keep_range', sql`${t.backupsToKeep} between 1 and 365`),
    check('settings_arrival_window_range', sql`${t.arrivalWindowMinutes} between 0 and 480`),
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_tax_rate_range', sql`${t.taxRateBasisPoints} between 0 and 5000`),
    check('settings_quote_validity_range', sql`${t.quoteValidityDays} between 1 and 365`),
  ],
);
