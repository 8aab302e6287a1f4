import type { InvoiceKind } from '#shared/constants';
import { every } from '../lib/job-board';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { formatMoney } from '#shared/money';
import type { OnlinePaymentsInput, OnlinePaymentsView } from '#shared/schemas/payments';
import { recordAudit } from '../audit';
import { newId } from '../db/ids';
import { isUniqueViolation } from '../lib/db-errors';
import { conflict, HttpError, notFound } from '../lib/http-errors';
import { clientInvoicePath, payableBalance, recordProviderPayment, recordRefund, refundablePayment } from '../invoices';
import { manualProvider } from './manual';
import { PaymentProviderError, type CheckoutStatus, type PaymentProvider } from './provider';
import {
  checkoutBySession,
  checkoutsOf,
  deleteAccount,
  dueCheckouts,
  dueExcessRefunds,
  insertCheckout,
  openCheckoutOf,
  readAccount,
  releaseLease,
  takeEvent,
  takeLease,
  updateCheckout,
  writeAccount,
  type CheckoutRow,
} from './repository';
import { stripeProvider } from './stripe';
import type { OnlineFor } from './tables';

const SECRET_KEY = 'payments-secret-key';
const WEBHOOK_SECRET = 'payments-webhook-secret';
/** Stripe's least charge in US dollars. */
export const LEAST_ONLINE_CENTS = 50;

/** The provider the owner set up (Stripe with their key), or the manual methods when none is. */
export async function currentProvider(
  app: FastifyInstance,
): Promise<{ provider: PaymentProvider; onlineFor: OnlineFor | null }> {
  const account = await readAccount(app.db);
  const secretKey = account ? app.tokens.unseal(SECRET_KEY, account.secretKeySealed) : null;
  // A key sealed by another install's key (a database restored elsewhere) cannot be read: off.
  if (!account || !secretKey) return { provider: manualProvider, onlineFor: null };
  const webhookSecret = account.webhookSecretSealed
    ? app.tokens.unseal(WEBHOOK_SECRET, account.webhookSecretSealed)
    : null;
  return {
    provider: stripeProvider({
      secretKey,
      webhookSecret,
      apiUrl: app.config.PAYMENTS_API_URL,
      timeoutMs: app.config.PAYMENTS_TIMEOUT_MS,
    }),
    onlineFor: account.onlineFor,
  };
}

/** The owner's choice on Settings → Online payments: whether an invoice of this kind is paid online. */
function takesOnline(onlineFor: OnlineFor | null, kind: InvoiceKind): boolean {
  return onlineFor === 'both' || (kind === 'deposit' ? onlineFor === 'deposits' : onlineFor === 'invoices');
}

/** Whether clients can pay invoices of this kind online (a key saved, and the owner chose that kind). */
export async function paysOnline(app: FastifyInstance, kind: InvoiceKind): Promise<boolean> {
  const { provider, onlineFor } = await currentProvider(app);
  return provider.online && takesOnline(onlineFor, kind);
}

/** What Settings → Online payments shows: never the key, only that one is saved. */
export async function onlinePaymentsView(app: FastifyInstance): Promise<OnlinePaymentsView> {
  const account = await readAccount(app.db);
  const readable = account ? app.tokens.unseal(SECRET_KEY, account.secretKeySealed) !== null : false;
  return {
    enabled: readable,
    keySaved: Boolean(account),
    keyUnreadable: Boolean(account) && !readable,
    webhookSecretSaved: Boolean(account?.webhookSecretSealed),
    onlineFor: account?.onlineFor ?? 'both',
    webhookUrl: `${app.config.PUBLIC_URL}/api/payments/stripe/webhook`,
  };
}

