import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNTING_SYSTEMS,
  AMOUNT_COLUMNS,
  MAX_ACCOUNTING_DAYS,
  QUICKBOOKS_CUSTOMER_COLUMNS,
  QUICKBOOKS_INVOICE_COLUMNS,
  QUICKBOOKS_PAYMENT_COLUMNS,
  XERO_CONTACT_COLUMNS,
  XERO_INVOICE_COLUMNS,
  XERO_PAYMENT_COLUMNS,
  customerName,
  quickbooksCustomerRow,
  quickbooksInvoiceRows,
  quickbooksPaymentRow,
  xeroContactRow,
  xeroInvoiceRows,
  xeroPaymentRow,
  type AccountingCustomer,
} from '#shared/accounting';
import { errorResponse } from '#shared/schemas/errors';
import { isoDate } from '#shared/schemas/fields';
import { csvChunks, sendCsv } from '../lib/csv';
import { downloadCompression } from '../lib/downloads';
import { accountingInvoices, accountingPayments } from './accounting';

type Row = Record<string, string>;

const params = z.object({
  system: z.enum(ACCOUNTING_SYSTEMS as ['quickbooks', 'xero']),
  dataset: z.enum(['invoices.csv', 'payments.csv', 'customers.csv']),
});
const range = z
  .object({ from: isoDate, to: isoDate })
  .refine((q) => q.from <= q.to, { message: 'The end date must be on or after the start date', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) < MAX_ACCOUNTING_DAYS * 86_400_000, {
    message: `One file covers at most ${MAX_ACCOUNTING_DAYS} days`,
    path: ['to'],
  });

/** Batches of rows laid out by `layout`. */
async function* rowsOf<T>(batches: AsyncIterable<T[]>, layout: (item: T) => Row[]): AsyncGenerator<Row[]> {
  for await (const batch of batches) yield batch.flatMap(layout);
}

/** The customers of the invoices in the range, once each (by their name in the books and e-mail). */
async function* customersOf(batches: AsyncIterable<AccountingCustomer[]>): AsyncGenerator<AccountingCustomer[]> {
  const seen = new Set<string>();
  for await (const batch of batches)
    yield batch.filter((c) => {
      const key = `${customerName(c).toLowerCase()}\n${c.clientEmail.toLowerCase()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const LAYOUTS = {
  quickbooks: {
    invoices: { columns: QUICKBOOKS_INVOICE_COLUMNS, rows: quickbooksInvoiceRows },
    customers: { columns: QUICKBOOKS_CUSTOMER_COLUMNS, row: quickbooksCustomerRow },
    payments: { columns: QUICKBOOKS_PAYMENT_COLUMNS, row: quickbooksPaymentRow },
  },
  xero: {
    invoices: { columns: XERO_INVOICE_COLUMNS, rows: xeroInvoiceRows },
    customers: { columns: XERO_CONTACT_COLUMNS, row: xeroContactRow },
    payments: { columns: XERO_PAYMENT_COLUMNS, row: xeroPaymentRow },
  },
} as const;

/**
 * The accountant's files (issue 33, decision 043): invoices, customers and payments of a date range,
 * in QuickBooks Online's or Xero's import columns, written as they are read.
 */
export async function accountingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/accounting/:system/:dataset',
    {
      config: { access: 'office', audit: { kind: 'data', action: 'Exported for the accountant' } },
      compress: downloadCompression,
      schema: {
        tags: ['invoices'],
        summary:
          "Invoices, payments or customers of a date range in QuickBooks Online's or Xero's import columns (CSV)",
        params,
        querystring: range,
        produces: ['text/csv'],
        response: { 400: errorResponse },
      },
    },
    async (request, reply) => {
      const { system, dataset } = request.params;
      const { from, to } = request.query;
      const layout = LAYOUTS[system];
      const name = dataset.replace('.csv', '') as 'invoices' | 'payments' | 'customers';
      const rows =
        name === 'invoices'
          ? rowsOf(accountingInvoices(app.db, from, to), layout.invoices.rows)
          : name === 'customers'
            ? rowsOf(customersOf(accountingInvoices(app.db, from, to)), (c) => [layout.customers.row(c)])
            : rowsOf(accountingPayments(app.db, from, to), (p) => [layout.payments.row(p)]);
      const columns = layout[name].columns.map((header) => ({
        header,
        value: (row: Row) => (AMOUNT_COLUMNS.has(header) ? Number(row[header]) : row[header]),
      }));
      return sendCsv(reply, `${system}-${name}-${from}-to-${to}.csv`, csvChunks(rows, columns));
    },
  );
}
