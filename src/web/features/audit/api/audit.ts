import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditList, AuditQuery } from '#shared/schemas/audit';
import { api } from '../../../lib/api-client';

export type AuditFilters = Omit<AuditQuery, 'limit'>;

/** One page of the audit trail with the filters applied; the last page stays in view while the next loads. */
export function useAuditTrail(filters: AuditFilters) {
  const params = new URLSearchParams({ page: String(filters.page), limit: '50' });
  for (const key of ['userId', 'kind', 'from', 'to'] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return useQuery({
    queryKey: ['audit', params.toString()],
    queryFn: () => api<AuditList>('GET', `/audit?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
}
