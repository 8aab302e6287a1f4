import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  MAX_PRICE_BOOK_ITEMS,
  type PriceBookItem,
  type PriceBookKind,
  type PriceBookList,
  type priceBookItemInput,
} from '#shared/schemas/price-book';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

export const priceBookKeys = {
  all: queryRoots.priceBook,
  list: (search: string, kind: PriceBookKind | null) => [...queryRoots.priceBook, 'list', { search, kind }] as const,
};

/** The whole book (or what matches the search), by name. */
export function usePriceBook(search: string, kind: PriceBookKind | null) {
  const params = new URLSearchParams({ limit: String(MAX_PRICE_BOOK_ITEMS) });
  if (search) params.set('search', search);
  if (kind) params.set('kind', kind);
  return useQuery({
    queryKey: priceBookKeys.list(search, kind),
    queryFn: () => api<PriceBookList>('GET', `/price-book?${params}`),
    placeholderData: keepPreviousData,
  });
}

type Input = z.output<typeof priceBookItemInput>;

export function useSavePriceBookItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: Input }) =>
      id
        ? api<PriceBookItem>('PUT', `/price-book/${encodeURIComponent(id)}`, { body })
        : api<PriceBookItem>('POST', '/price-book', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: priceBookKeys.all }),
  });
}

export function useDeletePriceBookItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>('DELETE', `/price-book/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: priceBookKeys.all }),
  });
}
