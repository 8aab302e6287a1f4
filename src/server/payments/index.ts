// The payments feature's public entry: paying online with the owner's own Stripe account (decision 035).
export { paymentRoutes } from './routes';
export { reconcileOnce, startInvoiceCheckout, startReconciler, settleCheckout } from './service';
export type { PaymentProvider } from './provider';
