import { useMutation, useQuery } from '@tanstack/react-query';
import type { LoginInput, LoginResponse, UserRoleResponse } from '../../../../shared/schemas/auth';
import { api, tokenStore } from '../../../lib/api-client';

export function login(body: LoginInput) {
  return api<LoginResponse>('POST', '/login', { body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

/**
 * Signs out: the server ends the session, so the token is dead everywhere, then the browser
 * forgets it. Offline, the token is forgotten all the same (and dies at its expiry).
 */
export async function logout(): Promise<void> {
  try {
    await api('POST', '/logout');
  } catch {
    // Already signed out, or no network: nothing more to do here.
  } finally {
    tokenStore.clear();
  }
}

export const userRoleKey = ['user-role'] as const;

export function fetchUserRole() {
  return api<UserRoleResponse>('GET', '/login/user-role');
}

/** The signed-in user's role as the server sees it now; disabled without a stored token. */
export function useUserRole() {
  const hasToken = Boolean(tokenStore.get());
  return useQuery({
    queryKey: userRoleKey,
    queryFn: fetchUserRole,
    enabled: hasToken,
    retry: false,
    staleTime: 0,
    refetchInterval: false,
    gcTime: 0,
  });
}
