import { useMutation, useQuery } from '@tanstack/react-query';
import type { LoginInput, LoginResponse, UserRoleResponse } from '#shared/schemas/auth';
import { api, publicApi, tokenStore } from '../../../lib/api-client';

export function login(body: LoginInput) {
  return publicApi<LoginResponse>('POST', '/login', { body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

/** How long the server gets to end the session; on a lost signal the sign-out does not wait for it. */
export const LOGOUT_TIMEOUT_MS = 10_000;

/**
 * Signs out at once: the browser forgets the token now, and the server is asked, in the background,
 * to end the session so the token is dead everywhere. Offline or on a dead connection nothing
 * waits for it: the token is forgotten all the same (and dies at its expiry).
 */
export function logout(): void {
  const token = tokenStore.get();
  tokenStore.clear();
  if (!token) return;
  api('POST', '/logout', { token, redirectOn401: false, signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS) }).catch(() => {
    // Already signed out, or no network: nothing more to do here.
  });
}

export const userRoleKey = ['user-role'] as const;

export function fetchUserRole() {
  // The route guard decides itself what a refused token means (it keeps the crew in on a lost signal).
  return api<UserRoleResponse>('GET', '/login/user-role', { redirectOn401: false });
}

/** The signed-in user's role as the server sees it now; disabled without a stored token. */
export function useUserRole() {
  const hasToken = Boolean(tokenStore.get());
  return useQuery({
    queryKey: userRoleKey,
    queryFn: fetchUserRole,
    enabled: hasToken,
    // Asked even when the phone says it is offline: the failure lets the guard use the role it knows.
    networkMode: 'always',
    retry: false,
    staleTime: 0,
    refetchInterval: false,
    gcTime: 0,
  });
}
