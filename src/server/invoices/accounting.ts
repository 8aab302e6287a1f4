import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { AccountingInvoice, AccountingLineSource, AccountingPayment } from '#shared/accounting';
import type { DbOrTx } from '../db/client';
import { inKeyOrder } from '../lib/sql';
import { invoiceLines, invoices, payments } from './tables';

// The rows the accountant's files are made of (decision 043), read a batch at a time.

const BATCH = 500;

type InvoiceRow = typeof invoices.$inferSelect;

/** Each invoice's lines, in their order, for a batch of invoices. */
async function linesOf(db: DbOrTx, ids: string[]): Promise<Map<string, AccountingLineSource[]>> {
  const found = new Map<string, AccountingLineSource[]>();
  if (ids.length === 0) return found;
  const rows = await db
    .select()
    .from(invoiceLines)
    .where(inArray(invoiceLines.invoiceId, ids))
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.position));
  for (const row of rows) {
    const list = found.get(row.invoiceId) ?? [];
    list.push({
      description: row.description,
      quantity: Number(row.quantity),
      unitPriceCents: row.unitPriceCents,
      taxable: row.taxable,
    });
    found.set(row.invoiceId, list);
  }
  return found;
}

/**
 * The invoices sent (not drafts, not voided) with an issue date from `from` to `to`, both included,
 * in number order, with their lines and the deposit each takes off.
 */
export async function* accountingInvoices(db: DbOrTx, from: string, to: string): AsyncGenerator<AccountingInvoice[]> {
  const batches = inKeyOrder((last: InvoiceRow | undefined) =>
    db
      .select()
      .from(invoices)
      .where(
        and(
          eq(invoices.state, 'Sent'),
          gte(invoices.issueDate, from),
          lte(invoices.issueDate, to),
          last ? sql`${invoices.number} > ${last.number}` : undefined,
        ),
      )
      .orderBy(asc(invoices.number))
      .limit(BATCH),
  );
  for await (const batch of batches) {
    const creditedIds = batch.map((i) => i.creditedInvoiceId).filter((id): id is string => Boolean(id));
    const [lines, credited] = await Promise.all([
      linesOf(db, [...batch.map((i) => i.id), ...creditedIds]),
      creditedIds.length
        ? db
            .select({ id: invoices.id, number: invoices.number, taxCents: invoices.taxCents })
            .from(invoices)
            .where(inArray(invoices.id, creditedIds))
        : Promise.resolve([]),
    ]);
    yield batch.map((row) => {
      const deposit = row.creditCents > 0 ? credited.find((c) => c.id === row.creditedInvoiceId) : undefined;
      return {
        number: row.number ?? '',
        issueDate: row.issueDate ?? '',
        dueDate: row.dueDate ?? row.issueDate ?? '',
        clientName: row.clientName,
        companyName: row.companyName,
        clientEmail: row.clientEmail,
        billTo: row.billingAddress || row.address,
        poNumber: row.poNumber,
        taxRateBasisPoints: row.taxRateBasisPoints,
        lines: lines.get(row.id) ?? [],
        taxCents: row.taxCents,
        credit: deposit && {
          number: deposit.number ?? '',
          lines: lines.get(deposit.id) ?? [],
          taxCents: deposit.taxCents,
        },
      };
    });
  }
}

/** The payments and refunds with a date from `from` to `to`, in date order, with their invoice. */
export function accountingPayments(db: DbOrTx, from: string, to: string): AsyncGenerator<AccountingPayment[]> {
  const rows = (last: { id: string; key: string; paidOn: string } | undefined) =>
    db
      .select({
        id: payments.id,
        key: sql<string>`${payments.createdAt}::text`,
        paidOn: payments.paidOn,
        amountCents: payments.amountCents,
        method: payments.method,
        reference: payments.reference,
        invoiceNumber: invoices.number,
        clientName: invoices.clientName,
        companyName: invoices.companyName,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
      .where(
        and(
          gte(payments.paidOn, from),
          lte(payments.paidOn, to),
          last
            ? sql`(${payments.paidOn}, ${payments.createdAt}, ${payments.id}) > (${last.paidOn}, ${last.key}, ${last.id})`
            : undefined,
        ),
      )
      .orderBy(asc(payments.paidOn), asc(payments.createdAt), asc(payments.id))
      .limit(BATCH);
  return (async function* () {
    for await (const batch of inKeyOrder(rows))
      yield batch.map(({ id: _id, key: _key, invoiceNumber, ...p }) => ({ ...p, invoiceNumber: invoiceNumber ?? '' }));
  })();
}
