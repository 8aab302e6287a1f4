// The invoices feature's public entry: invoices from completed jobs, their numbers, payments and PDF.
export { invoiceRoutes } from './routes';
export {
  hasFinalInvoice,
  invoiceFigures,
  invoiceNames,
  revenueByMonth,
  settledJobs,
  unpaidDeposits,
} from './repository';
export { issueDepositInvoice, issuePlanInvoice } from './service';
export { clientInvoicesAndBalance } from './client-invoices';
export { clientInvoicesOfJob, type ClientInvoiceSummary } from './client-status';
export { clientInvoiceLink } from './links';
export { clientInvoicePath, clientInvoicePaths } from './links';
export { noticeOpenDeposit, openDepositOfJob } from './open-deposit';
export { checkClientInvoiceLink } from './links';
export {
  payableBalance,
  recordProviderPayment,
  recordRefund,
  refundablePayment,
  type ProviderPayment,
} from './service';
