import type { Control } from 'react-hook-form';
import type { z } from 'zod';
import { invoiceTotals, materialSubtotalCents, toCents, toDollars } from '#shared/money';
import type { invoiceDraftInput, InvoiceView } from '#shared/schemas/invoices';

/** The draft editor's form: the body PUT /api/invoices/:id takes, checked by the route's own schema. */
export type DraftFormInput = z.input<typeof invoiceDraftInput>;
export type DraftFormOutput = z.output<typeof invoiceDraftInput>;
export type DraftFormControl = Control<DraftFormInput, unknown, DraftFormOutput>;
export type DraftLineInput = DraftFormInput['lines'][number];

/** What the draft holds now, as the form starts from it. */
export const draftValuesOf = (invoice: InvoiceView): DraftFormInput => ({
  lines: invoice.lines.map(({ description, quantity, unitPrice, taxable }) => ({
    description,
    quantity,
    unitPrice,
    taxable,
  })),
  dueDays: invoice.dueDays,
  notes: invoice.notes,
  poNumber: invoice.poNumber,
});

/**
 * A line as it is being typed, in the money module's terms: a half-typed number ("", "-") counts as 0
 * until it is one, so the figures follow every key.
 */
const moneyLineOf = (line: Partial<DraftLineInput>) => ({
  unitPriceCents: toCents(Number(line.unitPrice) || 0),
  quantity: Number(line.quantity) || 0,
  taxable: line.taxable ?? true,
});

/** A line's amount in cents: quantity × unit price, rounded as the invoice will be. */
export const lineAmountCents = (line: Partial<DraftLineInput>) => materialSubtotalCents(moneyLineOf(line));

/** The draft's figures as it is edited: what Send will number and e-mail. */
export function liveFigures(invoice: InvoiceView, lines: Partial<DraftLineInput>[]) {
  const totals = invoiceTotals(lines.map(moneyLineOf), invoice.taxRateBasisPoints, toCents(invoice.credit));
  return {
    subtotal: toDollars(totals.subtotalCents),
    taxable: toDollars(totals.taxableCents),
    tax: toDollars(totals.taxCents),
    total: toDollars(totals.totalCents),
    taxRateBasisPoints: invoice.taxRateBasisPoints,
    credit: toDollars(totals.creditCents),
    creditedNumber: invoice.creditedNumber,
    paid: 0,
    balance: toDollars(totals.dueCents),
  };
}
