import { z } from 'zod';
import { dollarsInput } from './numbers';

/**
 * What the price book holds: services the office quotes (by the hour or at a flat price) and the
 * materials the crew picks on a job. One list serves the quote builder and the crew (decision 032).
 */
export const PRICE_BOOK_KINDS = ['service', 'material'] as const;
export type PriceBookKind = (typeof PRICE_BOOK_KINDS)[number];

/** The unit that makes a service an hourly labor line; any other unit makes it a flat-price line. */
export const HOURLY_UNIT = 'hour';

/** How many entries the book holds: enough for a handyman's catalogue, bounded for every screen. */
export const MAX_PRICE_BOOK_ITEMS = 1000;

/** A search answers at most this many entries (the builder shows the first few). */
export const PRICE_BOOK_SEARCH_LIMIT = 50;

export const priceBookItemInput = z.object({
  kind: z.enum(PRICE_BOOK_KINDS, { error: 'Choose a service or a material' }),
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200, 'Name must be at most 200 characters'),
  description: z
    .string()
    .trim()
    .max(1000, 'Description must be at most 1000 characters')
    .optional()
    .transform((v) => v ?? ''),
  /** "hour" (hourly labor), "each", "sq ft", "job"… */
  unit: z
    .string({ error: 'Unit is required' })
    .trim()
    .min(1, 'Unit is required')
    .max(30, 'Unit must be at most 30 characters'),
  unitPrice: dollarsInput('Price'),
  /** Charged sales tax when it is quoted or billed. */
  taxable: z.boolean(),
});
export type PriceBookItemInput = z.input<typeof priceBookItemInput>;

export const priceBookItem = z.object({
  _id: z.string(),
  kind: z.enum(PRICE_BOOK_KINDS),
  name: z.string(),
  description: z.string(),
  unit: z.string(),
  unitPrice: z.number(),
  taxable: z.boolean(),
});
export type PriceBookItem = z.infer<typeof priceBookItem>;

/** The longest search the price book answers: the builder's field takes no more. */
export const PRICE_BOOK_SEARCH_LENGTH = 100;

export const priceBookQuery = z.object({
  search: z
    .string()
    .trim()
    .max(PRICE_BOOK_SEARCH_LENGTH, `Search must be at most ${PRICE_BOOK_SEARCH_LENGTH} characters`)
    .optional(),
  kind: z.enum(PRICE_BOOK_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PRICE_BOOK_ITEMS).default(PRICE_BOOK_SEARCH_LIMIT),
});

export const priceBookList = z.object({
  items: z.array(priceBookItem),
  /** Every entry that matched (the list may show fewer). */
  total: z.number().int(),
});
export type PriceBookList = z.infer<typeof priceBookList>;

/** Whether an entry goes on a quote as hourly labor (a service by the hour). */
export const isHourly = (item: { kind: PriceBookKind; unit: string }) =>
  item.kind === 'service' && item.unit.trim().toLowerCase() === HOURLY_UNIT;
