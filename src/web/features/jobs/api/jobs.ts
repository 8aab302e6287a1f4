import type { ClientDetail } from '#shared/schemas/clients';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_SIZE, type JobStatus } from '#shared/constants';
import type { JobView } from '#shared/schemas/jobs';
import type { WorkerRef } from '#shared/schemas/users';
import type { UserView } from '#shared/schemas/users';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import type { JobList, JobRef } from '#shared/schemas/jobs';

export const jobKeys = {
  all: queryRoots.jobs,
  list: (page: number, search: string, status: string) => ['jobs', 'list', { page, search, status }] as const,
  detail: (id: string) => ['jobs', 'detail', id] as const,
  mine: (all: boolean) => ['jobs', 'mine', all] as const,
};

export function useJobs(page: number, search: string, status: JobStatus | 'All') {
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (search) params.set('search', search);
  if (status !== 'All') params.set('status', status);
  return useQuery({
    queryKey: jobKeys.list(page, search, status),
    queryFn: () => api<JobList>('GET', `/jobs?${params}`),
    placeholderData: keepPreviousData,
  });
}

export function useJob(id: string) {
  return useQuery({
    queryKey: jobKeys.detail(id),
    queryFn: () => api<JobView>('GET', `/jobs/${encodeURIComponent(id)}`),
    retry: false,
  });
}

function useJobUpdate<T>(id: string, call: (body: T) => Promise<JobView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.detail(id), job);
      void queryClient.invalidateQueries({ queryKey: jobKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryRoots.dashboard });
    },
  });
}

export const useAssignWorkers = (id: string) =>
  useJobUpdate(id, (workers: WorkerRef[]) =>
    api<JobView>('POST', `/jobs/${encodeURIComponent(id)}/assign`, { body: { workers } }),
  );

export const useChangeJobStatus = (id: string) =>
  useJobUpdate(id, ({ status, reason }: { status: JobStatus; reason?: string }) =>
    api<JobView>('PATCH', `/jobs/${encodeURIComponent(id)}/status`, { body: { status, reason } }),
  );

/** Undo a cancellation: the job goes back to the status it had. */
export const useUndoCancel = (id: string) =>
  useJobUpdate(id, () => api<JobView>('POST', `/jobs/${encodeURIComponent(id)}/undo-cancel`));

/**
 * Employees by name and skills (all of them before anything is typed), to put on a job; under the
 * users' root, so a change to a user refreshes it.
 */
export function useEmployeeSearch(name: string, tags: string[]) {
  const params = new URLSearchParams({ fullName: name });
  if (tags.length) params.set('tags', tags.join(','));
  return useQuery({
    queryKey: [...queryRoots.users, 'employees', name, tags],
    queryFn: () => api<UserView[]>('GET', `/users/search-employees?${params}`),
    placeholderData: keepPreviousData,
  });
}

/** The job a request became, or null (the request page links to it). */
export function useJobOfRequest(quoteRequestId: string) {
  return useQuery({
    queryKey: [...queryRoots.jobs, 'by-request', quoteRequestId],
    queryFn: () => api<JobRef | null>('GET', `/jobs/by-quote-request/${encodeURIComponent(quoteRequestId)}`),
  });
}

/** The job's client's service addresses, to move an open job to another of them (decision 037). */
export function useJobClientPlaces(clientId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: [...queryRoots.clients, 'detail', clientId],
    queryFn: () => api<ClientDetail>('GET', `/clients/${encodeURIComponent(clientId!)}`),
    enabled: enabled && clientId !== null,
    select: (client) => client.addresses,
  });
}

export const useMoveJobAddress = (id: string) =>
  useJobUpdate(id, (serviceAddressId: string) =>
    api<JobView>('PATCH', `/jobs/${encodeURIComponent(id)}/address`, { body: { serviceAddressId } }),
  );
