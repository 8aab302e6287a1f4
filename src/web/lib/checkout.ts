import { useMutation } from '@tanstack/react-query';
import { publicApi } from './api-client';

/**
 * Pay online (decision 035): the server starts a hosted checkout for what is owed at `checkoutPath`
 * (a signed `/api/client-invoices/:id/checkout?token=…` address it gave the page) and answers where
 * the provider's page is; the browser goes there. No card data ever reaches this app.
 */
export async function goToCheckout(checkoutPath: string): Promise<void> {
  const { url } = await publicApi<{ url: string }>('POST', checkoutPath.replace(/^\/api(?=\/)/, ''));
  window.location.assign(url);
}

/** `goToCheckout` as a button's mutation: pending while the server asks the provider, its error to show. */
export function useCheckout() {
  return useMutation({ mutationFn: goToCheckout });
}
