/**
 * Money rules, once for the whole product: amounts are integer cents; quantities and hours have
 * at most two decimals (kept as integer hundredths while computing). Rounding is half-up to the cent.
 */
import { TAX_DEFAULTS } from './constants';

export interface MaterialLine {
  name: string;
  unitPriceCents: number;
  /** e.g. 2.5 (gallons). */
  quantity: number;
  /** Charged sales tax; unset: `TAX_DEFAULTS.material`. */
  taxable?: boolean;
}

export interface LaborLine {
  hourlyRateCents: number;
  hours: number;
  /** Charged sales tax; unset: `TAX_DEFAULTS.labor`. */
  taxable?: boolean;
}

export interface QuoteTotals {
  subtotalCents: number;
  /** The part of the subtotal that is charged sales tax: what the tax line says it taxes. */
  taxableCents: number;
  taxCents: number;
  totalCents: number;
}

export { TAX_DEFAULTS };

export const isTaxable = (line: { taxable?: boolean | undefined }, kind: keyof typeof TAX_DEFAULTS): boolean =>
  line.taxable ?? TAX_DEFAULTS[kind];

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

/**
 * Tax on the subtotal at a rate in basis points (800 = 8%, 875 = 8.75%), rounded half-up to the
 * cent: subtotal · rate / 10,000 in integers.
 */
export function taxCents(subtotalCents: number, rateBasisPoints: number): number {
  const product = subtotalCents * rateBasisPoints;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 5_000) / 10_000);
}

/**
 * A document's totals from its lines' amounts: the tax is charged once on the sum of the taxable
 * lines (not line by line), so it is the rate of the amount printed beside it, to the cent.
 */
function totalsOf(amounts: { cents: number; taxable: boolean }[], taxRateBasisPoints: number): QuoteTotals {
  const subtotalCents = amounts.reduce((sum, a) => sum + a.cents, 0);
  const taxableCents = amounts.reduce((sum, a) => sum + (a.taxable ? a.cents : 0), 0);
  const tax = taxCents(taxableCents, taxRateBasisPoints);
  return { subtotalCents, taxableCents, taxCents: tax, totalCents: subtotalCents + tax };
}

