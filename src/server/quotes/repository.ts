import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import { depositParts, isIncluded, priceQuote, quoteBase, quoteTotals, toCents, toDollars } from '#shared/money';
import type {
  ClientQuoteView,
  DepositInput,
  LaborLineInput,
  MaterialLineInput,
  QuoteDraft,
  QuoteView,
} from '#shared/schemas/quotes';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { quoteLabor, quoteMaterials, quotes } from './tables';

export type QuoteRow = typeof quotes.$inferSelect;

/** A quote's number as the client sees it: "QT" and eight digits. */
export function newQuoteNumber(): string {
  return `QT${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** A first quote's number (QT74936259), or a later version's (QT74936259-2). */
export const isQuoteNumber = (value: string | undefined): value is string =>
  typeof value === 'string' && /^QT\d{8}(-\d{1,3})?$/.test(value);
export const isFirstQuoteNumber = (value: string | undefined): value is string =>
  typeof value === 'string' && /^QT\d{8}$/.test(value);

/** The number a version carries: the first keeps the plain number, later ones add "-2", "-3"… */
export function versionNumber(firstNumber: string, version: number): string {
  return version === 1 ? firstNumber : `${firstNumber}-${version}`;
}
const firstNumberOf = (quoteNumber: string) => quoteNumber.replace(/-\d+$/, '');

/** Whether new lines are taxed when the sender did not say (the Settings' defaults). */
export interface TaxDefaults {
  material: boolean;
  labor: boolean;
}

/** The lines with whether each is taxed said, from the sender or the defaults; optional lines start unticked. */
function withTaxDefaults(input: Pick<QuoteLinesInput, 'materials' | 'labor'>, defaults: TaxDefaults) {
  return {
    materials: input.materials.map((m) => ({ ...m, included: !m.optional, taxable: m.taxable ?? defaults.material })),
    labor: input.labor.map((l) => ({ ...l, included: !l.optional, taxable: l.taxable ?? defaults.labor })),
  };
}

const centsLines = (input: Pick<QuoteLinesInput, 'materials' | 'labor'>, defaults: TaxDefaults) => {
  const { materials, labor } = withTaxDefaults(input, defaults);
  return {
    materials: materials.map((m) => ({ ...m, unitPriceCents: toCents(m.unitPrice) })),
    labor: labor.map((l) => ({ ...l, hourlyRateCents: toCents(l.hourlyRate) })),
  };
};

export interface QuoteLinesInput {
  quoteRequestId: string;
  clientName: string;
  projectName: string;
  materials: MaterialLineInput[];
  /** `flat` left out: an hourly line. */
  labor: (Omit<LaborLineInput, 'flat'> & { flat?: boolean })[];
  deposit?: DepositInput | null | undefined;
  notes?: string | undefined;
  internalNotes?: string | undefined;
  poNumber?: string | undefined;
}

/** Where a new quote or version stands before it is stored: its number, version, dates and rate. */
export interface QuoteIdentity {
  quoteNumber: string;
  version: number;
  validUntil: string;
  taxRateBasisPoints: number;
  taxDefaults: TaxDefaults;
  /** Who it is for, kept on the quote as sent (the client's company and billing address, the property). */
  billTo: QuoteBillTo;
}

/** A quote's "Client" block beyond the name: '' where there is none (a household bills the property). */
export interface QuoteBillTo {
  companyName: string;
  billingAddress: string;
  serviceAddress: string;
}

export function draftOf(input: QuoteLinesInput, identity: QuoteIdentity): QuoteDraft {
  return {
    quoteId: identity.quoteNumber,
    version: identity.version,
    validUntil: identity.validUntil,
    quoteRequestId: input.quoteRequestId,
    clientName: input.clientName,
    projectName: input.projectName,
    notes: input.notes ?? '',
    poNumber: input.poNumber ?? '',
    ...identity.billTo,
    quoteDate: new Date().toISOString(),
    ...(() => {
      const lines = withTaxDefaults(input, identity.taxDefaults);
      return priceQuote(lines.materials, lines.labor, identity.taxRateBasisPoints);
    })(),
  };
}

/**
 * A draft as the client's page will show it once sent (the same fields the client's link answers):
 * what the builder's Preview renders. The office's internal notes are not in it.
 */
export function previewOf(
  input: QuoteLinesInput,
  identity: QuoteIdentity,
  business: ClientQuoteView['business'],
): ClientQuoteView {
  const { quoteRequestId: _request, ...draft } = draftOf(input, identity);
  const deposit = input.deposit
    ? {
        ...input.deposit,
        due: toDollars(depositParts(quoteBase(draft), identity.taxRateBasisPoints, input.deposit).dueCents),
      }
    : null;
  return {
    ...draft,
    status: 'Pending',
    clientMessage: null,
    current: true,
    expired: false,
    answeredAt: null,
    acceptedName: null,
    deposit,
    business,
    replacedBy: null,
    updateRequested: false,
    depositOnline: false,
  };
}

/** Stores a quote and its lines; totals are computed here, never taken from the browser. */
export async function insertQuote(tx: DbOrTx, input: QuoteLinesInput, identity: QuoteIdentity): Promise<QuoteRow> {
  const lines = centsLines(input, identity.taxDefaults);
  const totals = quoteTotals(
    lines.materials.filter(isIncluded),
    lines.labor.filter(isIncluded),
    identity.taxRateBasisPoints,
  );
  const id = newId();
  const [row] = await tx
    .insert(quotes)
    .values({
      id,
      quoteNumber: identity.quoteNumber,
      version: identity.version,
      validUntil: identity.validUntil,
      quoteRequestId: input.quoteRequestId,
      clientName: input.clientName,
      projectName: input.projectName,
      notes: input.notes ?? '',
      internalNotes: input.internalNotes ?? '',
      poNumber: input.poNumber ?? '',
      ...identity.billTo,
      subtotalCents: totals.subtotalCents,
      taxCents: totals.taxCents,
      totalCents: totals.totalCents,
      taxRateBasisPoints: identity.taxRateBasisPoints,
      depositKind: input.deposit?.kind ?? null,
      depositValue: input.deposit
        ? input.deposit.kind === 'percent'
          ? input.deposit.value
          : toCents(input.deposit.value)
        : null,
    })
    .returning();
  if (lines.materials.length) {
    await tx.insert(quoteMaterials).values(
      lines.materials.map((m, position) => ({
        id: newId(),
        quoteId: id,
        position,
        name: m.name,
        unitPriceCents: m.unitPriceCents,
        quantity: m.quantity.toFixed(2),
        optional: m.optional,
        included: m.included,
        taxable: m.taxable,
      })),
    );
  }
  if (lines.labor.length) {
    await tx.insert(quoteLabor).values(
      lines.labor.map((l, position) => ({
        id: newId(),
        quoteId: id,
        position,
        description: l.description,
        hourlyRateCents: l.hourlyRateCents,
        hours: (l.flat ? 1 : l.hours).toFixed(2),
        flat: l.flat === true,
        optional: l.optional,
        included: l.included,
        taxable: l.taxable,
      })),
    );
  }
  return row!;
}

/** Past its valid-until date and still open: the client can no longer accept it. */
export const isExpired = (row: Pick<QuoteRow, 'validUntil' | 'status'>, today: string) =>
  row.validUntil < today && row.status !== 'Accepted' && row.status !== 'Declined';

/** A stored quote with its lines and totals; `today` (in the business's zone) decides whether it has expired. */
/** The quote's deposit as the API shows it, with what it comes to on the priced lines. */
function depositOf(
  row: QuoteRow,
  priced: { totalCostBeforeTax: number; taxableBeforeTax: number },
): QuoteView['deposit'] {
  if (!row.depositKind || row.depositValue === null) return null;
  const deposit = {
    kind: row.depositKind,
    value: row.depositKind === 'percent' ? row.depositValue : toDollars(row.depositValue),
  };
  return { ...deposit, due: toDollars(depositParts(quoteBase(priced), row.taxRateBasisPoints, deposit).dueCents) };
}

export async function quoteView(db: DbOrTx, row: QuoteRow, today: string): Promise<QuoteView> {
  const [materials, labor] = await Promise.all([
    db.select().from(quoteMaterials).where(eq(quoteMaterials.quoteId, row.id)).orderBy(asc(quoteMaterials.position)),
    db.select().from(quoteLabor).where(eq(quoteLabor.quoteId, row.id)).orderBy(asc(quoteLabor.position)),
  ]);
  const priced = priceQuote(
    materials.map((m) => ({
      name: m.name,
      unitPrice: toDollars(m.unitPriceCents),
      quantity: Number(m.quantity),
      optional: m.optional,
      included: m.included,
      taxable: m.taxable,
    })),
    labor.map((l) => ({
      description: l.description,
      hourlyRate: toDollars(l.hourlyRateCents),
      hours: Number(l.hours),
      flat: l.flat,
      optional: l.optional,
      included: l.included,
      taxable: l.taxable,
    })),
    row.taxRateBasisPoints,
  );
  return {
    version: row.version,
    current: row.replacedAt === null,
    validUntil: row.validUntil,
    expired: isExpired(row, today),
    openedAt: row.openedAt?.toISOString() ?? null,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    acceptedName: row.acceptedName,
    acceptedIp: row.acceptedIp,
    _id: row.id,
    quoteId: row.quoteNumber,
    quoteRequestId: row.quoteRequestId,
    clientName: row.clientName,
    projectName: row.projectName,
    status: row.status,
    quoteDate: row.quoteDate.toISOString(),
    clientMessage: row.clientMessage,
    notes: row.notes,
    internalNotes: row.internalNotes,
    poNumber: row.poNumber,
    companyName: row.companyName,
    billingAddress: row.billingAddress,
    serviceAddress: row.serviceAddress,
    deposit: depositOf(row, priced),
    ...priced,
  };
}

export const findQuoteByNumber = (db: DbOrTx, quoteNumber: string) =>
  db.query.quotes.findFirst({ where: eq(quotes.quoteNumber, quoteNumber) });
/** The request a quote answers, by the quote's number. */
export async function requestIdOfQuote(db: DbOrTx, quoteId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ quoteRequestId: quotes.quoteRequestId })
    .from(quotes)
    .where(eq(quotes.quoteNumber, quoteId))
    .limit(1);
  return row?.quoteRequestId;
}

/** A request's current quote (the newest version). */
export const findQuoteByRequest = (db: DbOrTx, quoteRequestId: string) =>
  db.query.quotes.findFirst({ where: and(eq(quotes.quoteRequestId, quoteRequestId), isNull(quotes.replacedAt)) });

/** Every version sent for a request, newest first. */
export const quoteVersions = (db: DbOrTx, quoteRequestId: string) =>
  db.select().from(quotes).where(eq(quotes.quoteRequestId, quoteRequestId)).orderBy(desc(quotes.version));

/** The number the next version of this quote will carry. */
export const nextVersionOf = (current: Pick<QuoteRow, 'quoteNumber' | 'version'>) => ({
  version: current.version + 1,
  quoteNumber: versionNumber(firstNumberOf(current.quoteNumber), current.version + 1),
});

/** Records the optional lines the client chose (by position), as the accepted selection. */
export async function storeSelection(
  tx: DbOrTx,
  quoteRowId: string,
  selection: { materials: number[]; labor: number[] },
): Promise<void> {
  const rows = await Promise.all([
    tx.select().from(quoteMaterials).where(eq(quoteMaterials.quoteId, quoteRowId)),
    tx.select().from(quoteLabor).where(eq(quoteLabor.quoteId, quoteRowId)),
  ]);
  const [materialRows, laborRows] = rows;
  for (const m of materialRows.filter((r) => r.optional))
    await tx
      .update(quoteMaterials)
      .set({ included: selection.materials.includes(m.position) })
      .where(eq(quoteMaterials.id, m.id));
  for (const l of laborRows.filter((r) => r.optional))
    await tx
      .update(quoteLabor)
      .set({ included: selection.labor.includes(l.position) })
      .where(eq(quoteLabor.id, l.id));
}

/**
 * A quote as the work was sold: an accepted quote's chosen lines only (its stored totals are those
 * of the choice); any other quote as it stands. What a job carries.
 */
export async function soldQuoteView(db: DbOrTx, row: QuoteRow, today: string): Promise<QuoteView> {
  const view = await quoteView(db, row, today);
  if (view.status !== 'Accepted') return view;
  return { ...view, materials: view.materials.filter((m) => m.included), labor: view.labor.filter((l) => l.included) };
}

/** Every version sent for these requests, newest first. */
export function quotesOfRequests(db: DbOrTx, quoteRequestIds: string[]) {
  if (quoteRequestIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(quotes)
    .where(inArray(quotes.quoteRequestId, quoteRequestIds))
    .orderBy(desc(quotes.quoteDate), desc(quotes.version));
}

/** The request of each of these quote numbers (QT…, QT…-2) that exists. */
export async function requestsOfQuoteNumbers(db: DbOrTx, quoteNumbers: string[]) {
  if (quoteNumbers.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ quoteNumber: quotes.quoteNumber, quoteRequestId: quotes.quoteRequestId })
    .from(quotes)
    .where(inArray(quotes.quoteNumber, quoteNumbers));
  return new Map(rows.map((r) => [r.quoteNumber, r.quoteRequestId]));
}
