import Stripe from 'stripe';
import {
  PaymentProviderError,
  type Checkout,
  type CheckoutRequest,
  type CheckoutStatus,
  type PaymentProvider,
  type RefundRequest,
  type RefundResult,
} from './provider';

/** A signed webhook older than this is refused (Stripe's own default). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** How long a client has on the hosted page (Stripe's least is 30 minutes; its default 24 hours). */
export const CHECKOUT_MINUTES = 24 * 60;

/**
 * When a session stops taking payment, in Unix seconds: a day ahead (Stripe's longest), taken down to
 * a ten-minute mark. The same for two Pay pressed at once, so they send the same parameters under the
 * same idempotency key (a parameter that differs by a second is refused as another request).
 */
export function checkoutExpiry(nowMs: number): number {
  const tenMinutes = 600;
  return Math.floor((nowMs / 1000 + CHECKOUT_MINUTES * 60) / tenMinutes) * tenMinutes;
}

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string | null;
  /** Tests only: where the API answers (an in-process fake on 127.0.0.1). */
  apiUrl?: string | undefined;
  timeoutMs?: number;
}

/** Stripe's errors as ours: a refusal the client can act on, or "try again later". */
function asProviderError(error: unknown): never {
  if (error instanceof Stripe.errors.StripeCardError)
    throw new PaymentProviderError(error.message, 'declined', error.code ?? 'card_declined');
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  )
    throw new PaymentProviderError('The payment service did not answer: try again in a moment', 'unavailable');
  if (error instanceof Stripe.errors.StripeError)
    throw new PaymentProviderError(error.message, 'refused', error.code ?? error.type);
  throw error;
}

const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** The owner's own Stripe account, through the official client: hosted Checkout, nothing of ours between. */
export function stripeProvider(options: StripeOptions): PaymentProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port),
          protocol: api.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });

  async function status(session: Stripe.Checkout.Session): Promise<CheckoutStatus> {
    const paymentRef = idOf(session.payment_intent);
    let state: CheckoutStatus['state'] =
      session.status === 'expired' ? 'expired' : session.status === 'open' ? 'open' : 'processing';
    let feeCents: number | null = null;
    if (session.status === 'complete' && session.payment_status === 'paid') state = 'paid';
    if (paymentRef && state !== 'open' && state !== 'expired') {
      // The fee is on the charge's balance transaction (reported once the charge settles).
      const intent = await stripe.paymentIntents.retrieve(paymentRef, {
        expand: ['latest_charge.balance_transaction'],
      });
      if (intent.status === 'succeeded') state = 'paid';
      else if (intent.status === 'processing') state = 'processing';
      const charge = intent.latest_charge;
      const balance = charge && typeof charge !== 'string' ? charge.balance_transaction : null;
      if (balance && typeof balance !== 'string') feeCents = balance.fee;
    }
    return {
      sessionId: session.id,
      state,
      paymentRef,
      amountCents: session.amount_total ?? 0,
      invoiceId: session.client_reference_id ?? session.metadata?.invoice_id ?? null,
      feeCents,
    };
  }

  return {
    name: 'stripe',
    online: true,
    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: request.amountCents,
                  product_data: { name: request.description },
                },
              },
            ],
            client_reference_id: request.invoiceId,
            metadata: { invoice_id: request.invoiceId },
            payment_intent_data: { metadata: { invoice_id: request.invoiceId } },
            ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: checkoutExpiry(Date.now()),
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (!session.url) throw new PaymentProviderError('Stripe gave no checkout address', 'unavailable');
        return { sessionId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
      } catch (error) {
        return asProviderError(error);
      }
    },
    async retrieve(sessionId) {
      try {
        return await status(await stripe.checkout.sessions.retrieve(sessionId));
      } catch (error) {
        return asProviderError(error);
      }
    },
    async expire(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch (error) {
        // Already paid or expired: the reconciler settles it as it stands.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        asProviderError(error);
      }
    },
    async refund(request: RefundRequest): Promise<RefundResult> {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: request.paymentRef, amount: request.amountCents },
          { idempotencyKey: request.idempotencyKey },
        );
        const state = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' ? 'failed' : 'pending';
        return { refundRef: refund.id, amountCents: refund.amount, state };
      } catch (error) {
        return asProviderError(error);
      }
    },
    parseWebhook(rawBody, signature) {
      if (!options.webhookSecret || !signature)
        throw new PaymentProviderError('No webhook signing secret or no signature', 'signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        throw new PaymentProviderError('The signature does not match', 'signature');
      }
      const object = event.data.object as { object?: string; id?: string };
      return { id: event.id, type: event.type, sessionId: object.object === 'checkout.session' ? object.id! : null };
    },
    async test() {
      try {
        await stripe.checkout.sessions.list({ limit: 1 });
      } catch (error) {
        asProviderError(error);
      }
    },
  };
}
