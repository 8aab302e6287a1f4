// Issue 33 (decision 043): the accountant's files carry the same money as the invoices, to the cent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  amountCell,
  bookLines,
  quickbooksInvoiceRows,
  usDate,
  xeroContactRow,
  xeroInvoiceRows,
  xeroPaymentRow,
  type AccountingInvoice,
} from '#shared/accounting';
import { depositParts, invoiceTotals, toCents } from '#shared/money';

const cents = (cell: string) => toCents(Number(cell));

describe('allocateCents', () => {
  it('shares a total exactly, each part within a cent of its proportion', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const parts = allocateCents(total, weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((a, b) => a + b, 0);
          if (sum === 0) return;
          parts.forEach((part, i) => expect(Math.abs(part - (total * weights[i]!) / sum)).toBeLessThan(1));
        },
      ),
    );
  });

  it('gives 0 to a part of weight 0, and splits 10 cents three ways 4/3/3', () => {
    expect(allocateCents(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(allocateCents(-10, [1, 0, 1])).toEqual([-5, 0, -5]);
    expect(allocateCents(7, [0, 0])).toEqual([7, 0]);
  });
});

const line = fc.record({
  description: fc.constantFrom('Deck boards', 'Labor', 'Gate hinge'),
  quantity: fc.integer({ min: 1, max: 2000 }).map((h) => h / 100),
  unitPriceCents: fc.integer({ min: 0, max: 500_000 }),
  taxable: fc.boolean(),
});

function invoiceOf(lines: AccountingInvoice['lines'], rate: number, credit?: AccountingInvoice['credit']) {
  const totals = invoiceTotals(lines, rate);
  return {
    invoice: {
      number: 'INV-2026-0007',
      issueDate: '2026-11-02',
      dueDate: '2026-11-16',
      clientName: 'Maria Lopez',
      companyName: '',
      clientEmail: 'maria@home.test',
      billTo: '42 Capitol Mall, Sacramento, CA 95814',
      poNumber: '',
      taxRateBasisPoints: rate,
      lines,
      taxCents: totals.taxCents,
      credit,
    } satisfies AccountingInvoice,
    totals,
  };
}

describe('the books’ lines of an invoice', () => {
  it('add up, net and tax, to its total less the deposit it takes off; Xero’s and QuickBooks’ rows say the same', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 1500 }),
        fc.integer({ min: 0, max: 100 }),
        (lines, rate, percent) => {
          const subtotal = invoiceTotals(lines, rate);
          // The deposit as the product asks it: a percent of the quote, taxed as the quote's lines are.
          const parts = depositParts(
            { subtotalCents: subtotal.subtotalCents, taxableCents: subtotal.taxableCents },
            rate,
            { kind: 'percent', value: percent },
          );
          const depositLines = [
            { description: 'Deposit: taxed part', quantity: 1, unitPriceCents: parts.taxableCents, taxable: true },
            { description: 'Deposit: part not taxed', quantity: 1, unitPriceCents: parts.exemptCents, taxable: false },
          ];
          const credit = { number: 'INV-2026-0003', lines: depositLines, taxCents: parts.taxCents };
          const { invoice, totals } = invoiceOf(lines, rate, credit);
          const due = totals.totalCents - parts.dueCents;
          const book = bookLines(invoice);
          expect(book.reduce((sum, l) => sum + l.amountCents + l.taxCents, 0)).toBe(due);
          expect(book.reduce((sum, l) => sum + l.taxCents, 0)).toBe(totals.taxCents - parts.taxCents);
          for (const l of book) if (!l.taxable) expect(l.taxCents).toBe(0);

          const xero = xeroInvoiceRows(invoice);
          expect(
            xero.reduce((sum, r) => sum + cents(r.UnitAmount!) * Number(r.Quantity) + cents(r.TaxAmount!), 0),
          ).toBeCloseTo(due, 6);
          const quickbooks = quickbooksInvoiceRows(invoice);
          expect(quickbooks.reduce((sum, r) => sum + cents(r['Item Amount']!), 0)).toBe(
            due - (totals.taxCents - parts.taxCents),
          );
        },
      ),
    );
  });

  it('writes money and US dates as the imports read them', () => {
    expect(amountCell(123456)).toBe('1234.56');
    expect(amountCell(-5)).toBe('-0.05');
    expect(amountCell(0)).toBe('0.00');
    expect(usDate('2026-03-07')).toBe('03/07/2026');
  });

  it('names a company by its name and a household by the person, first and last', () => {
    const person = { clientName: 'Maria de la Cruz', companyName: '', clientEmail: 'm@home.test', billTo: 'x' };
    expect(xeroContactRow(person)).toMatchObject({
      ContactName: 'Maria de la Cruz',
      FirstName: 'Maria',
      LastName: 'de la Cruz',
    });
    expect(xeroContactRow({ ...person, companyName: 'Capitol Properties LLC' })).toMatchObject({
      ContactName: 'Capitol Properties LLC',
      FirstName: '',
      LastName: '',
    });
    expect(
      xeroPaymentRow({
        paidOn: '2026-11-20',
        amountCents: -2500,
        invoiceNumber: 'INV-2026-0007',
        clientName: 'Maria Lopez',
        companyName: '',
        method: 'card',
        reference: '',
      }),
    ).toEqual({
      Date: '11/20/2026',
      Amount: '-25.00',
      Payee: 'Maria Lopez',
      Description: 'Refund on INV-2026-0007 (card)',
      Reference: 'INV-2026-0007',
    });
  });
});
