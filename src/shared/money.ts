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

/**
 * Tax on the subtotal at a rate in basis points (800 = 8%, 875 = 8.75%), rounded half-up to the
 * cent: subtotal · rate / 10,000 in integers.
 */
export function taxCents(subtotalCents: number, rateBasisPoints: number): number {
  const product = subtotalCents * rateBasisPoints;
  const sign = product < 0 ? -1 : 1;
  return sign * Math.floor((Math.abs(product) + 5_000) / 10_000);
}

export function quoteTotals(
  materials: Pick<MaterialLine, 'unitPriceCents' | 'quantity'>[],
  labor: LaborLine[],
  taxRateBasisPoints: number,
): QuoteTotals {
  const subtotalCents =
    materials.reduce((sum, m) => sum + materialSubtotalCents(m), 0) +
    labor.reduce((sum, l) => sum + laborTotalCents(l), 0);
  const tax = taxCents(subtotalCents, taxRateBasisPoints);
  return { subtotalCents, taxCents: tax, totalCents: subtotalCents + tax };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50" */
export function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

/**
 * Whether a line is one the client may choose (optional) and whether it counts in the totals
 * (included): a required line always does; an optional one once the client ticks it.
 */
export interface LineChoice {
  optional?: boolean;
  included?: boolean;
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
}

interface PricedChoice {
  optional: boolean;
  included: boolean;
}

export interface PricedQuote {
  materials: (MaterialLineDollars & PricedChoice & { subtotal: number })[];
  labor: (LaborLineDollars & PricedChoice & { total: number })[];
  totalCostBeforeTax: number;
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
  }));
  const l = labor.map((line) => ({ hourlyRateCents: toCents(line.hourlyRate), hours: line.hours }));
  const totals = quoteTotals(
    m.filter((_, i) => isIncluded(materials[i]!)),
    l.filter((_, i) => isIncluded(labor[i]!)),
    taxRateBasisPoints,
  );
  const choice = (line: LineChoice): PricedChoice => ({ optional: line.optional === true, included: isIncluded(line) });
  return {
    materials: m.map((line, i) => ({
      name: line.name,
      unitPrice: toDollars(line.unitPriceCents),
      quantity: line.quantity,
      subtotal: toDollars(materialSubtotalCents(line)),
      ...choice(materials[i]!),
    })),
    labor: l.map((line, i) => ({
      description: labor[i]!.description,
      hourlyRate: toDollars(line.hourlyRateCents),
      hours: line.hours,
      total: toDollars(laborTotalCents(line)),
      ...choice(labor[i]!),
    })),
    totalCostBeforeTax: toDollars(totals.subtotalCents),
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

/** "Tax (8%)": the tax line's label, written here only, from the rate the document was priced at. */
export function taxLabel(rateBasisPoints: number): string {
  return `Tax (${formatRatePercent(rateBasisPoints)}%)`;
}

/** The totals rows of a quote (and later an invoice), for the page, the e-mail and the PDF alike. */
export function totalsRows(totals: {
  totalCostBeforeTax: number;
  taxCost: number;
  totalCostAfterTax: number;
  taxRateBasisPoints: number;
}): TotalsRow[] {
  return [
    { label: 'Subtotal', amount: totals.totalCostBeforeTax, emphasis: false },
    { label: taxLabel(totals.taxRateBasisPoints), amount: totals.taxCost, emphasis: false },
    { label: 'Total', amount: totals.totalCostAfterTax, emphasis: true },
  ];
}

/** A priced line of an invoice: a quantity (two decimals) at a unit price. */
export interface InvoiceLine {
  unitPriceCents: number;
  quantity: number;
}

export interface InvoiceTotals extends QuoteTotals {
  /** A deposit already paid, taken off. */
  creditCents: number;
  /** What the client owes before any payment: total less the credit. */
  dueCents: number;
}

/**
 * An invoice's figures from its lines, the tax rate it is charged at and a deposit to credit (never
 * more than the total): the same rounding as a quote's.
 */
export function invoiceTotals(lines: InvoiceLine[], taxRateBasisPoints: number, creditCents = 0): InvoiceTotals {
  const subtotalCents = lines.reduce((sum, line) => sum + materialSubtotalCents(line), 0);
  const tax = taxCents(subtotalCents, taxRateBasisPoints);
  const totalCents = subtotalCents + tax;
  const credit = Math.min(Math.max(0, creditCents), Math.max(0, totalCents));
  return { subtotalCents, taxCents: tax, totalCents, creditCents: credit, dueCents: totalCents - credit };
}

/** What is left to pay: what was due less the payments (payments never exceed it). */
export const balanceCents = (dueCents: number, paidCents: number): number => dueCents - paidCents;

/**
 * A deposit as it is invoiced: its part of the work (net) and the sales tax on it, at the quote's rate,
 * so the money received splits into revenue and tax like any payment. A percent is of the subtotal (its
 * tax makes it that percent of the total); an amount is what the client pays, tax included (the net is
 * the one whose total comes to it, to the cent where rounding allows). Never more than the quote.
 */
export function depositParts(
  subtotalCents: number,
  taxRateBasisPoints: number,
  deposit: { kind: 'percent' | 'amount'; value: number },
): { netCents: number; taxCents: number; dueCents: number } {
  const totalOf = (net: number) => net + taxCents(net, taxRateBasisPoints);
  let net: number;
  if (deposit.kind === 'percent') net = Math.floor((subtotalCents * deposit.value + 50) / 100);
  else {
    const target = toCents(deposit.value);
    const guess = Math.round((target * 10_000) / (10_000 + taxRateBasisPoints));
    net = [guess, guess - 1, guess + 1].find((n) => totalOf(n) === target) ?? guess;
  }
  net = Math.max(0, Math.min(net, subtotalCents));
  const tax = taxCents(net, taxRateBasisPoints);
  return { netCents: net, taxCents: tax, dueCents: net + tax };
}