export function quoteTotals(
  materials: Pick<MaterialLine, 'unitPriceCents' | 'quantity' | 'taxable'>[],
  labor: LaborLine[],
  taxRateBasisPoints: number,
): QuoteTotals {
  return totalsOf(
    [
      ...materials.map((m) => ({ cents: materialSubtotalCents(m), taxable: isTaxable(m, 'material') })),
      ...labor.map((l) => ({ cents: laborTotalCents(l), taxable: isTaxable(l, 'labor') })),
    ],
    taxRateBasisPoints,
  );
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50" */
export function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

/** Dollars as shown to people: "$1,234.50" (rounded half-up to the cent first). */
export const formatDollars = (dollars: number): string => formatMoney(toCents(dollars));

/** A totals row's amount in dollars: "$1,234.50", or "−$268.59" for what is taken off. */
export const formatRowAmount = (dollars: number): string =>
  dollars < 0 ? `−${formatDollars(-dollars)}` : formatDollars(dollars);

/**
 * Whether a line is one the client may choose (optional) and whether it counts in the totals
 * (included): a required line always does; an optional one once the client ticks it.
 */
export interface LineChoice {
  optional?: boolean;
  included?: boolean;
  /** Charged sales tax (unset: the kind's default, `TAX_DEFAULTS`). */
  taxable?: boolean;
}

/** Whether a line counts in the totals. */
export const isIncluded = (line: LineChoice): boolean => !line.optional || line.included === true;

/** A material line as a person types it (dollars): the builder's dialog and the API's body. */
export interface MaterialLineDollars extends LineChoice {
  name: string;
  unitPrice: number;
  quantity: number;
}

/** A labor line as a person types it (dollars an hour), with what the work is. */
export interface LaborLineDollars extends LineChoice {
  /** "Rehang the gate": what the quote, the e-mail and the PDF print for the line (may be empty). */
  description: string;
  hourlyRate: number;
  hours: number;
  /**
   * A flat price for the work rather than an hourly rate: `hourlyRate` is then the price and `hours`
   * is 1, so its total is the price and every total is figured as for any labor line.
   */
  flat?: boolean;
}

interface PricedChoice {
  optional: boolean;
  included: boolean;
  taxable: boolean;
}

export interface PricedQuote {
  materials: (MaterialLineDollars & PricedChoice & { subtotal: number })[];
  labor: (LaborLineDollars & PricedChoice & { total: number; flat: boolean })[];
  totalCostBeforeTax: number;
  /** The part of the subtotal charged sales tax (dollars): "Tax 8% on $78.94". */
  taxableBeforeTax: number;
  taxCost: number;
  totalCostAfterTax: number;
  /** The rate the tax was charged at, in basis points: stored with the quote, printed from it. */
  taxRateBasisPoints: number;
}

/**
 * A quote's lines and totals in the spec's dollar figures, from lines in dollars: what the
 * builder's preview shows and what the server stores, e-mails and prints. The totals count the
 * included lines only (an optional line the client has not ticked is priced but not counted).
 */
export function priceQuote(
  materials: MaterialLineDollars[],
  labor: LaborLineDollars[],
  taxRateBasisPoints: number,
): PricedQuote {
  const m = materials.map((line) => ({
    name: line.name,
    unitPriceCents: toCents(line.unitPrice),
    quantity: line.quantity,
    taxable: isTaxable(line, 'material'),
  }));
  const l = labor.map((line) => ({
    hourlyRateCents: toCents(line.hourlyRate),
    hours: line.flat ? 1 : line.hours,
    taxable: isTaxable(line, 'labor'),
  }));
  const totals = quoteTotals(
    m.filter((_, i) => isIncluded(materials[i]!)),
    l.filter((_, i) => isIncluded(labor[i]!)),
    taxRateBasisPoints,
  );
  const choice = (line: LineChoice, taxable: boolean): PricedChoice => ({
    optional: line.optional === true,
    included: isIncluded(line),
    taxable,
  });
  return {
    materials: m.map((line, i) => ({
      name: line.name,
      unitPrice: toDollars(line.unitPriceCents),
      quantity: line.quantity,
      subtotal: toDollars(materialSubtotalCents(line)),
      ...choice(materials[i]!, line.taxable),
    })),
    labor: l.map((line, i) => ({
      description: labor[i]!.description,
      hourlyRate: toDollars(line.hourlyRateCents),
      hours: line.hours,
      flat: labor[i]!.flat === true,
      total: toDollars(laborTotalCents(line)),
      ...choice(labor[i]!, line.taxable),
    })),
    totalCostBeforeTax: toDollars(totals.subtotalCents),
    taxableBeforeTax: toDollars(totals.taxableCents),
    taxCost: toDollars(totals.taxCents),
    totalCostAfterTax: toDollars(totals.totalCents),
    taxRateBasisPoints,
  };
}

/**
 * The quote as the client would accept it with these optional lines ticked (by their position in
 * materials, then labor): the live totals on the client's page and the stored acceptance alike.
 */
export function withChoices<Q extends { materials: LineChoice[]; labor: LineChoice[] }>(
  quote: Q,
  chosen: { materials: number[]; labor: number[] },
): Q {
  const pick = <L extends LineChoice>(lines: L[], picked: number[]) =>
    lines.map((line, i) => (line.optional ? { ...line, included: picked.includes(i) } : { ...line, included: true }));
  return { ...quote, materials: pick(quote.materials, chosen.materials), labor: pick(quote.labor, chosen.labor) };
}

/** How a labor line's price reads: "Flat price", or "3.5 h × $65.00/h" (the page, the e-mail, the builder). */
export const laborDetail = (line: { flat?: boolean; hours: number; hourlyRate: number }): string =>
  line.flat ? 'Flat price' : `${line.hours} h × ${formatDollars(line.hourlyRate)}/h`;

/** One line of a priced document's totals, in the order every view shows them. */
export interface TotalsRow {
  label: string;
  /** Dollars, as the API carries them. */
  amount: number;
  /** The grand total, shown stronger. */
  emphasis: boolean;
}

/** 875 → "8.75", 800 → "8": a rate in basis points as a percentage, without trailing zeros. */
export function formatRatePercent(rateBasisPoints: number): string {
  return String(rateBasisPoints / 100);
}

/**
 * "Tax 8% on $78.94": the tax line's label, written here only, from the rate the document was priced
 * at and the part of it that is taxed (cents).
 */
export function taxLabel(rateBasisPoints: number, taxableCents: number): string {
  return `Tax ${formatRatePercent(rateBasisPoints)}% on ${formatMoney(taxableCents)}`;
}

/** The totals rows of a quote or an invoice, for the page, the e-mail and the PDF alike. */
export function totalsRows(totals: {
  totalCostBeforeTax: number;
  taxableBeforeTax: number;
  taxCost: number;
  totalCostAfterTax: number;
  taxRateBasisPoints: number;
}): TotalsRow[] {
  return [
    { label: 'Subtotal', amount: totals.totalCostBeforeTax, emphasis: false },
    {
      label: taxLabel(totals.taxRateBasisPoints, toCents(totals.taxableBeforeTax)),
      amount: totals.taxCost,
      emphasis: false,
    },
    { label: 'Total', amount: totals.totalCostAfterTax, emphasis: true },
  ];
}

/** A priced line of an invoice: a quantity (two decimals) at a unit price, taxed or not. */
export interface InvoiceLine {
  unitPriceCents: number;
  quantity: number;
  taxable: boolean;
}

export interface InvoiceTotals extends QuoteTotals {
  /** The job's deposit invoice, taken off (paid or not: the client owes it on its own invoice). */
  creditCents: number;
  /** What the client owes on this invoice before any payment: total less the credit. */
  dueCents: number;
}

/**
 * An invoice's figures from its lines, the tax rate it is charged at and a deposit to credit (never
 * more than the total): the same rounding as a quote's.
 */
export function invoiceTotals(lines: InvoiceLine[], taxRateBasisPoints: number, creditCents = 0): InvoiceTotals {
  const totals = totalsOf(
    lines.map((line) => ({ cents: materialSubtotalCents(line), taxable: line.taxable })),
    taxRateBasisPoints,
  );
  const credit = Math.min(Math.max(0, creditCents), Math.max(0, totals.totalCents));
  return { ...totals, creditCents: credit, dueCents: totals.totalCents - credit };
}

/** The rows of an invoice's figures, in the order the page, the e-mail and the PDF print them. */
export function invoiceRows(invoice: {
  subtotal: number;
  taxable: number;
  tax: number;
  total: number;
  taxRateBasisPoints: number;
  credit: number;
  /** The credited deposit invoice's number ("Less deposit INV-2026-0001"). */
  creditedNumber: string | null;
  paid: number;
  balance: number;
}): TotalsRow[] {
  const rows = totalsRows({
    totalCostBeforeTax: invoice.subtotal,
    taxableBeforeTax: invoice.taxable,
    taxCost: invoice.tax,
    totalCostAfterTax: invoice.total,
    taxRateBasisPoints: invoice.taxRateBasisPoints,
  });
  if (invoice.credit > 0)
    rows.push({
      label: invoice.creditedNumber ? `Less deposit ${invoice.creditedNumber}` : 'Less deposit paid',
      amount: -invoice.credit,
      emphasis: false,
    });
  if (invoice.paid > 0) rows.push({ label: 'Paid', amount: -invoice.paid, emphasis: false });
  rows.push({ label: 'Balance due', amount: invoice.balance, emphasis: true });
  return rows;
}

/** What is left to pay: what was due less the payments (payments never exceed it). */
export const balanceCents = (dueCents: number, paidCents: number): number => dueCents - paidCents;

export interface DepositParts {
  /** Its share of the quote's taxed lines, and of the lines that are not taxed. */
  taxableCents: number;
  exemptCents: number;
  netCents: number;
  taxCents: number;
  dueCents: number;
}

/**
 * A deposit as it is invoiced: its share of the work, split as the quote's lines are into taxed and
 * untaxed parts, and the sales tax on the taxed part at the quote's rate, so money received on it splits
 * into revenue and tax like any payment. A percent is that percent of each part (so of the total, to the
 * cent); an amount is what the client pays, tax included, shared between the parts in the quote's
 * proportions (to the cent where rounding allows). Never more than the quote.
 */
export function depositParts(
  quote: { subtotalCents: number; taxableCents: number },
  taxRateBasisPoints: number,
  deposit: { kind: 'percent' | 'amount'; value: number },
): DepositParts {
  const taxable = Math.max(0, quote.taxableCents);
  const exempt = Math.max(0, quote.subtotalCents - taxable);
  const taxOf = (cents: number) => taxCents(cents, taxRateBasisPoints);
  const quoteTotal = taxable + exempt + taxOf(taxable);
  let t: number;
  let n: number;
  if (deposit.kind === 'percent') {
    const share = (cents: number) => Math.floor((cents * deposit.value + 50) / 100);
    [t, n] = [share(taxable), share(exempt)];
  } else {
    const target = Math.min(toCents(deposit.value), quoteTotal);
    if (target === quoteTotal) [t, n] = [taxable, exempt];
    else if (exempt === 0) {
      const guess = Math.round((target * 10_000) / (10_000 + taxRateBasisPoints));
      [t, n] = [[guess, guess - 1, guess + 1].find((c) => c + taxOf(c) === target) ?? guess, 0];
    } else {
      t = quoteTotal === 0 ? 0 : Math.round((taxable * target) / quoteTotal);
      n = target - t - taxOf(t);
    }
  }
  t = Math.max(0, Math.min(t, taxable));
  n = Math.max(0, Math.min(n, exempt));
  const tax = taxOf(t);
  return { taxableCents: t, exemptCents: n, netCents: t + n, taxCents: tax, dueCents: t + n + tax };
}

/** A priced quote's figures in cents, as `depositParts` takes them. */
export const quoteBase = (priced: { totalCostBeforeTax: number; taxableBeforeTax: number }) => ({
  subtotalCents: toCents(priced.totalCostBeforeTax),
  taxableCents: toCents(priced.taxableBeforeTax),
});
