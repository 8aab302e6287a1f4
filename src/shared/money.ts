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

export function quoteTotals(materials: Pick<MaterialLine, 'unitPriceCents' | 'quantity'>[], labor: LaborLine[]): QuoteTotals {
  const subtotalCents = materials.reduce((sum, m) => sum + materialSubtotalCents(m), 0) + labor.reduce((sum, l) => sum + laborTotalCents(l), 0);
  const tax = taxCents(subtotalCents);
  return { subtotalCents, taxCents: tax, totalCents: subtotalCents + tax };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50" */
export function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}
