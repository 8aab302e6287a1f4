import { describe, expect, it } from 'vitest';
import { stripeProvider } from '../../src/server/payments/stripe';

/**
 * The same provider against Stripe's real test mode (decision 035). Skipped unless
 * STRIPE_TEST_SECRET_KEY holds a test-mode key (sk_test_… or rk_test_… with Checkout Sessions write):
 *   STRIPE_TEST_SECRET_KEY=sk_test_… npx vitest run tests/api/stripe-test-mode.test.ts
 * It needs the internet; it makes a checkout session, reads it back, ends it and reads the list.
 */
const key = process.env.STRIPE_TEST_SECRET_KEY;

describe.skipIf(!key || !/_test_/.test(key))('Stripe test mode, for real', () => {
  it('creates a hosted checkout for exact cents with our idempotency key, retrieves it, expires it', async () => {
    const provider = stripeProvider({ secretKey: key!, webhookSecret: null });
    await provider.test();
    const idempotencyKey = `handyman-test-${Date.now()}`;
    const request = {
      invoiceId: 'test-invoice',
      description: 'Invoice INV-TEST-0001',
      amountCents: 12_345,
      customerEmail: 'client@example.com',
      successUrl: 'https://example.com/invoice/x?checkout={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://example.com/invoice/x?checkout=cancelled',
      idempotencyKey,
    };
    const checkout = await provider.createCheckout(request);
    expect(checkout.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    // The same key gives the same session.
    expect((await provider.createCheckout(request)).sessionId).toBe(checkout.sessionId);
    const status = await provider.retrieve(checkout.sessionId);
    expect(status).toMatchObject({ state: 'open', amountCents: 12_345, invoiceId: 'test-invoice', paymentRef: null });
    await provider.expire(checkout.sessionId);
    expect((await provider.retrieve(checkout.sessionId)).state).toBe('expired');
  }, 60_000);
});
