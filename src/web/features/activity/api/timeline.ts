import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import type { ActivityTimeline } from '#shared/schemas/activity';
import type { Done } from '#shared/schemas/errors';

// Under the requests' root: whatever changes a request (a quote sent, an answer) refreshes its timeline too.
const timelineKey = (quoteRequestId: string) => [...queryRoots.quoteRequests, 'timeline', quoteRequestId];

export function useRequestTimeline(quoteRequestId: string) {
  return useQuery({
    queryKey: timelineKey(quoteRequestId),
    queryFn: () => api<ActivityTimeline>('GET', `/quoterequest/${encodeURIComponent(quoteRequestId)}/timeline`),
    // E-mails move from queued to sent (or failing) on their own.
    refetchInterval: 15_000,
  });
}

export function useSendAgain(quoteRequestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mailId: string) => api<Done>('POST', `/mail/${encodeURIComponent(mailId)}/send-again`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: timelineKey(quoteRequestId) }),
  });
}
