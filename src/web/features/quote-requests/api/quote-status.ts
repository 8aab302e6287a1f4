import { queryOptions } from '@tanstack/react-query';
import type { QuoteRequestStatus, QuoteStatus } from '../../../../shared/constants';
import { publicApi } from '../../../lib/api-client';

export function fetchQuoteStatus(quoteNumber: string) {
  return publicApi<{
    quoteStatus: QuoteRequestStatus;
    quoteState: QuoteStatus | null;
    nextVisit: { date: string; start: string; end: string } | null;
  }>('GET', `/quoterequest/status/${encodeURIComponent(quoteNumber.trim())}`);
}

export const quoteStatusQuery = (quoteNumber: string) =>
  queryOptions({
    queryKey: ['quote-status', quoteNumber.trim().toUpperCase()],
    queryFn: () => fetchQuoteStatus(quoteNumber),
  });
