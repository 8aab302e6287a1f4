import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  INVOICE_STATES,
  JOB_STATUSES,
  PAYMENT_METHODS,
  QUOTE_REQUEST_STATUSES,
  QUOTE_STATUSES,
  USER_ROLES,
  type InvoiceState,
  type JobStatus,
  type PaymentMethod,
  type QuoteRequestStatus,
  type QuoteStatus,
  type UserRole,
} from '../../shared/constants';
import type { WeeklySchedule } from '../../shared/schemas/schedule';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** A CHECK that a text column holds one of the listed values (the lists in src/shared/statuses.ts). */
const oneOf = (name: string, column: AnyPgColumn, values: readonly string[]) =>
  check(name, sql`${column} in (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '))})`);

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    role: text('role').$type<UserRole>().notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When an employee is available: weekdays with hours, set by the employee. */
    schedule: jsonb('schedule')
      .$type<WeeklySchedule>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Bumped on every password or role change: tokens carrying an older version stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('users_role_check', t.role, USER_ROLES),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    index('users_role_idx').on(t.role, t.createdAt),
    index('users_full_name_trgm_idx').using('gin', sql`${t.fullName} gin_trgm_ops`),
  ],
);

/**
 * One row per sign-in: a staff token names its session, and a token whose session is gone (signed
 * out, ended by an admin, expired) no longer works, even before the token itself expires.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A client: the person behind requests, quotes and jobs, matched by e-mail (case-insensitive) when
 * a request arrives or the office enters one.
 */
export const clients = pgTable(
  'clients',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    notes: text('notes').notNull().default(''),
    /** Name, e-mail, phone (also as bare digits) and every address: what the Clients search reads. */
    searchText: text('search_text').notNull().default(''),
    /** The phone's digits without a leading US "1": what a typed number is matched against. */
    phoneDigits: text('phone_digits').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // Reversed, so "ends with these digits" (the whole number, or its last four) is a prefix search.
    index('clients_phone_digits_reversed_idx').on(sql`reverse(${t.phoneDigits}) text_pattern_ops`),
    uniqueIndex('clients_email_lower_idx').on(sql`lower(${t.email})`),
    index('clients_created_idx').on(t.createdAt, t.id),
    index('clients_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** How many clients there are, kept by a trigger (migration 0008): the Clients page's page count. */
export const clientCounts = pgTable('client_counts', {
  id: integer('id').primaryKey().default(1),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

/** The properties a client has asked us to work at. */
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
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('client_addresses_unique_idx').on(t.clientId, sql`lower(${t.street})`, sql`lower(${t.zip})`)],
);

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

export const quotes = pgTable(
  'quotes',
  {
    id: text('id').primaryKey(),
    /** The number shown on the quote and in the e-mail. */
    quoteId: text('quote_id').notNull(),
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
    uniqueIndex('quotes_quote_id_idx').on(t.quoteId),
    uniqueIndex('quotes_request_version_idx').on(t.quoteRequestId, t.version),
    // One current version per request.
    uniqueIndex('quotes_current_idx')
      .on(t.quoteRequestId)
      .where(sql`${t.replacedAt} is null`),
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
    /** A line the client may choose to include. */
    optional: boolean('optional').notNull().default(false),
    /** Counted in the totals: every required line; an optional one once the client ticked it. */
    included: boolean('included').notNull().default(true),
    /** Charged sales tax (repair labor is not, in California; lines before issue 24 were all taxed). */
    taxable: boolean('taxable').notNull().default(true),
  },
  (t) => [index('quote_labor_quote_idx').on(t.quoteId, t.position)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    quoteId: text('quote_id').references(() => quotes.id, { onDelete: 'set null' }),
    quoteRequestId: text('quote_request_id').references(() => quoteRequests.id, { onDelete: 'set null' }),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone').notNull().default(''),
    street: text('street').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status').$type<JobStatus>().notNull().default('Not Started'),
    /** Why the job was cancelled, and the status it had (an undo puts it back). */
    cancelReason: text('cancel_reason'),
    statusBeforeCancel: text('status_before_cancel').$type<JobStatus>(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('jobs_status_check', t.status, JOB_STATUSES),
    index('jobs_created_idx').on(t.createdAt, t.id),
    index('jobs_status_idx').on(t.status),
    index('jobs_contact_name_trgm_idx').using('gin', sql`${t.contactName} gin_trgm_ops`),
  ],
);

export const jobWorkers = pgTable(
  'job_workers',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assignedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.userId] }), index('job_workers_user_idx').on(t.userId)],
);

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
    /** Whether the crew sees prices (the materials price list, what they add); the owner's choice. */
    crewSeesPrices: boolean('crew_sees_prices').notNull().default(false),
    /** The short list of materials the crew picks from, with their prices. */
    materialPriceList: jsonb('material_price_list')
      .$type<{ name: string; unitPriceCents: number; taxable?: boolean }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Whether a new material line / labor line is charged sales tax unless switched (California's rule). */
    materialsTaxable: boolean('materials_taxable').notNull().default(true),
    laborTaxable: boolean('labor_taxable').notNull().default(false),
    /** How many daily backups of the embedded database to keep in DATA_DIR/backups. */
    backupsToKeep: integer('backups_to_keep').notNull().default(14),
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
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_tax_rate_range', sql`${t.taxRateBasisPoints} between 0 and 5000`),
    check('settings_quote_validity_range', sql`${t.quoteValidityDays} between 1 and 365`),
  ],
);

