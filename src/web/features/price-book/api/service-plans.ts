import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServicePlanInput, ServicePlanView } from '#shared/schemas/service-plans';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

// The service plans the business sells (issue 31), kept with the price book.

export function useServicePlans() {
  return useQuery({
    queryKey: queryRoots.servicePlans,
    queryFn: () => api<{ servicePlans: ServicePlanView[] }>('GET', '/service-plans'),
  });
}

export function useServicePlanChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryRoots.servicePlans });
  const save = useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ServicePlanInput }) =>
      id
        ? api<ServicePlanView>('PUT', `/service-plans/${encodeURIComponent(id)}`, { body })
        : api<ServicePlanView>('POST', '/service-plans', { body }),
    onSuccess: refresh,
  });
  const archive = useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      api<ServicePlanView>('POST', `/service-plans/${encodeURIComponent(id)}/archive`, { body: { archived } }),
    onSuccess: refresh,
  });
  return { save, archive };
}
