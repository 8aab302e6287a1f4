import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_SIZE } from '#shared/constants';
import type {
  ClientDetail,
  ClientList,
  ClientUpdateInput,
  ClientView,
  ServiceAddressInput,
} from '#shared/schemas/clients';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

export function useClients(page: number, search: string) {
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (search) params.set('search', search);
  return useQuery({
    queryKey: [...queryRoots.clients, 'list', { page, search }],
    queryFn: () => api<ClientList>('GET', `/clients?${params}`),
    placeholderData: keepPreviousData,
  });
}

export function useClient(id: string) {
  return useQuery({
    queryKey: [...queryRoots.clients, 'detail', id],
    queryFn: () => api<ClientDetail>('GET', `/clients/${encodeURIComponent(id)}`),
  });
}

export function useUpdateClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientUpdateInput) => api<ClientView>('PUT', `/clients/${encodeURIComponent(id)}`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
  });
}

export function useAddServiceAddress(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceAddressInput) =>
      api<ClientView>('POST', `/clients/${encodeURIComponent(id)}/addresses`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
  });
}

/** A service address renamed or corrected: the open jobs at it follow, so their views refresh too. */
export function useChangeServiceAddress(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ addressId, body }: { addressId: string; body: ServiceAddressInput }) =>
      api<ClientView>('PUT', `/clients/${encodeURIComponent(id)}/addresses/${encodeURIComponent(addressId)}`, {
        body,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
        queryClient.invalidateQueries({ queryKey: queryRoots.jobs }),
      ]),
  });
}

export function useRemoveServiceAddress(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (addressId: string) =>
      api<ClientView>('DELETE', `/clients/${encodeURIComponent(id)}/addresses/${encodeURIComponent(addressId)}`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
        queryClient.invalidateQueries({ queryKey: queryRoots.jobs }),
      ]),
  });
}
