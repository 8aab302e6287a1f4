/**
 * The seam between the product and whoever takes the money (decision 035): the manual methods of today
 * and Stripe behind one interface, so a second provider is one new file. Amounts are integer cents.
 */

export interface CheckoutRequest {
  invoiceId: string;
  /** What the invoice says, for the provider's page ("Invoice INV-2026-0001"). */
  description: string;
  amountCents: number;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  /** The same key gives the same session, however often it is asked (a retry, two clicks). */
  idempotencyKey: string;
}

export interface Checkout {
  sessionId: string;
  url: string;
  expiresAt: Date;
}

/** How a checkout stands at the provider. */
export interface CheckoutStatus {
  sessionId: string;
  /** open: not paid yet; processing: paid by a bank debit not yet cleared; paid; expired. */
  state: 'open' | 'processing' | 'paid' | 'expired';
  /** The provider's id for the money (a payment intent), when there is one. */
  paymentRef: string | null;
  amountCents: number;
  invoiceId: string | null;
  /** The provider's fee, when it reported it. */
  feeCents: number | null;
}

export interface RefundRequest {
  paymentRef: string;
  amountCents: number;
  idempotencyKey: string;
}

export interface RefundResult {
  refundRef: string;
  amountCents: number;
  state: 'succeeded' | 'pending' | 'failed';
}

/** A webhook's event, verified: which checkout (or payment) it speaks of. */
export interface PaymentEvent {
  id: string;
  type: string;
  sessionId: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  /** Whether a client can pay through it online (the manual methods cannot). */
  readonly online: boolean;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  retrieve(sessionId: string): Promise<CheckoutStatus>;
  /** Ends an open checkout (its amount is no longer the balance). */
  expire(sessionId: string): Promise<void>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Verifies the signature over the raw body; throws PaymentProviderError when it does not hold. */
  parseWebhook(rawBody: Buffer, signature: string | undefined): PaymentEvent;
  /** "Test the connection": a harmless read with the key. */
  test(): Promise<void>;
}

/** The provider refused or could not be reached; `code` is its reason (card_declined, …) when it gave one. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'declined' | 'unavailable' | 'refused' | 'signature',
    readonly code?: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
