import { materialSubtotalCents, toHundredths } from './money';

/**
 * The accountant's files (issue 33, decision 043): invoices, payments and customers in the import
 * formats QuickBooks Online and Xero document. Pure: the server reads the rows, these lay them out.
 * Every figure is integer cents until the cell, and each invoice's lines add up to what the client
 * owes on it, tax included, to the cent.
 */
export type AccountingSystem = 'quickbooks' | 'xero';
export const ACCOUNTING_SYSTEMS: readonly AccountingSystem[] = ['quickbooks', 'xero'];
export const ACCOUNTING_DATASETS = ['invoices', 'payments', 'customers'] as const;
export type AccountingDataset = (typeof ACCOUNTING_DATASETS)[number];

/**
 * `total` shared between parts in proportion to `weights`, in whole cents that add up to `total`
 * exactly (largest remainder; ties to the earlier part). A negative total shares its size and keeps
 * its sign; parts of weight 0 get 0 (all of it goes to the first part when every weight is 0).
 */
export function allocateCents(total: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const sign = total < 0 ? -1 : 1;
  const size = Math.abs(total);
  const sizes = weights.map((w) => Math.abs(w));
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const shares = sizes.map((w) => Math.floor((size * w) / sum));
  let left = size - shares.reduce((a, b) => a + b, 0);
  const byRemainder = sizes
    .map((w, i) => ({ i, remainder: (size * w) % sum }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares.map((s) => s * sign + 0);
}

export interface AccountingLineSource {
  description: string;
  quantity: number;
  unitPriceCents: number;
  taxable: boolean;
}

/** An invoice as the accountant's files need it. */
export interface AccountingInvoice {
  number: string;
  issueDate: string;
  dueDate: string;
  clientName: string;
  companyName: string;
  clientEmail: string;
  /** Where the bill goes: the billing address, or the property's. */
  billTo: string;
  poNumber: string;
  taxRateBasisPoints: number;
  lines: AccountingLineSource[];
  taxCents: number;
  /** The deposit invoice a final invoice takes off, whole: its lines and its tax. */
  credit?: { number: string; lines: AccountingLineSource[]; taxCents: number } | undefined;
}

/** One line of an invoice in the books: its net amount and the sales tax on it, in cents. */
export interface BookLine {
  description: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  taxable: boolean;
  taxCents: number;
}

/** Lines with the invoice's tax shared among the taxed ones (to the cent, in proportion to their amounts). */
function linesWithTax(lines: AccountingLineSource[], taxCents: number, sign: 1 | -1, label?: string): BookLine[] {
  const amounts = lines.map((l) => sign * materialSubtotalCents(l) + 0);
  const taxedAmounts = lines.map((l, i) => (l.taxable ? amounts[i]! : 0));
  const taxes = allocateCents(sign * taxCents, taxedAmounts);
  return lines.map((line, i) => {
    const description = label ? `${label}: ${line.description}` : line.description;
    // The books multiply quantity by rate themselves: a product that is not whole cents (0.5 h at
    // $85.05) goes as one unit of the line's amount, so their figure is ours.
    const exact = sign === 1 && (toHundredths(line.quantity) * line.unitPriceCents) % 100 === 0;
    return {
      description:
        exact || sign === -1 ? description : `${description} (${line.quantity} × ${amountCell(line.unitPriceCents)})`,
      quantity: exact ? line.quantity : 1,
      unitPriceCents: exact ? line.unitPriceCents : amounts[i]!,
      amountCents: amounts[i]!,
      taxable: line.taxable,
      taxCents: taxes[i]!,
    };
  });
}

/**
 * An invoice's lines as the books take them: its own, then the deposit it takes off as lines of the
 * opposite sign (revenue and tax already booked on the deposit's invoice), so the lines add up to
 * what the client owes on this invoice: total less the deposit.
 */
export function bookLines(invoice: AccountingInvoice): BookLine[] {
  const own = linesWithTax(invoice.lines, invoice.taxCents, 1);
  const credit = invoice.credit
    ? linesWithTax(invoice.credit.lines, invoice.credit.taxCents, -1, `Less deposit ${invoice.credit.number}`)
    : [];
  return [...own, ...credit].filter((l) => l.amountCents !== 0 || l.taxCents !== 0);
}

/** Cents as the files write money: 1234.5 dollars → "1234.50", negative with a minus. */
export function amountCell(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const size = Math.abs(cents);
  return `${sign}${Math.floor(size / 100)}.${String(size % 100).padStart(2, '0')}`;
}

/** An ISO date as a US company's books read it: 2026-11-28 → 11/28/2026. */
export function usDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
}

/** The name a customer has in the books: the company when there is one, else the person. */
export const customerName = (i: { clientName: string; companyName: string }) => i.companyName || i.clientName;

type Row = Record<string, string>;

/** QuickBooks Online's invoice import (its default column names, mapped without asking): a row per line. */
export const QUICKBOOKS_INVOICE_COLUMNS = [
  'Invoice number',
  'Customer',
  'Invoice date',
  'Due date',
  'Terms',
  'Memo',
  'Item (Product/Service)',
  'Item Description',
  'Item Quantity',
  'Item Rate',
  'Item Amount',
  'Item tax code',
] as const;

export function quickbooksInvoiceRows(invoice: AccountingInvoice): Row[] {
  const lines = bookLines(invoice);
  const tax = lines.reduce((sum, l) => sum + l.taxCents, 0);
  const memo = [invoice.poNumber && `PO ${invoice.poNumber}`, `Sales tax ${amountCell(tax)}`]
    .filter(Boolean)
    .join('; ');
  return lines.map((line) => ({
    'Invoice number': invoice.number,
    Customer: customerName(invoice),
    'Invoice date': usDate(invoice.issueDate),
    'Due date': usDate(invoice.dueDate),
    Terms: '',
    Memo: memo,
    'Item (Product/Service)': line.amountCents < 0 ? 'Deposit' : 'Services',
    'Item Description': line.description,
    'Item Quantity': String(line.quantity),
    'Item Rate': amountCell(line.unitPriceCents),
    'Item Amount': amountCell(line.amountCents),
    'Item tax code': line.taxable ? 'TAX' : 'NON',
  }));
}

/** Xero's sales invoice import (its template's columns): a row per line, tax per line, tax exclusive. */
export const XERO_INVOICE_COLUMNS = [
  'ContactName',
  'EmailAddress',
  'POAddressLine1',
  'InvoiceNumber',
  'Reference',
  'InvoiceDate',
  'DueDate',
  'Description',
  'Quantity',
  'UnitAmount',
  'AccountCode',
  'TaxType',
  'TaxAmount',
  'Currency',
] as const;

/** Xero's account for sales in its default chart of accounts. */
export const XERO_SALES_ACCOUNT = '200';

export function xeroInvoiceRows(invoice: AccountingInvoice): Row[] {
  return bookLines(invoice).map((line) => ({
    ContactName: customerName(invoice),
    EmailAddress: invoice.clientEmail,
    POAddressLine1: invoice.billTo,
    InvoiceNumber: invoice.number,
    Reference: invoice.poNumber,
    InvoiceDate: usDate(invoice.issueDate),
    DueDate: usDate(invoice.dueDate),
    Description: line.description,
    Quantity: String(line.quantity),
    UnitAmount: amountCell(line.unitPriceCents),
    AccountCode: XERO_SALES_ACCOUNT,
    TaxType: line.taxable ? 'Tax on Sales' : 'Tax Exempt',
    TaxAmount: amountCell(line.taxCents),
    Currency: 'USD',
  }));
}

/** A customer of the exported invoices. */
export interface AccountingCustomer {
  clientName: string;
  companyName: string;
  clientEmail: string;
  billTo: string;
}

/** QuickBooks Online's customer import (its contact fields). */
export const QUICKBOOKS_CUSTOMER_COLUMNS = ['Name', 'Company', 'Email', 'Street'] as const;
export const quickbooksCustomerRow = (c: AccountingCustomer): Row => ({
  Name: customerName(c),
  Company: c.companyName,
  Email: c.clientEmail,
  Street: c.billTo,
});

/** Xero's contacts import (its template's columns). */
export const XERO_CONTACT_COLUMNS = ['ContactName', 'EmailAddress', 'FirstName', 'LastName', 'POAddressLine1'] as const;
export function xeroContactRow(c: AccountingCustomer): Row {
  const [first = '', ...rest] = c.companyName ? ['', ''] : c.clientName.split(/\s+/);
  return {
    ContactName: customerName(c),
    EmailAddress: c.clientEmail,
    FirstName: c.companyName ? '' : first,
    LastName: c.companyName ? '' : rest.join(' '),
    POAddressLine1: c.billTo,
  };
}

/** A payment, or a refund (negative), as money in or out of the bank. */
export interface AccountingPayment {
  paidOn: string;
  amountCents: number;
  invoiceNumber: string;
  clientName: string;
  companyName: string;
  method: string;
  reference: string;
}

const paymentWords = (p: AccountingPayment) =>
  `${p.amountCents < 0 ? 'Refund on' : 'Payment for'} ${p.invoiceNumber} (${p.method}${p.reference ? ` ${p.reference}` : ''})`;

/** QuickBooks Online's bank upload (the three-column CSV): money in positive, a refund negative. */
export const QUICKBOOKS_PAYMENT_COLUMNS = ['Date', 'Description', 'Amount'] as const;
export const quickbooksPaymentRow = (p: AccountingPayment): Row => ({
  Date: usDate(p.paidOn),
  Description: `${customerName(p)}: ${paymentWords(p)}`,
  Amount: amountCell(p.amountCents),
});

/** Xero's bank statement import: the payer, and the invoice number as the reference to match on. */
export const XERO_PAYMENT_COLUMNS = ['Date', 'Amount', 'Payee', 'Description', 'Reference'] as const;
export const xeroPaymentRow = (p: AccountingPayment): Row => ({
  Date: usDate(p.paidOn),
  Amount: amountCell(p.amountCents),
  Payee: customerName(p),
  Description: paymentWords(p),
  Reference: p.invoiceNumber,
});

/** The columns that carry money: written as numbers (a leading minus is a refund, not a formula). */
export const AMOUNT_COLUMNS: ReadonlySet<string> = new Set([
  'Item Rate',
  'Item Amount',
  'UnitAmount',
  'TaxAmount',
  'Amount',
]);

/** The longest range one file covers: a year and a day (a leap year's whole). */
export const MAX_ACCOUNTING_DAYS = 366;
