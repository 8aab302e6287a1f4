import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { isUniqueViolation } from '../lib/db-errors';
import { conflict, notFound } from '../lib/http-errors';
import { toCents, toDollars } from '#shared/money';
import {
  MAX_PRICE_BOOK_ITEMS,
  type PriceBookItem,
  type PriceBookKind,
  type priceBookItemInput,
} from '#shared/schemas/price-book';
import type { z } from 'zod';
import {
  allMaterials,
  countItems,
  deleteItem,
  findItem,
  findMaterialByName,
  insertItem,
  searchItems,
  updateItem,
  type PriceBookRow,
  type PriceBookValues,
} from './repository';

type Input = z.output<typeof priceBookItemInput>;

export const toItemView = (row: PriceBookRow): PriceBookItem => ({
  _id: row.id,
  kind: row.kind,
  name: row.name,
  description: row.description,
  unit: row.unit,
  unitPrice: toDollars(row.unitPriceCents),
  taxable: row.taxable,
});

const valuesOf = (input: Input): PriceBookValues => ({
  kind: input.kind,
  name: input.name,
  description: input.description,
  unit: input.unit,
  unitPriceCents: toCents(input.unitPrice),
  taxable: input.taxable,
});

const KIND_WORD: Record<PriceBookKind, string> = { service: 'service', material: 'material' };

/** A second entry of the same name and kind is refused with words the owner can act on. */
async function named<T>(input: Input, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`The price book already has a ${KIND_WORD[input.kind]} named "${input.name}"`, 'CONFLICT');
    throw error;
  }
}

export async function listItems(db: DbOrTx, query: { search?: string; kind?: PriceBookKind; limit: number }) {
  const { rows, total } = await searchItems(db, query);
  return { items: rows.map(toItemView), total };
}

/**
 * Adds an entry. The count is checked under a lock on the book, so two owners adding at once cannot
 * pass the limit together.
 */
export async function addItem(db: Db, input: Input): Promise<PriceBookItem> {
  const id = newId();
  await named(input, () =>
    db.transaction(async (tx) => {
      await tx.execute(sql`lock table price_book_items in share row exclusive mode`);
      if ((await countItems(tx)) >= MAX_PRICE_BOOK_ITEMS)
        throw conflict(`The price book holds at most ${MAX_PRICE_BOOK_ITEMS} entries`, 'RECORD_LIMIT');
      await insertItem(tx, id, valuesOf(input));
    }),
  );
  return toItemView((await findItem(db, id))!);
}

export async function changeItem(db: Db, id: string, input: Input): Promise<PriceBookItem> {
  // Each write in a transaction, so the request's trail entry is stored with it (decision 023).
  const found = await named(input, () => db.transaction((tx) => updateItem(tx, id, valuesOf(input))));
  if (!found) throw notFound('Price book entry not found');
  return toItemView((await findItem(db, id))!);
}

export async function removeItem(db: Db, id: string): Promise<void> {
  if (!(await db.transaction((tx) => deleteItem(tx, id)))) throw notFound('Price book entry not found');
}

/** A material of the price book as the crew's record and the invoice read it (cents). */
export interface MaterialPrice {
  name: string;
  unitPriceCents: number;
  taxable: boolean;
}

/** The crew's materials list: the price book's materials, by name. */
export async function materialPrices(db: DbOrTx): Promise<MaterialPrice[]> {
  return (await allMaterials(db)).map(({ name, unitPriceCents, taxable }) => ({ name, unitPriceCents, taxable }));
}

/** The price book's material of this name (any case), or undefined. */
export async function materialPrice(db: DbOrTx, name: string): Promise<MaterialPrice | undefined> {
  const row = await findMaterialByName(db, name);
  return row && { name: row.name, unitPriceCents: row.unitPriceCents, taxable: row.taxable };
}
