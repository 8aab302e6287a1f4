import { useMutation, useQuery } from '@tanstack/react-query';
import type { LoginInput, LoginResponse, UserRoleResponse } from '../../../../shared/schemas/auth';
import { api, tokenStore } from '../../../lib/api-client';

export function login(body: LoginInput) {
  return api<LoginResponse>('POST', '/login', { body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

export const userRoleKey = ['user-role'] as const;

export function fetchUserRole() {
  return api<UserRoleResponse>('GET', '/login/user-role');
}

/** The signed-in user's role as the server sees it now; disabled without a stored token. */
export function useUserRole() {
  const hasToken = Boolean(tokenStore.get());
  return useQuery({ queryKey: userRoleKey, queryFn: fetchUserRole, enabled: hasToken, retry: false, staleTime: 0, refetchInterval: false, gcTime: 0 });
}
