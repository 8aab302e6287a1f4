import { useMutation } from '@tanstack/react-query';
import type { QuoteRequestInput } from '#shared/schemas/quote-request';
import { publicApi } from '../../../lib/api-client';
import type { CreatedQuoteRequest } from '#shared/schemas/quote-request';

export function createQuoteRequest(body: QuoteRequestInput) {
  return publicApi<CreatedQuoteRequest>('POST', '/quoterequest/create', { body });
}

export function useCreateQuoteRequest() {
  return useMutation({ mutationFn: createQuoteRequest });
}
