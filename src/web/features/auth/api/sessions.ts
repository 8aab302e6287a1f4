import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionList } from '#shared/schemas/auth';
import type { Done } from '#shared/schemas/errors';
import { api } from '../../../lib/api-client';

const key = ['account', 'sessions'] as const;

/** Where the signed-in person is signed in. */
export function useOwnSessions() {
  return useQuery({ queryKey: key, queryFn: () => api<SessionList>('GET', '/account/sessions') });
}

/** Signs out one of their other sessions; the list is read again either way (it may have ended already). */
export function useEndOwnSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Done>('DELETE', `/account/sessions/${encodeURIComponent(id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
