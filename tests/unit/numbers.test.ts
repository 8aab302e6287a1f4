import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dollarsInput, hasTwoDecimals, quantityInput, twoDecimals } from '#shared/schemas/numbers';
import { formatDollars, formatMoney, toCents } from '#shared/money';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0]!.message;

describe('two decimals, one rule for every typed amount', () => {
  it('takes every whole number of cents and refuses a thousandth more', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (cents) => {
        expect(hasTwoDecimals(cents / 100)).toBe(true);
        expect(hasTwoDecimals(cents / 100 + 0.003)).toBe(false);
      }),
    );
  });

  it('names the field in each message', () => {
    const price = dollarsInput('Unit price');
    expect(messageOf(price.safeParse('12'))).toBe('Unit price must be a number');
    expect(messageOf(price.safeParse(-1))).toBe('Unit price cannot be negative');
    expect(messageOf(price.safeParse(1_000_000.01))).toBe('Unit price must be at most 1,000,000');
    expect(messageOf(price.safeParse(1.005))).toBe('Unit price can have at most 2 decimals');
    expect(price.parse(19.99)).toBe(19.99);
    expect(messageOf(dollarsInput('Unit price', -1_000_000).safeParse(-1_000_001))).toBe(
      'Unit price must be at least -1,000,000',
    );
    expect(messageOf(quantityInput('Hours').safeParse(0))).toBe('Hours must be more than 0');
    expect(messageOf(twoDecimals('Tax rate', { min: 0, max: 50, unit: '%' }).safeParse(51))).toBe(
      'Tax rate must be at most 50%',
    );
  });

  it('shows dollars the way cents are shown', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => {
        expect(formatDollars(cents / 100)).toBe(formatMoney(cents));
        expect(toCents(cents / 100)).toBe(cents);
      }),
    );
  });
});