export async function saveOnlinePayments(app: FastifyInstance, input: OnlinePaymentsInput) {
  const saved = await writeAccount(app.db, {
    onlineFor: input.onlineFor,
    ...(input.secretKey ? { secretKeySealed: app.tokens.seal(SECRET_KEY, input.secretKey) } : {}),
    ...(input.webhookSecret ? { webhookSecretSealed: app.tokens.seal(WEBHOOK_SECRET, input.webhookSecret) } : {}),
  });
  if (!saved) throw new HttpError(400, 'secretKey: paste the restricted key from Stripe', 'VALIDATION_FAILED');
  return onlinePaymentsView(app);
}

export async function turnOffOnlinePayments(app: FastifyInstance) {
  await deleteAccount(app.db);
  return onlinePaymentsView(app);
}

/** The provider's refusal as an answer the client or the owner can act on. */
export function providerFailure(error: unknown): never {
  if (error instanceof PaymentProviderError) {
    if (error.kind === 'declined') throw new HttpError(402, 'The card was declined', 'PAYMENT_FAILED');
    // A 5xx answers the generic SERVICE_UNAVAILABLE (plugins/errors.ts): the client is asked to try again.
    if (error.kind === 'unavailable') throw new HttpError(503, 'The payment service did not answer');
    throw new HttpError(409, `The payment service refused: ${error.message}`, 'PAYMENT_FAILED');
  }
  throw error;
}

/** "Test the connection": a harmless read with the saved key. */
export async function testConnection(app: FastifyInstance) {
  const { provider } = await currentProvider(app);
  if (!provider.online) throw conflict('Paste a key first', 'INVOICE_NOT_PAYABLE');
  await provider.test().catch(providerFailure);
  return { ok: true as const, message: 'Stripe answered: the key works' };
}

/** When the reconciler asks next: every 2 minutes in the first hour, then hourly until it expires. */
export function nextCheckAfter(createdAt: Date, now: Date): Date {
  const early = now.getTime() - createdAt.getTime() < 60 * 60_000;
  return new Date(now.getTime() + (early ? 2 * 60_000 : 60 * 60_000));
}

export interface CheckoutStart {
  url: string;
  amountCents: number;
}

/**
 * A hosted checkout for what the invoice owes now, in cents, for the client (their invoice link, or
 * their own page later): the one entry point a page calls. One open checkout per invoice: a second Pay
 * (another tab, the other spouse) is sent to the same one, and a checkout whose amount is no longer the
 * balance is ended first. The idempotency key names the invoice, the amount and the attempt, so a retry
 * after a lost answer gets the same session.
 */
