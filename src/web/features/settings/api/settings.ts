import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettingsInput, SettingsView } from '#shared/schemas/settings';
import type { TwoStepState } from '#shared/schemas/two-step';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import { updateSiteConfig } from '../../../lib/site-config';

const settingsKey = queryRoots.settings;

export function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: () => api<SettingsView>('GET', '/settings') });
}

/** The saved settings become this tab's too: the header's name, the builder's tax rate. */
function useApplySettings() {
  const queryClient = useQueryClient();
  return (view: SettingsView) => {
    queryClient.setQueryData(settingsKey, view);
    updateSiteConfig({
      businessName: view.businessName,
      businessEmail: view.businessEmail,
      businessPhone: view.businessPhone,
      serviceAreaHeadline: view.serviceAreaHeadline,
      logoUrl: view.logoUrl,
      taxRateBasisPoints: Math.round(view.taxRatePercent * 100),
      materialsTaxable: view.materialsTaxable,
      laborTaxable: view.laborTaxable,
      quoteValidityDays: view.quoteValidityDays,
      timeZone: view.timeZone,
    });
  };
}

export function useSaveSettings() {
  const apply = useApplySettings();
  return useMutation({
    mutationFn: (body: SettingsInput) => api<SettingsView>('PUT', '/settings', { body }),
    onSuccess: apply,
  });
}

export function useSetLogo() {
  const apply = useApplySettings();
  return useMutation({
    mutationFn: (image: string) => api<SettingsView>('PUT', '/settings/logo', { body: { image } }),
    onSuccess: apply,
  });
}

export function useRemoveLogo() {
  const apply = useApplySettings();
  return useMutation({
    mutationFn: () => api<SettingsView>('DELETE', '/settings/logo'),
    onSuccess: apply,
  });
}

/** Whether the admin looking has two-step sign-in on: requiring it of others needs it first. */
export function useOwnTwoStep() {
  return useQuery({
    queryKey: ['account', 'two-step'],
    queryFn: () => api<TwoStepState>('GET', '/account/two-step'),
  });
}
