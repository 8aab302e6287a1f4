import { TAX_RATE_PERCENT } from './constants';

/**
 * Money rules, once for the whole product: amounts are integer cents; quantities and hours have
 * at most two decimals (kept as integer hundredths while computing). Rounding is half-up to the cent.
 */

export interface MaterialLine {
  name: string;
  unitPriceCents: number;
  /** e.g. 2.5 (gallons). */
  quantity: number;
}

export interface LaborLine {
  hourlyRateCents: number;
  hours: number;
}

export interface QuoteTotals {
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
}

/** Dollars (as typed or sent by the spec's client) to cents, without floating-point surprises. */
export function toCents(dollars: number): number {
  return Math.round(Number((dollars * 100).toFixed(4)));
}

export const toDollars = (cents: number): number => cents / 100;

/** A quantity or a number of hours as integer hundredths (2.5 → 250). */
export function toHundredths(value: number): number {
  return Math.round(Number((value * 100).toFixed(4)));
}

/** a · b / 100, rounded half-up (half away from zero), all in integers. */
function mulHundredths(cents: number, hundredths: number): number {
  const product = cents * hundredths;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 50) / 100);
}

export const materialSubtotalCents = (line: Pick<MaterialLine, 'unitPriceCents' | 'quantity'>) =>
  mulHundredths(line.unitPriceCents, toHundredths(line.quantity));
export const laborTotalCents = (line: LaborLine) => mulHundredths(line.hourlyRateCents, toHundredths(line.hours));

/** Tax at 8% of the subtotal, rounded to the cent. */
export function taxCents(subtotalCents: number): number {
  return mulHundredths(subtotalCents, TAX_RATE_PERCENT);
}

export function quoteTotals(
  materials: Pick<MaterialLine, 'unitPriceCents' | 'quantity'>[],
  labor: LaborLine[],
): QuoteTotals {
  const subtotalCents =
    materials.reduce((sum, m) => sum + materialSubtotalCents(m), 0) +
    labor.reduce((sum, l) => sum + laborTotalCents(l), 0);
  const tax = taxCents(subtotalCents);
  return { subtotalCents, taxCents: tax, totalCents: subtotalCents + tax };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50" */
export function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

export interface PricedQuote {
  materials: { name: string; unitPrice: number; quantity: number; subtotal: number }[];
  labor: { hourlyRate: number; hours: number; total: number }[];
  totalCostBeforeTax: number;
  taxCost: number;
  totalCostAfterTax: number;
}

/**
 * A quote's lines and totals in the spec's dollar figures, from lines in dollars: what the
 * builder's preview shows and what the server stores, e-mails and prints.
 */
export function priceQuote(
  materials: { name: string; unitPrice: number; quantity: number }[],
  labor: { hourlyRate: number; hours: number }[],
): PricedQuote {
  const m = materials.map((line) => ({
    name: line.name,
    unitPriceCents: toCents(line.unitPrice),
    quantity: line.quantity,
  }));
  const l = labor.map((line) => ({ hourlyRateCents: toCents(line.hourlyRate), hours: line.hours }));
  const totals = quoteTotals(m, l);
  return {
    materials: m.map((line) => ({
      name: line.name,
      unitPrice: toDollars(line.unitPriceCents),
      quantity: line.quantity,
      subtotal: toDollars(materialSubtotalCents(line)),
    })),
    labor: l.map((line) => ({
      hourlyRate: toDollars(line.hourlyRateCents),
      hours: line.hours,
      total: toDollars(laborTotalCents(line)),
    })),
    totalCostBeforeTax: toDollars(totals.subtotalCents),
    taxCost: toDollars(totals.taxCents),
    totalCostAfterTax: toDollars(totals.totalCents),
  };
}

/** One line of a priced document's totals, in the order every view shows them. */
export interface TotalsRow {
  label: string;
  /** Dollars, as the API carries them. */
  amount: number;
  /** The grand total, shown stronger. */
  emphasis: boolean;
}

/** "Tax (8%)": the tax line's label, written here only. */
export function taxLabel(ratePercent: number = TAX_RATE_PERCENT): string {
  return `Tax (${ratePercent}%)`;
}

/** The totals rows of a quote (and later an invoice), for the page, the e-mail and the PDF alike. */
export function totalsRows(
  totals: { totalCostBeforeTax: number; taxCost: number; totalCostAfterTax: number },
  ratePercent: number = TAX_RATE_PERCENT,
): TotalsRow[] {
  return [
    { label: 'Subtotal', amount: totals.totalCostBeforeTax, emphasis: false },
    { label: taxLabel(ratePercent), amount: totals.taxCost, emphasis: false },
    { label: 'Total', amount: totals.totalCostAfterTax, emphasis: true },
  ];
}
