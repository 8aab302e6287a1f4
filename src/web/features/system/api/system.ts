import { useQuery } from '@tanstack/react-query';
import type { SystemView } from '#shared/schemas/system';
import { api } from '../../../lib/api-client';

/** The System page's lines, looked at again every 30 seconds while the page is open. */
export function useSystem() {
  return useQuery({
    queryKey: ['system'],
    queryFn: () => api<SystemView>('GET', '/system'),
    refetchInterval: 30_000,
  });
}
