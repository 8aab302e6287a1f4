import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { z } from 'zod';
import type {
  ClientAnswerInput,
  ClientAnswerResult,
  ClientQuoteView,
  QuoteDraft,
  QuoteTemplate,
  QuoteTemplateInput,
  QuoteTemplateList,
  QuoteView,
  createQuoteInput,
} from '#shared/schemas/quotes';
import { api, publicApi } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import type { UpdateRequested } from '#shared/schemas/quotes';

type QuoteInput = z.input<typeof createQuoteInput>;

export function useSentQuote(quoteRequestId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryRoots.quotes, 'by-request', quoteRequestId],
    queryFn: () => api<QuoteView>('GET', `/quotes/by-quote-request/${encodeURIComponent(quoteRequestId)}`),
    enabled,
  });
}

/** createNew (the number for the preview), then sendQuote; the request's views are fetched again after. */
export function useSendQuote() {
  const queryClient = useQueryClient();
  const draft = useMutation({
    mutationFn: (body: QuoteInput) => api<QuoteDraft>('POST', '/quotes/createNew', { body }),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryRoots.quoteRequests });
    void queryClient.invalidateQueries({ queryKey: queryRoots.quotes });
  };
  const send = useMutation({
    mutationFn: (body: QuoteInput & { userEmail: string; quote: QuoteDraft; quoteHTML: string }) =>
      api<QuoteView>('POST', '/quotes/sendQuote', { body }),
    onSuccess: refresh,
  });
  const revise = useMutation({
    mutationFn: (body: QuoteInput & { quote: QuoteDraft }) => api<QuoteView>('POST', '/quotes/revise', { body }),
    onSuccess: refresh,
  });
  return { draft, send, revise };
}

/** The owner answers the client's question (e-mailed to them). */
export function useReplyToQuestion(quoteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string) =>
      api<QuoteView>('POST', `/quotes/${encodeURIComponent(quoteId)}/reply`, { body: { message } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryRoots.quoteRequests });
      void queryClient.invalidateQueries({ queryKey: queryRoots.quotes });
    },
  });
}

export function useClientQuote(quoteId: string, token: string) {
  return useQuery({
    queryKey: ['client-quote', quoteId, token],
    queryFn: () =>
      publicApi<ClientQuoteView>(
        'GET',
        `/client-quotes/${encodeURIComponent(quoteId)}?token=${encodeURIComponent(token)}`,
      ),
    retry: false,
    refetchInterval: false,
  });
}

/**
 * Tells the office the client opened the quote: sent once by the page running in the client's
 * browser, not by reading it (a mail scanner's or a prefetch's GET is not the client).
 */
export function useNoteQuoteOpened(quoteId: string, token: string, ready: boolean) {
  useEffect(() => {
    if (!ready || !token) return;
    // A failure here (offline, limit) costs only the office's "opened" note: nothing to show the client.
    publicApi('POST', `/client-quotes/${encodeURIComponent(quoteId)}/opened`, { body: { token } }).catch(
      () => undefined,
    );
  }, [quoteId, token, ready]);
}

export function useAnswerQuote(quoteId: string) {
  return useMutation({
    mutationFn: (body: ClientAnswerInput) =>
      publicApi<ClientAnswerResult>('POST', `/client-quotes/${encodeURIComponent(quoteId)}/answer`, { body }),
  });
}

/** An expired quote's client asks for an updated one. */
export function useRequestUpdate(quoteId: string) {
  return useMutation({
    mutationFn: (token: string) =>
      publicApi<UpdateRequested>('POST', `/client-quotes/${encodeURIComponent(quoteId)}/request-update`, {
        body: { token },
      }),
  });
}

/** The builder's Preview: the draft as the client's page will show it (nothing stored, nothing sent). */
export function usePreviewQuote() {
  return useMutation({
    mutationFn: (body: QuoteInput) => api<ClientQuoteView>('POST', '/quotes/preview', { body }),
  });
}

const templateKeys = { all: queryRoots.quoteTemplates };

export function useQuoteTemplates(enabled = true) {
  return useQuery({
    queryKey: templateKeys.all,
    queryFn: () => api<QuoteTemplateList>('GET', '/quote-templates'),
    enabled,
  });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuoteTemplateInput) => api<QuoteTemplate>('POST', '/quote-templates', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