export async function startInvoiceCheckout(
  app: FastifyInstance,
  invoiceId: string,
  urls: { successUrl: string; cancelUrl: string },
): Promise<CheckoutStart> {
  const { provider, onlineFor } = await currentProvider(app);
  if (!provider.online || !onlineFor) throw conflict('Online payment is off', 'INVOICE_NOT_PAYABLE');
  const invoice = await payableBalance(app, invoiceId);
  if (!invoice) throw notFound('Invoice not found');
  if (!invoice.payable || invoice.balanceCents <= 0)
    throw conflict('Nothing is owed on this invoice', 'INVOICE_NOT_PAYABLE');
  if (!takesOnline(onlineFor, invoice.kind)) throw conflict('This invoice is not paid online', 'INVOICE_NOT_PAYABLE');
  if (invoice.balanceCents < LEAST_ONLINE_CENTS)
    throw conflict(`Online payments start at ${formatMoney(LEAST_ONLINE_CENTS)}`, 'INVOICE_NOT_PAYABLE');

  // The open checkout and the attempt number from one read: read apart, a Pay racing another could see
  // no open checkout, then count the other's new one, and ask the provider with a new key for a second
  // session, which nobody would ever be sent to (seen under load on PostgreSQL).
  const checkouts = await checkoutsOf(app.db, invoiceId);
  const open = checkouts.find((c) => c.state === 'open');
  if (open) {
    if (open.amountCents === invoice.balanceCents && open.expiresAt.getTime() > Date.now() + 5 * 60_000)
      return { url: open.url, amountCents: open.amountCents };
    // Its amount is no longer what is owed: end it (settling it first, in case it was paid meanwhile).
    await provider.expire(open.sessionId).catch(providerFailure);
    await settleCheckout(app, open.sessionId, provider);
    const again = await payableBalance(app, invoiceId);
    if (!again?.payable || again.balanceCents <= 0)
      throw conflict('Nothing is owed on this invoice', 'INVOICE_NOT_PAYABLE');
    invoice.balanceCents = again.balanceCents;
  }
  // An ended checkout's key was used for its amount: the next one is a new attempt.
  const attempt = checkouts.length;
  const checkout = await provider
    .createCheckout({
      invoiceId,
      description: `${invoice.kind === 'deposit' ? 'Deposit invoice' : 'Invoice'} ${invoice.number}`,
      amountCents: invoice.balanceCents,
      customerEmail: invoice.clientEmail || null,
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
      idempotencyKey: `checkout-${invoiceId}-${invoice.balanceCents}-${attempt}`,
    })
    .catch(providerFailure);
  const now = new Date();
  try {
    await insertCheckout(app.db, {
      id: newId(),
      invoiceId,
      provider: provider.name,
      sessionId: checkout.sessionId,
      amountCents: invoice.balanceCents,
      url: checkout.url,
      expiresAt: checkout.expiresAt,
      nextCheckAt: nextCheckAfter(now, now),
    });
  } catch (error) {
    // Two Pay at once: the same key gave the same session, the first insert won; or another open one is there.
    if (!isUniqueViolation(error)) throw error;
    const existing = await openCheckoutOf(app.db, invoiceId);
    // A session of ours that lost the race is ended at the provider: no one is sent to it.
    if (existing?.sessionId !== checkout.sessionId) await provider.expire(checkout.sessionId).catch(() => undefined);
    if (existing) return { url: existing.url, amountCents: existing.amountCents };
    throw conflict('A payment for this invoice was just started: try again', 'CONFLICT');
  }
  return { url: checkout.url, amountCents: invoice.balanceCents };
}

/** The client's invoice page's addresses for the provider: back with the session's id, or cancelled. */
export async function clientReturnUrls(app: FastifyInstance, invoiceId: string) {
  const page = `${app.config.PUBLIC_URL}${await clientInvoicePath(app, invoiceId)}`;
  return { successUrl: `${page}&checkout={CHECKOUT_SESSION_ID}`, cancelUrl: `${page}&checkout=cancelled` };
}

export type SettleOutcome = CheckoutStatus['state'] | 'unknown';

/**
 * The one step the return, the reconciler and the webhook all take: ask the provider how the checkout
 * stands (never trusting the caller), and when paid record the payment once, keyed by the provider's id
 * for it (the unique index on payments). A payment beyond the balance goes back through the provider
 * and is recorded as a refund: an invoice is never left overpaid silently.
 */
export async function settleCheckout(
  app: FastifyInstance,
  sessionId: string,
  known?: PaymentProvider,
): Promise<{ state: SettleOutcome; checkout: CheckoutRow | undefined }> {
  const provider = known ?? (await currentProvider(app)).provider;
  const row = await checkoutBySession(app.db, provider.name, sessionId);
  if (!row || !provider.online) return { state: 'unknown', checkout: row };
  const status = await provider.retrieve(sessionId);
  if (status.invoiceId && status.invoiceId !== row.invoiceId) return { state: 'unknown', checkout: row };
  if (status.state === 'paid' && status.paymentRef) {
    const paymentRef = status.paymentRef;
    const recorded = await recordProviderPayment(
      app,
      row.invoiceId,
      { provider: provider.name, providerRef: paymentRef, amountCents: status.amountCents, feeCents: status.feeCents },
      // Nobody signed in pressed a button: the trail names the provider as who did it.
      (tx, invoice) =>
        recordAudit(tx, {
          userId: null,
          actorName: `Online payment (${provider.name})`,
          ip: '',
          kind: 'invoices',
          action: 'Received a payment online',
          target: invoice.id,
          details: { number: invoice.number, amountCents: status.amountCents, providerRef: paymentRef },
        }),
    );
    if (recorded.outcome === 'recorded' && recorded.excessCents > 0 && recorded.paymentId) {
      // Kept before the provider is asked: a refund that fails (or a process that stops) is tried again.
      const owed = {
        paymentRef,
        excessRefundCents: recorded.excessCents,
        excessPaymentId: recorded.paymentId,
        nextCheckAt: nextCheckAfter(row.createdAt, new Date()),
      };
      await updateCheckout(app.db, row.id, owed);
      await giveBackExcess(app, provider, { ...row, ...owed });
    }
  }
  const state = status.state === 'paid' ? 'paid' : status.state;
  if (state !== row.state || status.paymentRef !== row.paymentRef)
    await updateCheckout(app.db, row.id, { state, paymentRef: status.paymentRef });
  return { state, checkout: { ...row, state, paymentRef: status.paymentRef } };
}

