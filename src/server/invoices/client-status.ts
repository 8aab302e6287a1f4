import type { InvoiceKind } from '#shared/constants';
import type { FastifyInstance } from 'fastify';
import type { InvoiceStatus } from '#shared/constants';
import type { PaymentMethod } from '#shared/payment-methods';
import { toCents } from '#shared/money';
import { liveInvoiceOfJob } from './repository';
import { invoiceView } from './service';

export interface ClientInvoiceSummary {
  id: string;
  number: string;
  kind: InvoiceKind;
  status: InvoiceStatus;
  issueDate: string | null;
  dueDate: string | null;
  /** Dollars, as the invoice's own view computes it. */
  balance: number;
  /** The day of the last payment, if any. */
  lastPaidOn: string | null;
  totalCents: number;
  balanceCents: number;
  /** Each payment received, oldest first: what its receipt said. */
  payments: { paidOn: string; amountCents: number; method: PaymentMethod }[];
}

/**
 * The invoices a job's client has received (sent, not void): the deposit's, then the job's bill, with
 * the status and balance the office sees (`invoiceView`), for the client's status page.
 */
export async function clientInvoicesOfJob(
  app: FastifyInstance,
  jobId: string,
  timeZone: string,
): Promise<ClientInvoiceSummary[]> {
  const rows = [await liveInvoiceOfJob(app.db, jobId, 'deposit'), await liveInvoiceOfJob(app.db, jobId, 'final')];
  const sent = rows.filter((row) => row !== undefined && row.state !== 'Draft' && row.number !== null);
  return Promise.all(
    sent.map(async (row) => {
      const view = await invoiceView(app, app.db, row!, timeZone);
      return {
        id: view._id,
        number: view.number!,
        kind: view.kind,
        status: view.status,
        issueDate: view.issueDate,
        dueDate: view.dueDate,
        balance: view.balance,
        lastPaidOn: view.payments.at(-1)?.paidOn ?? null,
        totalCents: toCents(view.total),
        balanceCents: toCents(view.balance),
        payments: view.payments.map((p) => ({ paidOn: p.paidOn, amountCents: toCents(p.amount), method: p.method })),
      };
    }),
  );
}