export const contactMessages = pgTable('contact_messages', {
  id: text('id').primaryKey(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone').notNull().default(''),
  message: text('message').notNull(),
  createdAt: createdAt(),
});

/**
 * A file sent with an e-mail: its bytes (small ones), or the key of a stored document (a PDF such as
 * `invoice:<id>`) that the relay reads, or draws, when it sends, so the outbox never holds a copy.
 */
export type MailAttachment =
  | { filename: string; contentType: string; contentBase64: string }
  | { filename: string; contentType: string; document: string };

/** Transactional outbox: written with the change that causes the mail, delivered by the relay. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    attachments: jsonb('attachments')
      .$type<MailAttachment[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    sent: boolean('sent').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /** A scheduled message no longer wanted (a reminder after the client answered): never sent. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sent} = false`),
  ],
);

/**
 * A request's history, oldest first: what happened, who did it, and the e-mail it caused (whose
 * delivery state the timeline reads from the outbox).
 */
export const quoteRequestEvents = pgTable(
  'quote_request_events',
  {
    id: text('id').primaryKey(),
    quoteRequestId: text('quote_request_id')
      .notNull()
      .references(() => quoteRequests.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** 'client', 'staff' or 'system'. */
    actor: text('actor').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The quote version it concerns (QT74936259-2), if any. */
    quoteNumber: text('quote_number'),
    /** A question, an answer or a reason, as written. */
    message: text('message'),
    details: jsonb('details')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    mailId: text('mail_id'),
    createdAt: createdAt(),
    /**
     * The order events were written in: two written in one transaction can share a time (PGlite's clock
     * is coarser than PostgreSQL's), and the timeline must still show them in order.
     */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [index('quote_request_events_request_idx').on(t.quoteRequestId, t.createdAt)],
);

/**
 * A visit: when a crew is at a job. Stored as instants; entered and shown as the business's wall-clock
 * date and times (settings' time zone).
 */
export const visits = pgTable(
  'visits',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** For the crew only (gate codes, "collect the check first"): never in anything the client receives. */
    notes: text('notes').notNull().default(''),
    /** What the office means the client to read: in their e-mails and their calendar entry. */
    clientNote: text('client_note').notNull().default(''),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true, mode: 'date' }),
    cancelReason: text('cancel_reason'),
    /** Called off because its job ended (not by the office): booked again if the job is reopened. */
    calledOffWithJob: boolean('called_off_with_job').notNull().default(false),
    /** The client's reminder the day before, in the outbox: called off when the visit moves or is cancelled. */
    reminderMailId: text('reminder_mail_id'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('visits_end_after_start', sql`${t.endsAt} > ${t.startsAt}`),
    // A calendar's range ("visits overlapping this month") is a range overlap: a GiST index answers it.
    index('visits_range_idx').using('gist', sql`tstzrange(${t.startsAt}, ${t.endsAt})`),
    index('visits_job_idx').on(t.jobId, t.startsAt),
  ],
);

export const visitWorkers = pgTable(
  'visit_workers',
  {
    visitId: text('visit_id')
      .notNull()
      .references(() => visits.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.visitId, t.userId] }), index('visit_workers_user_idx').on(t.userId)],
);

