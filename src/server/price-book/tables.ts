import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { PRICE_BOOK_KINDS, type PriceBookKind } from '#shared/schemas/price-book';
import { createdAt, oneOf } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * The price book: services the office quotes and materials the crew picks, each with its price in
 * cents, its unit and whether it is taxed (decision 032). The crew's materials list is its materials.
 */
export const priceBookItems = pgTable(
  'price_book_items',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<PriceBookKind>().notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    unit: text('unit').notNull(),
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }).notNull(),
    taxable: boolean('taxable').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    oneOf('price_book_items_kind_check', t.kind, PRICE_BOOK_KINDS),
    check('price_book_items_price_check', sql`${t.unitPriceCents} >= 0`),
    // One entry of a name per kind, whatever its letters' case: the crew's "gate hinge" is the book's.
    uniqueIndex('price_book_items_name_idx').on(t.kind, sql`lower(${t.name})`),
    index('price_book_items_order_idx').on(t.name),
  ],
);
