import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanOfferInput, PlanOfferView, ServicePlanView } from '#shared/schemas/service-plans';
import { api, publicApi } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

// A client's service plans (issue 31): those offered to them, and the offer the office sends.

const offersKey = (clientId: string) => [...queryRoots.clients, clientId, 'plan-offers'] as const;

export function usePlanOffers(clientId: string) {
  return useQuery({
    queryKey: offersKey(clientId),
    queryFn: () => api<{ offers: PlanOfferView[] }>('GET', `/clients/${encodeURIComponent(clientId)}/plan-offers`),
  });
}

/** The plans that can be offered (the price book's, not archived). */
export function useOfferablePlans(enabled: boolean) {
  return useQuery({
    queryKey: queryRoots.servicePlans,
    queryFn: () => api<{ servicePlans: ServicePlanView[] }>('GET', '/service-plans'),
    enabled,
    select: (data) => data.servicePlans.filter((p) => !p.archived),
  });
}

export function usePlanOfferChanges(clientId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: offersKey(clientId) });
  const offer = useMutation({
    mutationFn: (body: PlanOfferInput) =>
      api<PlanOfferView>('POST', `/clients/${encodeURIComponent(clientId)}/plan-offers`, { body }),
    onSuccess: refresh,
  });
  const withdraw = useMutation({
    mutationFn: (offerId: string) => api<null>('POST', `/plan-offers/${encodeURIComponent(offerId)}/withdraw`),
    onSuccess: refresh,
  });
  return { offer, withdraw };
}

/** The client's view of a plan offered to them, by its signed link. */
export function useClientPlanOffer(id: string, token: string) {
  return useQuery({
    queryKey: ['client-plan-offer', id, token],
    queryFn: () =>
      publicApi<PlanOfferView>(
        'GET',
        `/client-plan-offers/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`,
      ),
    retry: false,
  });
}

/** The client signs with their typed name. */
export function useSignPlanOffer(id: string, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (signedName: string) =>
      publicApi<PlanOfferView>('POST', `/client-plan-offers/${encodeURIComponent(id)}/sign`, {
        body: { token, signedName },
      }),
    onSuccess: (signed) => queryClient.setQueryData(['client-plan-offer', id, token], signed),
  });
}