/**
 * Gives back what a checkout's payment brought beyond the balance, through the provider, and records
 * it as a refund. The idempotency key names the payment, so a retry after a lost answer refunds once
 * (and the refund's row is keyed by the provider's id for it). When it fails the checkout keeps what is
 * owed and the reconciler tries again; meanwhile the invoice shows it overpaid and the log says why.
 */
async function giveBackExcess(
  app: FastifyInstance,
  provider: PaymentProvider,
  row: Pick<CheckoutRow, 'id' | 'invoiceId' | 'paymentRef' | 'excessRefundCents' | 'excessPaymentId'>,
): Promise<boolean> {
  if (!row.paymentRef || !row.excessPaymentId || row.excessRefundCents <= 0) return false;
  try {
    const refund = await provider.refund({
      paymentRef: row.paymentRef,
      amountCents: row.excessRefundCents,
      idempotencyKey: `excess-${row.paymentRef}`,
    });
    await recordRefund(app, row.invoiceId, {
      paymentId: row.excessPaymentId,
      amountCents: refund.amountCents,
      provider: provider.name,
      providerRef: refund.refundRef,
      userId: null,
      note: 'Paid twice at once: the part beyond the balance was given back',
    });
    await updateCheckout(app.db, row.id, { excessRefundCents: 0 });
    return true;
  } catch (error) {
    app.log.error(
      { err: error, invoiceId: row.invoiceId },
      'an online payment beyond the balance could not be given back yet; tried again later',
    );
    return false;
  }
}

/** A refund from the invoice page: through the provider for an online payment, recorded as a negative payment. */
export async function refundPayment(
  app: FastifyInstance,
  invoiceId: string,
  input: { paymentId: string; amountCents: number; note: string },
  userId: string,
) {
  const { payment, refundableCents } = await refundablePayment(app, invoiceId, input.paymentId);
  if (payment.amountCents <= 0) throw notFound('Payment not found');
  if (input.amountCents > refundableCents)
    throw conflict(`At most ${formatMoney(refundableCents)} of this payment can be refunded`, 'OVERPAYMENT');
  if (!payment.provider || !payment.providerRef) {
    // Money given back by hand (cash, a check): recorded as the office says.
    return recordRefund(app, invoiceId, { ...input, provider: null, providerRef: null, userId });
  }
  const { provider } = await currentProvider(app);
  if (provider.name !== payment.provider)
    throw conflict('Online payment is off: refund it in Stripe', 'INVOICE_NOT_PAYABLE');
  // The key names the payment and what was refunded before, so a double click refunds once.
  const refunded = payment.amountCents - refundableCents;
  const refund = await provider
    .refund({
      paymentRef: payment.providerRef,
      amountCents: input.amountCents,
      idempotencyKey: `refund-${payment.providerRef}-${refunded}-${input.amountCents}`,
    })
    .catch(providerFailure);
  return recordRefund(app, invoiceId, {
    paymentId: payment.id,
    amountCents: refund.amountCents,
    provider: provider.name,
    providerRef: refund.refundRef,
    userId,
    note: input.note,
  });
}

