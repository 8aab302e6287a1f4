import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StatusTimeline } from '#shared/schemas/status-timeline';
import { publicApi } from '../../../lib/api-client';

export const statusTimelineQuery = (numberOrId: string) =>
  queryOptions({
    queryKey: ['status-timeline', numberOrId.trim()],
    queryFn: () =>
      publicApi<StatusTimeline>('GET', `/quoterequest/status/${encodeURIComponent(numberOrId.trim())}/timeline`),
  });

/** The client's status page: the statuses and the timeline (links and amounts only by the e-mailed link). */
export function useStatusTimeline(numberOrId: string) {
  return useQuery(statusTimelineQuery(numberOrId));
}
