import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { oneOf, createdAt } from '../db/columns';
import { invoices } from '../invoices/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const ONLINE_FOR = ['deposits', 'invoices', 'both'] as const;
export type OnlineFor = (typeof ONLINE_FOR)[number];

export const CHECKOUT_STATES = ['open', 'processing', 'paid', 'expired', 'failed'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/**
 * The owner's own payment account (one row, id 1): the restricted secret key and the webhook's signing
 * secret, each sealed with the install's key (AES-256-GCM, `tokens.seal`; the key is DATA_DIR/secrets or
 * JWT_SECRET, never in the database). Left out of exports and of the backup's JSON (decision 035).
 */
export const paymentAccounts = pgTable(
  'payment_accounts',
  {
    id: integer('id').primaryKey().default(1),
    provider: text('provider').notNull().default('stripe'),
    secretKeySealed: text('secret_key_sealed').notNull(),
    webhookSecretSealed: text('webhook_secret_sealed'),
    onlineFor: text('online_for').$type<OnlineFor>().notNull().default('both'),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [oneOf('payment_accounts_online_for_check', t.onlineFor, ONLINE_FOR)],
);

/**
 * A hosted checkout started for an invoice, until the provider says how it ended. The return, the
 * reconciler and the webhook all settle it through one step (service.settleCheckout).
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider's id for the session (cs_…). */
    sessionId: text('session_id').notNull(),
    /** The provider's id for the payment (pi_…), once known. */
    paymentRef: text('payment_ref'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    state: text('state').$type<CheckoutState>().notNull().default('open'),
    url: text('url').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the reconciler next asks the provider (often in the first hour, then hourly). */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true, mode: 'date' }).notNull(),
    checks: integer('checks').notNull().default(0),
    /**
     * Money paid beyond the balance still to give back (decision 035), and the payment it came with:
     * kept until the provider's refund is recorded, so a refund that failed is tried again.
     */
    excessRefundCents: bigint('excess_refund_cents', { mode: 'number' }).notNull().default(0),
    excessPaymentId: text('excess_payment_id'),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('checkout_sessions_state_check', t.state, CHECKOUT_STATES),
    uniqueIndex('checkout_sessions_session_idx').on(t.provider, t.sessionId),
    // One open checkout per invoice: two clients pressing Pay at once are sent to the same one.
    uniqueIndex('checkout_sessions_one_open_idx')
      .on(t.invoiceId)
      .where(sql`${t.state} = 'open'`),
    index('checkout_sessions_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.state} in ('open', 'processing')`),
    index('checkout_sessions_refund_due_idx')
      .on(t.nextCheckAt)
      .where(sql`${t.excessRefundCents} > 0`),
  ],
);

/** Webhook events already taken (a replayed event id is ignored). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: createdAt(),
});

/** Who runs the reconciler now: one process at a time holds the lease until it runs out. */
export const paymentLeases = pgTable('payment_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true, mode: 'date' }).notNull(),
});
