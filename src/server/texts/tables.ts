import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, oneOf } from '../db/columns';
import { clients } from '../clients/tables';
import { TEXT_KINDS, TEXT_STATES, type TextKind, type TextState } from '#shared/schemas/texts';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * The owner's own text-message account (one row, id 1; decision 045): the Twilio account SID, its auth
 * token sealed with the install's key (like the payment key, decision 035), and what texts are sent
 * from (a number, or a messaging service). Left out of exports.
 */
export const textAccounts = pgTable('text_accounts', {
  id: integer('id').primaryKey().default(1),
  accountSid: text('account_sid').notNull(),
  authTokenSealed: text('auth_token_sealed').notNull(),
  /** The sending number in E.164 ('' when a messaging service sends). */
  fromNumber: text('from_number').notNull().default(''),
  /** A Twilio messaging service (MG…), which picks the number ('' when a number sends). */
  messagingServiceSid: text('messaging_service_sid').notNull().default(''),
  /** At most this many texts to one number in a day ("on my way" included). */
  dailyLimit: integer('daily_limit').notNull().default(6),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Every text to a client, one row from queued to what the carrier said (the delivery ledger; decision
 * 045): written with the change that causes it, sent by the text relay, brought up to date by the
 * provider's signed status callbacks.
 */
export const textMessages = pgTable(
  'text_messages',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    /** The visit it is about (booked, moved, reminder, on my way), when it is about one. */
    visitId: text('visit_id'),
    /** The e-mail it stands in for ("Send by text instead" on one that failed): once per e-mail. */
    mailId: text('mail_id'),
    /** The request and the job it is about, when it is about one: their pages list it (issue 30). */
    quoteRequestId: text('quote_request_id'),
    jobId: text('job_id'),
    kind: text('kind').$type<TextKind>().notNull(),
    /** E.164. */
    toNumber: text('to_number').notNull(),
    /** What is sent; with `pageLink`, the short link to the client's page is added when it is sent. */
    body: text('body').notNull(),
    pageLink: boolean('page_link').notNull().default(false),
    state: text('state').$type<TextState>().notNull().default('queued'),
    /** Why it failed or was not sent (the provider's code and words, STOP, the daily limit). */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    /** The provider's id for it (SM…): what its status callbacks name. */
    providerSid: text('provider_sid'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    /**
     * When a send first got no answer (the provider may have taken it): before it is sent again, the
     * provider is asked for a text with its words since then.
     */
    unansweredAt: timestamp('unanswered_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    /** When the office sent it again ("Send again"): once per text. */
    resentAt: timestamp('resent_at', { withTimezone: true, mode: 'date' }),
    /** When the owner's daily notice of failed texts listed it (null: not yet, or never needed). */
    ownerNoticedAt: timestamp('owner_noticed_at', { withTimezone: true, mode: 'date' }),
    /** When the state last changed. */
    stateAt: timestamp('state_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('text_messages_kind_check', t.kind, TEXT_KINDS),
    oneOf('text_messages_state_check', t.state, TEXT_STATES),
    index('text_messages_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'queued'`),
    uniqueIndex('text_messages_mail_idx')
      .on(t.mailId)
      .where(sql`${t.mailId} is not null`),
    uniqueIndex('text_messages_provider_sid_idx')
      .on(t.providerSid)
      .where(sql`${t.providerSid} is not null`),
    index('text_messages_client_idx').on(t.clientId, t.createdAt),
    // The System page's "last text sent".
    index('text_messages_sent_at_idx')
      .on(t.sentAt)
      .where(sql`${t.sentAt} is not null`),
    // The dashboard's "Texts not delivered" (the last week's failed and held-back texts).
    index('text_messages_trouble_idx')
      .on(t.createdAt)
      .where(sql`${t.state} in ('failed', 'not-sent')`),
    // The daily limit counts a number's texts of the last day.
    index('text_messages_number_idx').on(t.toNumber, t.createdAt),
    index('text_messages_visit_idx')
      .on(t.visitId, t.kind)
      .where(sql`${t.visitId} is not null`),
    // The request's and the job's pages list their texts.
    index('text_messages_request_idx')
      .on(t.quoteRequestId, t.createdAt)
      .where(sql`${t.quoteRequestId} is not null`),
    index('text_messages_job_idx')
      .on(t.jobId, t.createdAt)
      .where(sql`${t.jobId} is not null`),
    // "On my way" goes once per visit, however many taps (two phones, a retry on a bad signal).
    uniqueIndex('text_messages_on_my_way_idx')
      .on(t.visitId)
      .where(sql`${t.kind} = 'on-my-way'`),
  ],
);

/** A number that answered STOP: never texted again until it answers START. */
export const textOptOuts = pgTable('text_opt_outs', {
  number: text('number').primaryKey(),
  stoppedAt: timestamp('stopped_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * A short address for a client's own page (`/p/<code>`), one per client: a text carries it instead
 * of the page's long signed link, so it stays one segment. It opens the page only while the page's own
 * 60 days run (decision 036). Left out of exports, like every other link's secret.
 */
export const textLinks = pgTable('text_links', {
  code: text('code').primaryKey(),
  clientId: text('client_id')
    .notNull()
    .unique('text_links_client_idx')
    .references(() => clients.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** The texts clients sent us, by the provider's id: a replayed post (the same MessageSid) is ignored. */
export const textInbound = pgTable('text_inbound', {
  messageSid: text('message_sid').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The days the owner was sent the notice of texts that failed (issue 30): one a day, however many
 * processes look, by the day's row (the business's date) being written once.
 */
export const textFailureNotices = pgTable('text_failure_notices', {
  day: text('day').primaryKey(),
  sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  /** How many texts it listed. */
  texts: integer('texts').notNull(),
});