/**
 * The secret addresses of the iCalendar feeds calendars subscribe to: the company's ("company") and
 * each worker's ("user:<id>"). Regenerating replaces the token, which stops the old address. The token
 * itself is not stored: only a keyed fingerprint to find it by and a copy sealed with the install's key
 * to show the address again, so a backup of the database opens no feed (decision 024).
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    owner: text('owner').primaryKey(),
    tokenDigest: text('token_digest'),
    tokenSealed: text('token_sealed'),
    /** Before migration 0023 the token was kept as it is; the next start seals it and empties this. */
    legacyToken: text('token'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_digest_idx').on(t.tokenDigest)],
);

/*
 * The crew's record of a job (issue 16). Rows the crew makes carry ids their phone chose (UUIDs), so a
 * change queued offline and sent twice lands once.
 */

/** What to do on the job: the sold quote's lines (copied once) and the crew's own items. */
export const jobChecklistItems = pgTable(
  'job_checklist_items',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    /** Copied from the sold quote (kept; the crew's own items can be removed). */
    fromQuote: boolean('from_quote').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    doneBy: text('done_by').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('job_checklist_items_job_idx').on(t.jobId, t.position)],
);

/**
 * Time on a job: a timer (started, then stopped) or hours entered for a day. Minutes are set when a
 * timer stops or hours are entered; a running timer has none. A worker runs one timer at a time.
 */
export const jobTimeEntries = pgTable(
  'job_time_entries',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    visitId: text('visit_id').references(() => visits.id, { onDelete: 'set null' }),
    /** The business's date the work was on. */
    workDate: date('work_date', { mode: 'string' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    minutes: integer('minutes'),
    createdAt: createdAt(),
  },
  (t) => [
    index('job_time_entries_job_idx').on(t.jobId, t.workDate),
    check('job_time_entries_kind', sql`${t.startedAt} is not null or ${t.minutes} is not null`),
    check('job_time_entries_minutes', sql`${t.minutes} is null or ${t.minutes} between 0 and 1440`),
    check('job_time_entries_order', sql`${t.endedAt} is null or ${t.endedAt} >= ${t.startedAt}`),
    uniqueIndex('job_time_entries_one_running_idx')
      .on(t.userId)
      .where(sql`${t.startedAt} is not null and ${t.endedAt} is null`),
  ],
);

/** Materials used beyond the quote; the office prices them (or they come priced from the price list). */
export const jobMaterials = pgTable(
  'job_materials',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    /** Null until the office prices it. */
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }),
    addedBy: text('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('job_materials_job_idx').on(t.jobId, t.createdAt)],
);

/** Photos the crew takes on the job, before and after, re-encoded without metadata like the request's. */
export const jobPhotos = pgTable(
  'job_photos',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<'before' | 'after'>().notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    data: bytea('data').notNull(),
    thumbnail: bytea('thumbnail').notNull(),
    takenBy: text('taken_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('job_photos_stage_check', t.stage, ['before', 'after']),
    index('job_photos_job_idx').on(t.jobId, t.createdAt),
  ],
);

/**
 * The rest of the crew's record, one row per job: notes for the office, the client's signature, and the
 * report made when the job was completed.
 */
