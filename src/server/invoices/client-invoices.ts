import type { InvoiceSummary } from '#shared/schemas/invoices';
import type { DbOrTx } from '../db/client';
import { invoicesOfClient } from './repository';
import { invoiceSummaryOf } from './service';

/**
 * A client's invoices as the list shows them, and what they owe: the balances of the sent invoices
 * (a draft is not yet owed; a void one never is), in cents.
 */
export async function clientInvoicesAndBalance(
  db: DbOrTx,
  clientId: string,
  today: string,
): Promise<{ invoices: InvoiceSummary[]; owedCents: number }> {
  const rows = await invoicesOfClient(db, clientId);
  const owedCents = rows
    .filter((r) => r.state === 'Sent')
    .reduce((sum, r) => sum + Math.max(0, r.totalCents - r.creditCents - r.paidCents), 0);
  return { invoices: rows.map((r) => invoiceSummaryOf(r, today)), owedCents };
}
