// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PriceBookItem } from '#shared/schemas/price-book';
import { PriceBookSearch } from '../../src/web/features/quotes/components/price-book-search';
import { provideServerFetch } from '../../src/web/lib/api-client';
import { renderInApp } from './support/render';

const item = (name: string, unitPrice: number): PriceBookItem => ({
  _id: name.toLowerCase().replaceAll(' ', '-'),
  kind: 'service',
  name,
  description: '',
  unit: 'each',
  unitPrice,
  taxable: true,
});
const fan = item('Ceiling fan install', 149.5);
const door = item('Door rehang', 95);

/** The server: the newest entries for no search at once; the answer for "fan" when the test lets it go. */
let answerFan: () => void;
beforeEach(() => {
  const fanAnswered = new Promise<void>((resolve) => (answerFan = resolve));
  provideServerFetch((async (url: string) => {
    const search = new URL(url, 'http://app.test').searchParams.get('search');
    if (search === 'fan') await fanAnswered;
    if (search === 'gate') return new Response('{"message":"Internal Server Error"}', { status: 500 });
    const items = search === 'fan' ? [fan] : [door, fan];
    return new Response(JSON.stringify({ items, total: items.length }), { status: 200 });
  }) as unknown as typeof fetch);
});
afterEach(cleanup);

describe('the quote builder’s price book search', () => {
  it('offers only the answer to what is typed: nothing to click while the next answer comes', async () => {
    const onPick = vi.fn();
    const user = renderInApp(<PriceBookSearch onPick={onPick} disabled={false} />);
    const field = screen.getByPlaceholderText('Search services and materials');
    await user.click(field);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));

    // Typed: the newest entries are no longer offered (the answer would replace them under a click).
    await user.type(field, 'fan');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('Searching…')).toBeTruthy();

    answerFan();
    const option = await screen.findByRole('option', { name: /Ceiling fan install/ });
    expect(screen.getAllByRole('option')).toHaveLength(1);
    await user.click(option);
    expect(onPick).toHaveBeenCalledWith(fan);
  });

  it('says when the price book could not be searched, rather than searching forever', async () => {
    const user = renderInApp(
      <PriceBookSearch onPick={vi.fn()} disabled={false} />,
      new QueryClient({ defaultOptions: { queries: { retry: false } } }),
    );
    const field = screen.getByPlaceholderText('Search services and materials');
    await user.click(field);
    await user.type(field, 'gate');
    expect(
      await screen.findByText('The price book could not be searched. Check the connection, then type again.'),
    ).toBeTruthy();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });

  it('says it waits for the connection when there is none, and searches once it is back', async () => {
    const user = renderInApp(<PriceBookSearch onPick={vi.fn()} disabled={false} />);
    const field = screen.getByPlaceholderText('Search services and materials');
    onlineManager.setOnline(false);
    try {
      await user.click(field);
      await user.type(field, 'door');
      expect(await screen.findByText('No connection: the search goes on once the connection is back.')).toBeTruthy();
      expect(screen.queryAllByRole('option')).toHaveLength(0);
    } finally {
      onlineManager.setOnline(true);
    }
    expect(await screen.findByRole('option', { name: /Door rehang/ })).toBeTruthy();
  });

  it('takes no more than the longest search the price book answers', async () => {
    const user = renderInApp(<PriceBookSearch onPick={vi.fn()} disabled={false} />);
    const field = screen.getByPlaceholderText<HTMLInputElement>('Search services and materials');
    await user.click(field);
    await user.type(field, 'x'.repeat(120));
    expect(field.value).toHaveLength(100);
  });
});
