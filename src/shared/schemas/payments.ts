import { z } from 'zod';

/** Settings → Online payments (decision 035). The key is written, never read back. */
export const ONLINE_FOR_CHOICES = ['deposits', 'invoices', 'both'] as const;

export const onlinePaymentsInput = z.object({
  /** A restricted secret key (rk_live_… / rk_test_…) or a secret key (sk_…); empty keeps the saved one. */
  secretKey: z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === '' || /^(rk|sk)_(live|test)_[A-Za-z0-9]{10,}$/.test(v), {
      message: 'Paste the restricted key from Stripe (it starts with rk_live_ or rk_test_)',
    })
    .default(''),
  /** The webhook endpoint's signing secret (whsec_…); empty keeps the saved one. */
  webhookSecret: z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === '' || /^whsec_[A-Za-z0-9]{10,}$/.test(v), {
      message: 'The signing secret starts with whsec_',
    })
    .default(''),
  onlineFor: z.enum(ONLINE_FOR_CHOICES, { error: 'Choose what clients can pay online' }),
});
export type OnlinePaymentsInput = z.infer<typeof onlinePaymentsInput>;

export const onlinePaymentsView = z.object({
  /** A key is saved and this install can read it. */
  enabled: z.boolean(),
  keySaved: z.boolean(),
  /** Saved by another install's key (a database restored elsewhere): paste it again. */
  keyUnreadable: z.boolean(),
  webhookSecretSaved: z.boolean(),
  onlineFor: z.enum(ONLINE_FOR_CHOICES),
  /** Where Stripe sends its events, for the owner to paste in Stripe's dashboard. */
  webhookUrl: z.string(),
});
export type OnlinePaymentsView = z.infer<typeof onlinePaymentsView>;

export const connectionTest = z.object({ ok: z.literal(true), message: z.string() });

/** The client's Pay: where to go. */
export const checkoutStart = z.object({ url: z.string(), amount: z.number() });

/** What the client's invoice page shows about paying online, and how a return from the provider ended. */
export const clientOnlinePayment = z.object({
  available: z.boolean(),
  /** Dollars paid by a bank debit not yet cleared (not counted until it succeeds). */
  processing: z.number(),
});

export const checkoutReturn = z.object({
  state: z.enum(['open', 'processing', 'paid', 'expired', 'unknown']),
});
