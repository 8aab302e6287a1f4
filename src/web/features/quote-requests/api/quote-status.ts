import { queryOptions } from '@tanstack/react-query';
import { publicApi } from '../../../lib/api-client';
import type { QuoteStatusResponse } from '#shared/schemas/quote-request';

export function fetchQuoteStatus(quoteNumber: string) {
  return publicApi<QuoteStatusResponse>('GET', `/quoterequest/status/${encodeURIComponent(quoteNumber.trim())}`);
}

export const quoteStatusQuery = (quoteNumber: string) =>
  queryOptions({
    queryKey: ['quote-status', quoteNumber.trim().toUpperCase()],
    queryFn: () => fetchQuoteStatus(quoteNumber),
  });
