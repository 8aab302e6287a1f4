import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActivityEvent } from '../../../../shared/schemas/activity';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

// Under the requests' root: whatever changes a request (a quote sent, an answer) refreshes its timeline too.
const timelineKey = (quoteRequestId: string) => [...queryRoots.quoteRequests, 'timeline', quoteRequestId];

export function useRequestTimeline(quoteRequestId: string) {
  return useQuery({
    queryKey: timelineKey(quoteRequestId),
    queryFn: () =>
      api<{ events: ActivityEvent[] }>('GET', `/quoterequest/${encodeURIComponent(quoteRequestId)}/timeline`),
    // E-mails move from queued to sent (or failing) on their own.
    refetchInterval: 15_000,
  });
}

export function useSendAgain(quoteRequestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mailId: string) => api<{ ok: true }>('POST', `/mail/${encodeURIComponent(mailId)}/send-again`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: timelineKey(quoteRequestId) }),
  });
}
