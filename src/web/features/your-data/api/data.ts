import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupsView } from '../../../../shared/schemas/backups';
import type { ClientImportPreview, ClientImportResult } from '../../../../shared/schemas/client-import';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

export function useBackups() {
  return useQuery({
    queryKey: ['backups'],
    queryFn: () => api<BackupsView>('GET', '/backups', { redirectOn401: true }),
  });
}

export function usePreviewImport() {
  return useMutation({
    mutationFn: (file: File) =>
      api<ClientImportPreview>('POST', '/clients/import/preview', { file, redirectOn401: true }),
  });
}

export function useImportClients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api<ClientImportResult>('POST', '/clients/import', { file, redirectOn401: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
  });
}
