// The payments feature's public entry: paying online with the owner's own Stripe account (decision 035).
export { paymentRoutes } from './routes';
export {
  onlinePaymentsView,
  onlineState,
  paysOnline,
  reconcileOnce,
  settleCheckout,
  startInvoiceCheckout,
  RECONCILER_JOB,
  startReconciler,
} from './service';
export type { PaymentProvider } from './provider';
