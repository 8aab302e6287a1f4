import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OnlinePaymentsInput, OnlinePaymentsView } from '#shared/schemas/payments';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

const key = [...queryRoots.settings, 'online-payments'];

/** Settings → Online payments (decision 035): the key is written, never read back. */
export function useOnlinePayments() {
  return useQuery({ queryKey: key, queryFn: () => api<OnlinePaymentsView>('GET', '/settings/online-payments') });
}

export function useOnlinePaymentsChanges() {
  const queryClient = useQueryClient();
  const apply = (view: OnlinePaymentsView) => queryClient.setQueryData(key, view);
  return {
    save: useMutation({
      mutationFn: (body: OnlinePaymentsInput) => api<OnlinePaymentsView>('PUT', '/settings/online-payments', { body }),
      onSuccess: apply,
    }),
    turnOff: useMutation({
      mutationFn: () => api<OnlinePaymentsView>('DELETE', '/settings/online-payments'),
      onSuccess: apply,
    }),
    test: useMutation({
      mutationFn: () => api<{ ok: true; message: string }>('POST', '/settings/online-payments/test'),
    }),
  };
}