/** A webhook: verified over its raw body, a replayed event ignored, then the same step as the return. */
export async function receiveWebhook(app: FastifyInstance, rawBody: Buffer, signature: string | undefined) {
  const { provider } = await currentProvider(app);
  let event;
  try {
    event = provider.parseWebhook(rawBody, signature);
  } catch {
    throw new HttpError(400, 'The signature does not match');
  }
  if (!(await takeEvent(app.db, event.id, event.type))) return { received: true as const, replayed: true };
  if (event.sessionId) await settleCheckout(app, event.sessionId, provider);
  return { received: true as const, replayed: false };
}

/** What the client's invoice page shows about paying online. */
export async function onlineState(app: FastifyInstance, invoiceId: string) {
  const { provider, onlineFor } = await currentProvider(app);
  const invoice = await payableBalance(app, invoiceId);
  const checkouts = await checkoutsOf(app.db, invoiceId);
  const processing = checkouts.filter((c) => c.state === 'processing').reduce((sum, c) => sum + c.amountCents, 0);
  const allowed = provider.online && invoice !== undefined && takesOnline(onlineFor, invoice.kind);
  return {
    available: Boolean(
      allowed && invoice!.payable && invoice!.balanceCents - processing >= LEAST_ONLINE_CENTS && processing === 0,
    ),
    processingCents: processing,
  };
}

const holder = `${process.pid}-${randomUUID()}`;

/**
 * One round of the reconciler: the checkouts whose time has come, asked of the provider and settled.
 * One process does it when several run (a lease row in the database, taken in one statement).
 */
export async function reconcileOnce(app: FastifyInstance, now = new Date()): Promise<number> {
  const leaseMs = 5 * 60_000;
  if (!(await takeLease(app.db, 'reconciler', holder, now, new Date(now.getTime() + leaseMs)))) return 0;
  let settled = 0;
  try {
    const { provider } = await currentProvider(app);
    if (!provider.online) return 0;
    for (const row of await dueCheckouts(app.db, now, 50)) {
      try {
        const { state } = await settleCheckout(app, row.sessionId, provider);
        if (state === 'open' || state === 'processing')
          await updateCheckout(app.db, row.id, {
            nextCheckAt: nextCheckAfter(row.createdAt, now),
            checks: row.checks + 1,
          });
        else settled++;
      } catch (error) {
        // The provider unreachable (a box without internet): asked again next round.
        app.log.warn({ err: error, checkout: row.id }, 'a checkout could not be checked; asked again later');
        await updateCheckout(app.db, row.id, {
          nextCheckAt: nextCheckAfter(row.createdAt, now),
          checks: row.checks + 1,
        });
      }
    }
    // Money beyond a balance that could not be given back when it came: tried again, on the same schedule.
    for (const row of await dueExcessRefunds(app.db, now, 50)) {
      if (await giveBackExcess(app, provider, row)) settled++;
      else
        await updateCheckout(app.db, row.id, {
          nextCheckAt: nextCheckAfter(row.createdAt, now),
          checks: row.checks + 1,
        });
    }
  } finally {
    await releaseLease(app.db, 'reconciler', holder);
  }
  return settled;
}

/** The reconciler's job on the board (the System page). */
export const RECONCILER_JOB = 'payments-reconciler';

/** Starts the reconciler's rounds (the server; tests call reconcileOnce). Returns a stop. */
export function startReconciler(app: FastifyInstance): () => void {
  const everyMs = app.config.PAYMENTS_POLL_SECONDS * 1000;
  app.jobs.declare(RECONCILER_JOB, 'Card payments check', everyMs / 1000);
  return every(
    app.jobs,
    RECONCILER_JOB,
    { everyMs, onError: (error) => app.log.error({ err: error }, 'the payment reconciler failed') },
    () => reconcileOnce(app),
  );
}
