import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TextSettingsInput, TextSettingsView } from '#shared/schemas/texts';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

const key = [...queryRoots.settings, 'texts'];

/** Settings → Text messages (decision 045): the auth token is written, never read back. */
export function useTextSettings() {
  return useQuery({ queryKey: key, queryFn: () => api<TextSettingsView>('GET', '/settings/texts') });
}

export function useTextSettingsChanges() {
  const queryClient = useQueryClient();
  const apply = (view: TextSettingsView) => queryClient.setQueryData(key, view);
  return {
    save: useMutation({
      mutationFn: (body: TextSettingsInput) => api<TextSettingsView>('PUT', '/settings/texts', { body }),
      onSuccess: apply,
    }),
    turnOff: useMutation({
      mutationFn: () => api<TextSettingsView>('DELETE', '/settings/texts'),
      onSuccess: apply,
    }),
    test: useMutation({
      mutationFn: (to: string) => api<{ ok: true; message: string }>('POST', '/settings/texts/test', { body: { to } }),
    }),
  };
}
