import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceStatusOf } from '#shared/schemas/invoices';
import {
  balanceCents,
  depositParts,
  formatMoney,
  formatRowAmount,
  invoiceRows,
  invoiceTotals,
  laborTotalCents,
  materialSubtotalCents,
  priceQuote,
  quoteTotals,
  taxCents,
  taxLabel,
  toCents,
  toHundredths,
  totalsRows,
  withChoices,
} from '#shared/money';

const cents = fc.integer({ min: 0, max: 100_000_000 });
const hundredths = fc.integer({ min: 1, max: 10_000_000 }).map((h) => h / 100);
const material = fc.record({ name: fc.string(), unitPriceCents: cents, quantity: hundredths });
const labor = fc.record({ hourlyRateCents: cents, hours: hundredths });

describe('money', () => {
  it('turns dollars into cents without floating-point surprises', () => {
    expect(toCents(1.005)).toBe(101);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(34.99)).toBe(3499);
    expect(toHundredths(2.675)).toBe(268);
    fc.assert(fc.property(cents, (c) => toCents(c / 100) === c));
  });

  it('rounds line totals half-up to the cent', () => {
    expect(materialSubtotalCents({ unitPriceCents: 3499, quantity: 2 })).toBe(6998);
    expect(materialSubtotalCents({ unitPriceCents: 333, quantity: 1.5 })).toBe(500); // 499.5 → 500
    expect(laborTotalCents({ hourlyRateCents: 6500, hours: 3.5 })).toBe(22750);
    expect(laborTotalCents({ hourlyRateCents: 1, hours: 0.49 })).toBe(0);
    expect(laborTotalCents({ hourlyRateCents: 1, hours: 0.5 })).toBe(1);
  });

  it('computes the example quote: $297.48 + $23.80 tax = $321.28 when every line is taxed', () => {
    expect(
      quoteTotals([{ unitPriceCents: 3499, quantity: 2 }], [{ hourlyRateCents: 6500, hours: 3.5, taxable: true }], 800),
    ).toEqual({
      subtotalCents: 29748,
      taxableCents: 29748,
      taxCents: 2380,
      totalCents: 32128,
    });
    // By default labor is not taxed (California's repair labor): 8% of the $69.98 of materials only.
    expect(quoteTotals([{ unitPriceCents: 3499, quantity: 2 }], [{ hourlyRateCents: 6500, hours: 3.5 }], 800)).toEqual({
      subtotalCents: 29748,
      taxableCents: 6998,
      taxCents: 560,
      totalCents: 30308,
    });
    expect(formatMoney(32128)).toBe('$321.28');
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
  });

  it('always adds up: subtotal is the sum of the lines, total is subtotal plus tax', () => {
    fc.assert(
      fc.property(fc.array(material, { maxLength: 20 }), fc.array(labor, { maxLength: 20 }), (ms, ls) => {
        const t = quoteTotals(ms, ls, 800);
        const lines =
          ms.reduce((s, m) => s + materialSubtotalCents(m), 0) + ls.reduce((s, l) => s + laborTotalCents(l), 0);
        return t.subtotalCents === lines && t.totalCents === t.subtotalCents + t.taxCents;
      }),
      { numRuns: 2000 },
    );
  });

  it('charges tax of 8% of the subtotal, to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (subtotal) => {
        const tax = taxCents(subtotal, 800);
        // |tax − 0.08 · subtotal| ≤ half a cent, checked in integers (×100).
        return Math.abs(tax * 100 - subtotal * 8) <= 50 && Number.isInteger(tax);
      }),
      { numRuns: 5000 },
    );
  });

  it('charges any rate in basis points, rounded half-up to the cent', () => {
    expect(taxCents(10_000, 875)).toBe(875); // $100 at 8.75% = $8.75
    expect(taxCents(29_748, 725)).toBe(2157); // 2156.73 → 2157
    expect(taxCents(200, 25)).toBe(1); // 0.5 → 1
    expect(taxCents(199, 25)).toBe(0); // 0.4975 → 0
    expect(taxCents(12_345, 0)).toBe(0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 5000 }), (subtotal, bp) => {
        const tax = taxCents(subtotal, bp);
        // |tax − subtotal · bp / 10,000| ≤ half a cent, in integers (×10,000).
        return Math.abs(tax * 10_000 - subtotal * bp) <= 5_000 && Number.isSafeInteger(tax);
      }),
      { numRuns: 5000 },
    );
  });

  it('never drifts: every figure is a whole number of cents', () => {
    fc.assert(
      fc.property(fc.array(material, { maxLength: 10 }), fc.array(labor, { maxLength: 10 }), (ms, ls) => {
        const t = quoteTotals(ms, ls, 800);
        return [t.subtotalCents, t.taxCents, t.totalCents].every(Number.isSafeInteger);
      }),
    );
  });

  it('gives the totals rows every view prints, the tax label saying what it taxes, from the stored rate', () => {
    expect(taxLabel(800, 7894)).toBe('Tax 8% on $78.94');
    expect(taxLabel(725, 100_000)).toBe('Tax 7.25% on $1,000.00');
    expect(taxLabel(850, 0)).toBe('Tax 8.5% on $0.00');
    expect(
      totalsRows({
        totalCostBeforeTax: 315.98,
        taxableBeforeTax: 315.98,
        taxCost: 25.28,
        totalCostAfterTax: 341.26,
        taxRateBasisPoints: 800,
      }),
    ).toEqual([
      { label: 'Subtotal', amount: 315.98, emphasis: false },
      { label: 'Tax 8% on $315.98', amount: 25.28, emphasis: false },
      { label: 'Total', amount: 341.26, emphasis: true },
    ]);
  });

  it('taxes only the taxable lines, once on their sum, whatever the mix (issue 24.2)', () => {
    const taxed = fc.boolean();
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string(), unitPriceCents: cents, quantity: hundredths, taxable: taxed }), {
          maxLength: 15,
        }),
        fc.array(fc.record({ hourlyRateCents: cents, hours: hundredths, taxable: taxed }), { maxLength: 15 }),
        fc.integer({ min: 0, max: 5000 }),
        (ms, ls, bp) => {
          const t = quoteTotals(ms, ls, bp);
          const base =
            ms.filter((m) => m.taxable).reduce((s, m) => s + materialSubtotalCents(m), 0) +
            ls.filter((l) => l.taxable).reduce((s, l) => s + laborTotalCents(l), 0);
          expect(t.taxableCents).toBe(base);
          expect(t.taxCents).toBe(taxCents(base, bp));
          expect(t.totalCents).toBe(t.subtotalCents + t.taxCents);
          // The same lines on an invoice come to the same figures.
          const asInvoice = invoiceTotals(
            [
              ...ms.map((m) => ({ unitPriceCents: m.unitPriceCents, quantity: m.quantity, taxable: m.taxable })),
              ...ls.map((l) => ({ unitPriceCents: l.hourlyRateCents, quantity: l.hours, taxable: l.taxable })),
            ],
            bp,
          );
          expect([asInvoice.subtotalCents, asInvoice.taxableCents, asInvoice.taxCents]).toEqual([
            t.subtotalCents,
            t.taxableCents,
            t.taxCents,
          ]);
        },
      ),
    );
  });

  it('counts an optional line only once the client ticks it; required lines always count', () => {
    const quote = {
      materials: [
        { name: 'Boards', unitPrice: 12.5, quantity: 10 },
        { name: 'Latch', unitPrice: 40, quantity: 1, optional: true },
      ],
      labor: [{ description: 'Paint', hourlyRate: 50, hours: 2, optional: true, taxable: true }],
    };
    const priced = (chosen: { materials: number[]; labor: number[] }) => {
      const picked = withChoices(quote, chosen);
      return priceQuote(picked.materials, picked.labor, 800);
    };
    expect(priced({ materials: [], labor: [] })).toMatchObject({ totalCostBeforeTax: 125, totalCostAfterTax: 135 });
    expect(priced({ materials: [1], labor: [] })).toMatchObject({ totalCostBeforeTax: 165, totalCostAfterTax: 178.2 });
    expect(priced({ materials: [1], labor: [0] })).toMatchObject({ totalCostBeforeTax: 265, taxCost: 21.2 });
    // Unticking a required line, or ticking one that does not exist, changes nothing.
    expect(priced({ materials: [0, 5], labor: [] }).totalCostBeforeTax).toBe(125);
    expect(priced({ materials: [1], labor: [] }).materials.map((m) => [m.optional, m.included])).toEqual([
      [false, true],
      [true, true],
    ]);
    // Whatever the choice, the totals are those of the included lines alone.
    fc.assert(
      fc.property(fc.subarray([0, 1]), fc.subarray([0]), (m, l) => {
        const p = priced({ materials: m, labor: l });
        const sum = [
          ...p.materials.filter((x) => x.included).map((x) => x.subtotal),
          ...p.labor.filter((x) => x.included).map((x) => x.total),
        ].reduce((a, b) => a + toCents(b), 0);
        return toCents(p.totalCostBeforeTax) === sum && toCents(p.totalCostAfterTax) === sum + taxCents(sum, 800);
      }),
    );
  });
});

