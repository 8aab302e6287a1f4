import { z } from 'zod';

/** At most two decimals: cents for money, hundredths for quantities, hours and percents. */
export const hasTwoDecimals = (n: number): boolean => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

const grouped = (n: number) => n.toLocaleString('en-US');

/**
 * A number a person types with at most two decimals (a price, a quantity, a rate), named by its
 * label in every message: "Unit price must be a number", "… cannot be negative", "… must be more than
 * 0", "… must be at most 1,000,000", "… can have at most 2 decimals". `above: 0` refuses 0 itself.
 */
export function twoDecimals(label: string, bounds: { min?: number; above?: number; max: number; unit?: '%' }) {
  let schema = z.number({ error: `${label} must be a number` });
  if (bounds.above !== undefined)
    schema = schema.gt(bounds.above, `${label} must be more than ${grouped(bounds.above)}`);
  if (bounds.min !== undefined)
    schema = schema.min(
      bounds.min,
      bounds.min === 0 ? `${label} cannot be negative` : `${label} must be at least ${grouped(bounds.min)}`,
    );
  return schema
    .max(bounds.max, `${label} must be at most ${grouped(bounds.max)}${bounds.unit ?? ''}`)
    .refine(hasTwoDecimals, {
      message: `${label} can have at most 2 decimals`,
    });
}

/** Dollars with cents, from 0 (or `min`, negative for a discount) to a million. */
export const dollarsInput = (label: string, min = 0) => twoDecimals(label, { min, max: 1_000_000 });

/** A quantity or hours: more than 0, at most 100,000, hundredths. */
export const quantityInput = (label = 'Quantity') => twoDecimals(label, { above: 0, max: 100_000 });
