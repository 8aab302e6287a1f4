import { useQuery } from '@tanstack/react-query';
import type { QuoteRequestView } from '#shared/schemas/quote-request';
import type { NeedsYouToday } from '#shared/schemas/dashboard';
import type { DashboardStats } from '#shared/schemas/staff-quote-requests';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

export function useDashboardStats() {
  return useQuery({
    queryKey: queryRoots.dashboard,
    queryFn: () => api<DashboardStats>('GET', '/dashboard'),
  });
}

/** The newest requests still waiting for a decision (under the requests' root, so a decision refreshes it). */
export function usePendingRequests(limit: number) {
  return useQuery({
    queryKey: [...queryRoots.quoteRequests, 'by-status', 'Pending', limit],
    queryFn: () => api<QuoteRequestView[]>('GET', `/quoterequest/byStatus?status=Pending&limit=${limit}`),
  });
}

/** "Needs you today": what waits for the owner (under the dashboard's root, which changes refresh). */
export function useNeedsYouToday() {
  return useQuery({
    queryKey: [...queryRoots.dashboard, 'today'],
    queryFn: () => api<NeedsYouToday>('GET', '/dashboard/today'),
  });
}
