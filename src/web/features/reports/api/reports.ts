import { useQuery } from '@tanstack/react-query';
import type { ReportView } from '#shared/schemas/reports';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

export function useReports() {
  return useQuery({
    queryKey: [...queryRoots.invoices, 'reports'],
    queryFn: () => api<ReportView>('GET', '/reports'),
  });
}
