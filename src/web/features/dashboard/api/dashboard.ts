import { useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '../../../../shared/schemas/staff-quote-requests';
import { api } from '../../../lib/api-client';

export function useDashboardStats() {
  return useQuery({
    queryKey: ['dashboard'],
    queryFn: () => api<DashboardStats>('GET', '/dashboard', { redirectOn401: true }),
  });
}
