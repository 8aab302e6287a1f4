import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditKind, AuditList } from '#shared/schemas/audit';
import { api } from '../../../lib/api-client';

/** What the Activity page asks for: the filters, and a numbered page or the entries older than a cursor. */
export interface AuditFilters {
  userId?: string | undefined;
  kind?: AuditKind | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  /** A `nextBefore` the API gave: the entries older than that page's last. */
  before?: string | undefined;
}

/** One page of the audit trail with the filters applied; the last page stays in view while the next loads. */
export function useAuditTrail(filters: AuditFilters) {
  const params = new URLSearchParams({ limit: '50' });
  if (filters.before) params.set('before', filters.before);
  else params.set('page', String(filters.page));
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