describe('invoice money', () => {
  const line = fc.record({ unitPriceCents: cents, quantity: hundredths, taxable: fc.constant(true) });
  const rate = fc.integer({ min: 0, max: 5000 });

  it('prices an invoice like a quote, and takes a deposit off once, never more than the total', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), rate, cents, (lines, bp, deposit) => {
        const totals = invoiceTotals(lines, bp, deposit);
        const quote = quoteTotals(lines, [], bp);
        expect(totals.totalCents).toBe(quote.totalCents);
        expect(totals.creditCents).toBe(Math.min(deposit, quote.totalCents));
        expect(totals.dueCents + totals.creditCents).toBe(totals.totalCents);
        expect(totals.dueCents).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('keeps payments plus the balance equal to what is due, whatever the payments', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 10 }),
        rate,
        fc.array(cents, { maxLength: 10 }),
        (lines, bp, tries) => {
          const { dueCents } = invoiceTotals(lines, bp);
          let paid = 0;
          // Each payment is taken only while it fits the balance (the server refuses an overpayment).
          for (const amount of tries) if (amount > 0 && amount <= balanceCents(dueCents, paid)) paid += amount;
          expect(paid + balanceCents(dueCents, paid)).toBe(dueCents);
          expect(balanceCents(dueCents, paid)).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('shows the status from the state, the payments and the due date', () => {
    expect(invoiceStatusOf('Draft', 100, 0, null, '2026-11-22')).toBe('Draft');
    expect(invoiceStatusOf('Sent', 100, 0, '2026-12-01', '2026-11-22')).toBe('Sent');
    expect(invoiceStatusOf('Sent', 100, 40, '2026-12-01', '2026-11-22')).toBe('Partially Paid');
    expect(invoiceStatusOf('Sent', 100, 40, '2026-11-21', '2026-11-22')).toBe('Overdue');
    expect(invoiceStatusOf('Sent', 100, 100, '2026-11-21', '2026-11-22')).toBe('Paid');
    expect(invoiceStatusOf('Void', 100, 0, '2026-11-21', '2026-11-22')).toBe('Void');
  });
});

describe('deposits', () => {
  const rate = fc.integer({ min: 0, max: 5000 });
  /** A quote's subtotal and the part of it that is taxed. */
  const quote = fc
    .tuple(cents, cents)
    .map(([a, b]) => ({ subtotalCents: Math.max(a, b), taxableCents: Math.min(a, b) }));
  const totalOf = (q: { subtotalCents: number; taxableCents: number }, bp: number) =>
    q.subtotalCents + taxCents(q.taxableCents, bp);

  it('are never more than the quote; 100% is the whole total; taxed only on the taxed lines’ share', () => {
    fc.assert(
      fc.property(quote, rate, fc.integer({ min: 1, max: 100 }), (q, bp, percent) => {
        const parts = depositParts(q, bp, { kind: 'percent', value: percent });
        expect(parts.dueCents).toBe(parts.netCents + parts.taxCents);
        expect(parts.netCents).toBe(parts.taxableCents + parts.exemptCents);
        expect(parts.taxCents).toBe(taxCents(parts.taxableCents, bp));
        expect(parts.taxableCents).toBeLessThanOrEqual(q.taxableCents);
        expect(parts.exemptCents).toBeLessThanOrEqual(q.subtotalCents - q.taxableCents);
        expect(parts.dueCents).toBeLessThanOrEqual(totalOf(q, bp));
        if (percent === 100) expect(parts.dueCents).toBe(totalOf(q, bp));
      }),
    );
  });

  it('of an amount come to that amount within a cent, never more than the quote', () => {
    fc.assert(
      fc.property(
        quote.filter((q) => q.subtotalCents >= 100),
        rate,
        fc.integer({ min: 1, max: 120 }),
        (q, bp, share) => {
          const total = totalOf(q, bp);
          const amount = Math.floor((total * share) / 100);
          const parts = depositParts(q, bp, { kind: 'amount', value: amount / 100 });
          expect(parts.dueCents).toBeLessThanOrEqual(total);
          expect(Math.abs(parts.dueCents - Math.min(amount, total))).toBeLessThanOrEqual(1);
          expect(parts.taxCents).toBe(taxCents(parts.taxableCents, bp));
        },
      ),
    );
  });

  it('split as the quote is: 25% of $78.94 of taxed materials and $781.74 of labor', () => {
    // $500 of taxed work at 8%: 30% is $150 of work and $12 of tax.
    expect(depositParts({ subtotalCents: 50_000, taxableCents: 50_000 }, 800, { kind: 'percent', value: 30 })).toEqual({
      taxableCents: 15_000,
      exemptCents: 0,
      netCents: 15_000,
      taxCents: 1_200,
      dueCents: 16_200,
    });
    // 25% of materials $78.94 (taxed) and labor $781.74 (not): $19.74 + $195.44, tax $1.58 on the materials part.
    expect(depositParts({ subtotalCents: 86_068, taxableCents: 7_894 }, 800, { kind: 'percent', value: 25 })).toEqual({
      taxableCents: 1_974,
      exemptCents: 19_544,
      netCents: 21_518,
      taxCents: 158,
      dueCents: 21_676,
    });
  });
});

describe('invoice figures', () => {
  it('print "Less deposit INV-…" for the credited deposit, then payments and the balance', () => {
    expect(
      invoiceRows({
        subtotal: 860.68,
        taxable: 78.94,
        tax: 6.32,
        total: 867,
        taxRateBasisPoints: 800,
        credit: 216.76,
        creditedNumber: 'INV-2026-0001',
        paid: 100,
        balance: 550.24,
      }).map((r) => [r.label, formatRowAmount(r.amount)]),
    ).toEqual([
      ['Subtotal', '$860.68'],
      ['Tax 8% on $78.94', '$6.32'],
      ['Total', '$867.00'],
      ['Less deposit INV-2026-0001', '−$216.76'],
      ['Paid', '−$100.00'],
      ['Balance due', '$550.24'],
    ]);
  });
});
