import { useMutation } from '@tanstack/react-query';
import type { QuoteRequestInput, QuoteRequestView } from '../../../../shared/schemas/quote-request';
import { api } from '../../../lib/api-client';

export function createQuoteRequest(body: QuoteRequestInput) {
  return api<{ quoteRequest: QuoteRequestView }>('POST', '/quoterequest/create', { body });
}

export function useCreateQuoteRequest() {
  return useMutation({ mutationFn: createQuoteRequest });
}
