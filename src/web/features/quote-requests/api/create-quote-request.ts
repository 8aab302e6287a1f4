import { useMutation } from '@tanstack/react-query';
import type { QuoteRequestInput, QuoteRequestView } from '../../../../shared/schemas/quote-request';
import { publicApi } from '../../../lib/api-client';

export function createQuoteRequest(body: QuoteRequestInput) {
  return publicApi<{ quoteRequest: QuoteRequestView }>('POST', '/quoterequest/create', { body });
}

export function useCreateQuoteRequest() {
  return useMutation({ mutationFn: createQuoteRequest });
}
