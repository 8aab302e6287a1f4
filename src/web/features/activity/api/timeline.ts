import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import { TIMELINE_EARLIER_PAGE, TIMELINE_NEWEST, type ActivityTimeline } from '#shared/schemas/activity';
import type { Done } from '#shared/schemas/errors';

// Under the requests' root: whatever changes a request (a quote sent, an answer) refreshes its timeline too.
const timelineKey = (quoteRequestId: string) => [...queryRoots.quoteRequests, 'timeline', quoteRequestId];

/** The step the next page ends before: the oldest one shown so far. */
type Before = string | null;

function fetchTimeline(quoteRequestId: string, before: Before, signal: AbortSignal) {
  const query = new URLSearchParams(
    before ? { limit: String(TIMELINE_EARLIER_PAGE), before } : { limit: String(TIMELINE_NEWEST) },
  );
  return api<ActivityTimeline>('GET', `/quoterequest/${encodeURIComponent(quoteRequestId)}/timeline?${query}`, {
    signal,
  });
}

/**
 * The newest steps first, then a page of earlier ones each time `fetchNextPage` is called. A refetch
 * (every 15 s, or after a change) reads every page opened again, each from the one before, so what
 * the person opened stays open and a new step moves the rest along without a gap.
 */
export function useRequestTimeline(quoteRequestId: string) {
  return useInfiniteQuery({
    queryKey: timelineKey(quoteRequestId),
    queryFn: ({ pageParam, signal }) => fetchTimeline(quoteRequestId, pageParam, signal),
    initialPageParam: null as Before,
    getNextPageParam: (page): Before | undefined =>
      page.earlier > 0 && page.events[0] ? page.events[0]._id : undefined,
    // E-mails move from queued to sent (or failing) on their own.
    refetchInterval: 15_000,
  });
}

/** The pages of a timeline as one list, oldest first (the pages come newest first). */
export const stepsOf = (pages: ActivityTimeline[]) => [...pages].reverse().flatMap((page) => page.events);

/**
 * "Send by text instead" on a failing e-mail of a step: the client is texted that it did not arrive.
 * Refreshes the timeline and every list of the client's texts (the request's "Texts" card among them).
 */
export function useTextInstead(quoteRequestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) =>
      api<Done>(
        'POST',
        `/quoterequest/${encodeURIComponent(quoteRequestId)}/timeline/${encodeURIComponent(eventId)}/text-instead`,
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: timelineKey(quoteRequestId) }),
        queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
      ]),
  });
}

export function useSendAgain(quoteRequestId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mailId: string) => api<Done>('POST', `/mail/${encodeURIComponent(mailId)}/send-again`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: timelineKey(quoteRequestId) }),
  });
}
