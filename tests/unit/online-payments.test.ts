import { describe, expect, it } from 'vitest';
import { onlinePaymentsInput } from '#shared/schemas/payments';
import { nextCheckAfter } from '../../src/server/payments/service';
import { stripeProvider } from '../../src/server/payments/stripe';
import { PaymentProviderError } from '../../src/server/payments/provider';
import Stripe from 'stripe';

const minute = 60_000;

describe('online payment rules (decision 035)', () => {
  it('the reconciler asks every 2 minutes in a checkout’s first hour, then hourly', () => {
    const created = new Date('2026-11-25T10:00:00Z');
    const at = (minutes: number) => new Date(created.getTime() + minutes * minute);
    expect(nextCheckAfter(created, at(0)).getTime() - at(0).getTime()).toBe(2 * minute);
    expect(nextCheckAfter(created, at(59)).getTime() - at(59).getTime()).toBe(2 * minute);
    expect(nextCheckAfter(created, at(60)).getTime() - at(60).getTime()).toBe(60 * minute);
    expect(nextCheckAfter(created, at(23 * 60)).getTime() - at(23 * 60).getTime()).toBe(60 * minute);
  });

  it('takes a restricted or secret key and a whsec_ secret; refuses a publishable key', () => {
    const key = `rk_live_${'a'.repeat(24)}`;
    expect(onlinePaymentsInput.parse({ secretKey: key, onlineFor: 'both' })).toMatchObject({ secretKey: key });
    expect(onlinePaymentsInput.safeParse({ secretKey: `pk_live_${'a'.repeat(24)}`, onlineFor: 'both' }).success).toBe(
      false,
    );
    expect(onlinePaymentsInput.safeParse({ webhookSecret: 'nope', onlineFor: 'deposits' }).success).toBe(false);
    // Empty keeps what is saved.
    expect(onlinePaymentsInput.parse({ onlineFor: 'invoices' })).toEqual({
      secretKey: '',
      webhookSecret: '',
      onlineFor: 'invoices',
    });
  });

  it('a webhook is checked over its exact bytes within 5 minutes', () => {
    const secret = `whsec_${'b'.repeat(24)}`;
    const provider = stripeProvider({ secretKey: `sk_test_${'c'.repeat(24)}`, webhookSecret: secret });
    const payload = JSON.stringify({
      id: 'evt_1',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_1', object: 'checkout.session' } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(provider.parseWebhook(Buffer.from(payload), signature)).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      sessionId: 'cs_1',
    });
    expect(() => provider.parseWebhook(Buffer.from(`${payload} `), signature)).toThrow(PaymentProviderError);
    const old = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(() => provider.parseWebhook(Buffer.from(payload), old)).toThrow(PaymentProviderError);
    expect(() => provider.parseWebhook(Buffer.from(payload), undefined)).toThrow(PaymentProviderError);
  });
});
