import { QueryClient } from '@tanstack/react-query';
import { QUERY_RETRIES, QUERY_RETRY_MAX_DELAY_MS, REFETCH_INTERVAL_MS, STALE_TIME_MS } from '#shared/constants';
import { ApiError } from '../lib/api-client';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: REFETCH_INTERVAL_MS,
        staleTime: STALE_TIME_MS,
        // A 4xx will not change on retry; network faults and 5xx might.
        retry: (failures, error) => failures < QUERY_RETRIES && !(error instanceof ApiError && error.status < 500),
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, QUERY_RETRY_MAX_DELAY_MS),
      },
    },
  });
}
