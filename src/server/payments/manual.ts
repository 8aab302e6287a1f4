import { PaymentProviderError, type PaymentProvider } from './provider';

const offline = () => new PaymentProviderError('Online payment is off: the client pays by hand', 'refused');

/**
 * The manual methods of today (cash, check, card by phone, transfer): the office records the payment by
 * hand and gives money back by hand, so nothing here goes online. It answers when no key is saved.
 */
export const manualProvider: PaymentProvider = {
  name: 'manual',
  online: false,
  createCheckout: () => Promise.reject(offline()),
  retrieve: () => Promise.reject(offline()),
  expire: () => Promise.resolve(),
  refund: () => Promise.reject(offline()),
  parseWebhook: () => {
    throw offline();
  },
  test: () => Promise.reject(offline()),
};
