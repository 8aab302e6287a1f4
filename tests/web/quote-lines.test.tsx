// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { priceQuote, withChoices } from '#shared/money';
import { QuoteLines } from '../../src/web/components/quote-lines';

afterEach(cleanup);

const show = (quote: Parameters<typeof QuoteLines>[0]) =>
  render(
    <MantineProvider env="test">
      <QuoteLines {...quote} />
    </MantineProvider>,
  );

const cells = (table: string) =>
  within(screen.getByRole('region', { name: table }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('a quote read by staff: one table for materials, one for labor', () => {
  it('lists each kind under its own heading and columns, with optional lines marked', () => {
    const priced = priceQuote(
      [
        { name: 'Deck boards', unitPrice: 19.99, quantity: 3 },
        { name: 'Stain', unitPrice: 40, quantity: 1, optional: true },
      ],
      [
        { description: 'Rehang the gate', hourlyRate: 65, hours: 1.5 },
        { description: '', hourlyRate: 50, hours: 1, optional: true },
      ],
      800,
    );
    show(withChoices(priced, { materials: [1], labor: [] }));
    expect(cells('Materials')).toEqual([
      ['Name', 'Unit Price', 'Quantity', 'Subtotal'],
      ['Deck boards', '$19.99', '3', '$59.97'],
      ['Stain (optional, chosen)', '$40.00', '1', '$40.00'],
    ]);
    expect(cells('Labor')).toEqual([
      ['Description', 'Rate or Price', 'Hours', 'Total'],
      ['Rehang the gate', '$65.00', '1.5', '$97.50'],
      ['Labor (optional, not in the total)', '$50.00', '1', '$50.00'],
    ]);
  });

  it('says so when a kind has no lines', () => {
    show(priceQuote([], [{ description: 'Paint', hourlyRate: 60, hours: 2 }], 800));
    expect(screen.getByText('No materials')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Materials' })).toBeNull();
    expect(screen.queryByText('No labor')).toBeNull();
    show(priceQuote([{ name: 'Nails', unitPrice: 1, quantity: 1 }], [], 800));
    expect(screen.getByText('No labor')).toBeTruthy();
  });
});
