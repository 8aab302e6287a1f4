// The payments feature's public entry: paying online with the owner's own Stripe account (decision 035).
export { paymentRoutes } from './routes';
export {
  onlineState,
  paysOnline,
  reconcileOnce,
  settleCheckout,
  startInvoiceCheckout,
  startReconciler,
} from './service';
export type { PaymentProvider } from './provider';
