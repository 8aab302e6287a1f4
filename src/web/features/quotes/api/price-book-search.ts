import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PriceBookList } from '#shared/schemas/price-book';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

/**
 * The price book's entries that match what the office types in the builder (the first 50, by name),
 * asked only once the list is opened: a builder nobody searches from costs no request.
 */
export function usePriceBookSearch(search: string, enabled: boolean) {
  const params = new URLSearchParams();
  if (search) params.set('search', search);
  return useQuery({
    queryKey: [...queryRoots.priceBook, 'search', search] as const,
    queryFn: () => api<PriceBookList>('GET', `/price-book?${params}`),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled,
  });
}
