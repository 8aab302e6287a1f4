import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoStepConfirmed, TwoStepEnrolment, TwoStepState } from '#shared/schemas/two-step';
import { api } from '../../../lib/api-client';
import { userRoleKey } from './session';

const key = ['account', 'two-step'] as const;

export function useTwoStep() {
  return useQuery({ queryKey: key, queryFn: () => api<TwoStepState>('GET', '/account/two-step') });
}

export function useStartTwoStep() {
  return useMutation({ mutationFn: () => api<TwoStepEnrolment>('POST', '/account/two-step/start') });
}

export function useConfirmTwoStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api<TwoStepConfirmed>('POST', '/account/two-step/confirm', { body: { code } }),
    // The guard asked whether Settings' requirement is met: now it is, and every screen opens again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userRoleKey }),
  });
}

export function useDisableTwoStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { password: string; code: string }) =>
      api<TwoStepState>('POST', '/account/two-step/disable', { body }),
    onSuccess: (state) => queryClient.setQueryData(key, state),
  });
}

/** Ten new recovery codes for a code from the app; the old ones stop working. */
export function useRenewRecoveryCodes() {
  return useMutation({
    mutationFn: (code: string) => api<TwoStepConfirmed>('POST', '/account/two-step/recovery-codes', { body: { code } }),
  });
}

/** After the recovery codes were shown: the state read again (on, ten codes left). */
export function useRefreshTwoStep() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key });
}
