import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuoteTemplate, QuoteTemplateList } from '#shared/schemas/quotes';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

// The templates the Quote Builder saves (decision 032), kept up here beside the price book.

export function useQuoteTemplates() {
  return useQuery({
    queryKey: queryRoots.quoteTemplates,
    queryFn: () => api<QuoteTemplateList>('GET', '/quote-templates'),
  });
}

export function useRenameTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<QuoteTemplate>('PATCH', `/quote-templates/${encodeURIComponent(id)}`, { body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.quoteTemplates }),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ ok: true }>('DELETE', `/quote-templates/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryRoots.quoteTemplates }),
  });
}
