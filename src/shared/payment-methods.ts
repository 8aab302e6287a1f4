import { PAYMENT_METHODS } from './constants';

// Apart from constants.ts, which the public pages' first script reads.

/** What a payment row may say: the methods recorded by hand, a card paid online, and a refund (decision 035). */
export const STORED_PAYMENT_METHODS = [...PAYMENT_METHODS, 'card online', 'refund'] as const;
export type PaymentMethod = (typeof STORED_PAYMENT_METHODS)[number];
