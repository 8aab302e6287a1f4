import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupsView } from '#shared/schemas/backups';
import type { ClientImportPreview, ClientImportResult } from '#shared/schemas/client-import';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

export function useBackups() {
  return useQuery({
    queryKey: ['backups'],
    queryFn: () => api<BackupsView>('GET', '/backups'),
  });
}

export function usePreviewImport() {
  return useMutation({
    mutationFn: (file: File) => api<ClientImportPreview>('POST', '/clients/import/preview', { file }),
  });
}

export function useImportClients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => api<ClientImportResult>('POST', '/clients/import', { file }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.clients }),
  });
}
