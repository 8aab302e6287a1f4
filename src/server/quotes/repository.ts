import { randomInt } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { priceQuote, quoteTotals, toCents, toDollars } from '../../shared/money';
import type { LaborLineInput, MaterialLineInput, QuoteDraft, QuoteView } from '../../shared/schemas/quotes';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { quoteLabor, quoteMaterials, quotes } from '../db/schema';

export type QuoteRow = typeof quotes.$inferSelect;

/** A quote's number as the client sees it: "QT" and eight digits. */
export function newQuoteNumber(): string {
  return `QT${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export const isQuoteNumber = (value: string | undefined): value is string =>
  typeof value === 'string' && /^QT\d{8}$/.test(value);

const centsLines = (materials: MaterialLineInput[], labor: LaborLineInput[]) => ({
  materials: materials.map((m) => ({ name: m.name, unitPriceCents: toCents(m.unitPrice), quantity: m.quantity })),
  labor: labor.map((l) => ({ description: l.description, hourlyRateCents: toCents(l.hourlyRate), hours: l.hours })),
});

export function draftOf(
  input: {
    quoteRequestId: string;
    clientName: string;
    projectName: string;
    materials: MaterialLineInput[];
    labor: LaborLineInput[];
  },
  quoteId: string,
  taxRateBasisPoints: number,
): QuoteDraft {
  return {
    quoteId,
    quoteRequestId: input.quoteRequestId,
    clientName: input.clientName,
    projectName: input.projectName,
    quoteDate: new Date().toISOString(),
    ...priceQuote(input.materials, input.labor, taxRateBasisPoints),
  };
}

/** Stores a quote and its lines; totals are computed here, never taken from the browser. */
export async function insertQuote(
  tx: DbOrTx,
  input: {
    quoteId: string;
    quoteRequestId: string;
    clientName: string;
    projectName: string;
    materials: MaterialLineInput[];
    labor: LaborLineInput[];
  },
  taxRateBasisPoints: number,
): Promise<QuoteRow> {
  const lines = centsLines(input.materials, input.labor);
  const totals = quoteTotals(lines.materials, lines.labor, taxRateBasisPoints);
  const id = newId();
  const [row] = await tx
    .insert(quotes)
    .values({
      id,
      quoteId: input.quoteId,
      quoteRequestId: input.quoteRequestId,
      clientName: input.clientName,
      projectName: input.projectName,
      ...totals,
      taxRateBasisPoints,
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
        hours: l.hours.toFixed(2),
      })),
    );
  }
  return row!;
}

export async function quoteView(db: DbOrTx, row: QuoteRow): Promise<QuoteView> {
  const [materials, labor] = await Promise.all([
    db.select().from(quoteMaterials).where(eq(quoteMaterials.quoteId, row.id)).orderBy(asc(quoteMaterials.position)),
    db.select().from(quoteLabor).where(eq(quoteLabor.quoteId, row.id)).orderBy(asc(quoteLabor.position)),
  ]);
  return {
    _id: row.id,
    quoteId: row.quoteId,
    quoteRequestId: row.quoteRequestId,
    clientName: row.clientName,
    projectName: row.projectName,
    status: row.status,
    quoteDate: row.quoteDate.toISOString(),
    clientMessage: row.clientMessage,
    ...priceQuote(
      materials.map((m) => ({ name: m.name, unitPrice: toDollars(m.unitPriceCents), quantity: Number(m.quantity) })),
      labor.map((l) => ({
        description: l.description,
        hourlyRate: toDollars(l.hourlyRateCents),
        hours: Number(l.hours),
      })),
      row.taxRateBasisPoints,
    ),
  };
}

export const findQuoteByNumber = (db: DbOrTx, quoteId: string) =>
  db.query.quotes.findFirst({ where: eq(quotes.quoteId, quoteId) });
/** The request a quote answers, by the quote's number. */
export async function requestIdOfQuote(db: DbOrTx, quoteId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ quoteRequestId: quotes.quoteRequestId })
    .from(quotes)
    .where(eq(quotes.quoteId, quoteId))
    .limit(1);
  return row?.quoteRequestId;
}

export const findQuoteByRequest = (db: DbOrTx, quoteRequestId: string) =>
  db.query.quotes.findFirst({ where: eq(quotes.quoteRequestId, quoteRequestId) });