export const jobRecords = pgTable('job_records', {
  jobId: text('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** For the office only: never on the client's report. */
  crewNotes: text('crew_notes').notNull().default(''),
  /** The crew's note to the client, printed on their report. */
  clientNote: text('client_note').notNull().default(''),
  /** The sold quote's lines were copied into the checklist (once). */
  checklistSeededAt: timestamp('checklist_seeded_at', { withTimezone: true, mode: 'date' }),
  signedName: text('signed_name'),
  signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }),
  /** The signature as a PNG, re-encoded from what the phone drew. */
  signature: bytea('signature'),
  report: bytea('report'),
  reportAt: timestamp('report_at', { withTimezone: true, mode: 'date' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The newest change applied to each thing on a job's record (a checklist item, a time entry, a material,
 * the notes, the note to the client): when the phone made it and its id (decision 026). A change older
 * than the one applied is skipped, a deleted thing keeps its row so that a late older change does not
 * bring it back, and the same change sent twice is applied once.
 */
export const jobRecordVersions = pgTable(
  'job_record_versions',
  {
    /** `<jobId>:checklist/<id>`, `<jobId>:time/<id>`, `<jobId>:materials/<id>`, `<jobId>:notes`, `<jobId>:client-note`. */
    target: text('target').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull(),
    changeId: text('change_id').notNull(),
  },
  (t) => [index('job_record_versions_job_idx').on(t.jobId)],
);

/*
 * Invoices and payments (issue 17). Money in integer cents; an invoice is numbered when it is sent.
 */

export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    /** INV-2026-0001: given when sent, per year, without gaps; kept when voided. */
    number: text('number'),
    jobId: text('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    state: text('state').$type<InvoiceState>().notNull().default('Draft'),
    /** The job's bill ('final'), or a deposit asked when the quote was accepted ('deposit'). */
    kind: text('kind').$type<'final' | 'deposit'>().notNull().default('final'),
    clientName: text('client_name').notNull(),
    clientEmail: text('client_email').notNull(),
    address: text('address').notNull(),
    taxRateBasisPoints: integer('tax_rate_basis_points').notNull(),
    subtotalCents: bigint('subtotal_cents', { mode: 'number' }).notNull().default(0),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull().default(0),
    /** Subtotal and tax, before any deposit credited. */
    totalCents: bigint('total_cents', { mode: 'number' }).notNull().default(0),
    /** The job's deposit invoice taken off what is due (its whole total, paid or not). */
    creditCents: bigint('credit_cents', { mode: 'number' }).notNull().default(0),
    /** The deposit invoice that `creditCents` takes off (a final invoice's "Less deposit INV-…"). */
    creditedInvoiceId: text('credited_invoice_id'),
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
    oneOf('invoices_kind_check', t.kind, ['final', 'deposit']),
    index('invoices_created_idx').on(t.createdAt, t.id),
    check('invoices_numbered_when_sent', sql`${t.state} = 'Draft' or ${t.number} is not null`),
    check('invoices_credit_range', sql`${t.creditCents} >= 0 and ${t.creditCents} <= ${t.totalCents}`),
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
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    recordedBy: text('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('payments_method_check', t.method, PAYMENT_METHODS),
    check('payments_amount_positive', sql`${t.amountCents} > 0`),
    index('payments_invoice_idx').on(t.invoiceId),
    index('payments_paid_on_idx').on(t.paidOn),
  ],
);

/**
 * The audit trail: every staff action with who, when, from where and what was asked to change. Rows
 * are only ever added: triggers (migration 0015) refuse UPDATE, DELETE and TRUNCATE, and the user is
 * kept by id and name, without a foreign key, so deleting a user leaves their entries as they were.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    /** The order entries were written in (two can share a time). */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`clock_timestamp()`),
    userId: text('user_id'),
    /** The person's name when it happened (or the username typed at a failed sign-in). */
    actorName: text('actor_name').notNull(),
    ip: text('ip').notNull(),
    /** What part of the business: sign-in, users, requests, quotes, jobs, visits, invoices, … */
    kind: text('kind').notNull(),
    /** What was done, in words ("Sent a quote"). */
    action: text('action').notNull(),
    /** The route it went through ("POST /api/quotes/:id/send"), or how it happened. */
    route: text('route').notNull().default(''),
    /** The thing it was done to (the id in the address), if any. */
    target: text('target'),
    /** What was sent, with passwords and secrets hidden and long values (photos) shortened. */
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at, t.seq),
    index('audit_log_user_idx').on(t.userId, t.at),
    index('audit_log_kind_idx').on(t.kind, t.at),
  ],
);

/**
 * One number that grows whenever what a calendar shows changes (visits, their crews, their jobs, the
 * crew's names): deferred triggers (migration 0016) add one at each such commit. A calendar range read
 * with it in the same statement can be answered from a cache while the number stands (decision 015).
 */
export const calendarVersion = pgTable(
  'calendar_version',
  {
    id: integer('id').primaryKey().default(1),
    v: bigint('v', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('calendar_version_single_row', sql`${t.id} = 1`)],
);

/**
 * Documents drawn for clients (invoice and quote PDFs), stored once per version: served as they were
 * e-mailed, redrawn only when what they print changes (decision 022).
 */
export const documents = pgTable('documents', {
  /** What it is a copy of: `invoice:<id>`, `quote:<id>`. */
  key: text('key').primaryKey(),
  /** A fingerprint of everything it printed: a different one means it must be drawn again. */
  version: text('version').notNull(),
  contentType: text('content_type').notNull().default('application/pdf'),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});
