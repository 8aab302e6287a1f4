import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageWindow } from '../../src/server/lib/sql';

// The one rule every long list pages by (requests, clients, invoices): decision 004.
describe('pageWindow', () => {
  it('reads the first half from the newest end and the rest from the oldest, the same rows either way', () => {
    expect(pageWindow(1, 10, 95)).toEqual({ fromOldest: false, take: 10, skip: 0 });
    expect(pageWindow(5, 10, 95)).toEqual({ fromOldest: false, take: 10, skip: 40 });
    expect(pageWindow(6, 10, 95)).toEqual({ fromOldest: true, take: 10, skip: 35 });
    expect(pageWindow(10, 10, 95)).toEqual({ fromOldest: true, take: 5, skip: 0 });
    expect(pageWindow(11, 10, 95)).toBeUndefined();
    expect(pageWindow(1, 10, 0)).toBeUndefined();
  });

  it('always names the rows of that page: the same positions counted from either end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 5000 }),
        (page, limit, total) => {
          const window = pageWindow(page, limit, total);
          const first = (page - 1) * limit;
          if (first >= total) {
            expect(window).toBeUndefined();
            return;
          }
          const expected = Array.from({ length: Math.min(limit, total - first) }, (_, i) => first + i);
          // Position 0 is the newest; from the oldest end position p is total - 1 - p.
          const positions = Array.from({ length: window!.take }, (_, i) =>
            window!.fromOldest ? total - 1 - (window!.skip + i) : window!.skip + i,
          ).sort((a, b) => a - b);
          expect(positions).toEqual(expected);
          expect(window!.skip + window!.take <= total && window!.skip <= total / 2 + limit).toBe(true);
        },
      ),
    );
  });
});
