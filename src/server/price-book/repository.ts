import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { escapeLike } from '../lib/sql';
import type { PriceBookKind } from '#shared/schemas/price-book';
import { priceBookItems } from './tables';

export type PriceBookRow = typeof priceBookItems.$inferSelect;
export type PriceBookValues = Pick<
  PriceBookRow,
  'kind' | 'name' | 'description' | 'unit' | 'unitPriceCents' | 'taxable'
>;

/** Entries whose name or description holds each word searched, of one kind or both, by name. */
export async function searchItems(db: DbOrTx, query: { search?: string; kind?: PriceBookKind; limit: number }) {
  const where: SQL[] = [];
  if (query.kind) where.push(eq(priceBookItems.kind, query.kind));
  // Every word typed, in the name or the description, in any order: "fan ceiling" finds "Ceiling fan install".
  for (const word of (query.search ?? '').split(/\s+/).filter(Boolean).slice(0, 8)) {
    const pattern = `%${escapeLike(word)}%`;
    where.push(or(ilike(priceBookItems.name, pattern), ilike(priceBookItems.description, pattern))!);
  }
  const condition = where.length ? and(...where) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(priceBookItems)
      .where(condition)
      .orderBy(asc(sql`lower(${priceBookItems.name})`), asc(priceBookItems.id))
      .limit(query.limit),
    db.select({ n: count() }).from(priceBookItems).where(condition),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export const countItems = async (db: DbOrTx) => (await db.select({ n: count() }).from(priceBookItems))[0]?.n ?? 0;

export async function findItem(db: DbOrTx, id: string) {
  const [row] = await db.select().from(priceBookItems).where(eq(priceBookItems.id, id));
  return row;
}

/** The material of this name, whatever its letters' case. */
export async function findMaterialByName(db: DbOrTx, name: string) {
  const [row] = await db
    .select()
    .from(priceBookItems)
    .where(and(eq(priceBookItems.kind, 'material'), sql`lower(${priceBookItems.name}) = lower(${name.trim()})`));
  return row;
}

/** Every material, by name: the list the crew picks from. */
export const allMaterials = (db: DbOrTx) =>
  db
    .select()
    .from(priceBookItems)
    .where(eq(priceBookItems.kind, 'material'))
    .orderBy(asc(sql`lower(${priceBookItems.name})`));

export const insertItem = (db: DbOrTx, id: string, values: PriceBookValues) =>
  db.insert(priceBookItems).values({ id, ...values });

export async function updateItem(db: DbOrTx, id: string, values: PriceBookValues) {
  const rows = await db
    .update(priceBookItems)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(priceBookItems.id, id))
    .returning({ id: priceBookItems.id });
  return rows.length > 0;
}

export async function deleteItem(db: DbOrTx, id: string) {
  const rows = await db.delete(priceBookItems).where(eq(priceBookItems.id, id)).returning({ id: priceBookItems.id });
  return rows.length > 0;
}
