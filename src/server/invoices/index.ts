// The invoices feature's public entry: invoices from completed jobs, their numbers, payments and PDF.
export { invoiceRoutes } from './routes';
export { invoiceFigures, paidOnInvoice } from './repository';
export { issueDepositInvoice } from './service';
export { noticeOpenDeposit, openDepositOfJob } from './open-deposit';
