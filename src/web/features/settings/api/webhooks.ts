import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookCreated, WebhookDeliveryView, WebhookInput, WebhookView } from '#shared/schemas/webhooks';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

const key = [...queryRoots.settings, 'webhooks'];
const enc = encodeURIComponent;

/** Settings → Webhooks (decision 044). */
export function useWebhooks() {
  return useQuery({ queryKey: key, queryFn: () => api<{ webhooks: WebhookView[] }>('GET', '/webhooks') });
}

export function useWebhookDeliveries(id: string, enabled: boolean) {
  const queryClient = useQueryClient();
  const deliveriesKey = [...key, id, 'deliveries'];
  return useQuery({
    queryKey: deliveriesKey,
    queryFn: async () => {
      const before = queryClient.getQueryData<{ deliveries: WebhookDeliveryView[] }>(deliveriesKey);
      const now = await api<{ deliveries: WebhookDeliveryView[] }>('GET', `/webhooks/${enc(id)}/deliveries`);
      // A delivery that moved on changes the list's "Last:" line too: the list looks again.
      if (before && JSON.stringify(before.deliveries) !== JSON.stringify(now.deliveries))
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
      return now;
    },
    enabled,
    // A delivery waiting or retrying changes by itself: the log looks again while it is open.
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.state === 'waiting' || d.state === 'failing') ? 2000 : false,
  });
}

export function useWebhookChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  return {
    add: useMutation({
      mutationFn: (body: WebhookInput) => api<WebhookCreated>('POST', '/webhooks', { body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api<{ ok: true }>('DELETE', `/webhooks/${enc(id)}`),
      onSuccess: refresh,
    }),
    sendAgain: useMutation({
      mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
        api<WebhookDeliveryView>('POST', `/webhooks/${enc(id)}/deliveries/${enc(deliveryId)}/send-again`),
      onSuccess: refresh,
    }),
  };
}
