import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreated, ApiKeyInput, ApiKeyList } from '#shared/schemas/auth';
import type { Done } from '#shared/schemas/errors';
import { api } from '../../../lib/api-client';

const key = ['account', 'api-keys'] as const;

/** The signed-in admin's live API keys. */
export function useApiKeys(enabled: boolean) {
  return useQuery({ queryKey: key, queryFn: () => api<ApiKeyList>('GET', '/account/api-keys'), enabled });
}

export function useMakeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyInput) => api<ApiKeyCreated>('POST', '/account/api-keys', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Done>('DELETE', `/account/api-keys/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
