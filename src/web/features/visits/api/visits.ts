import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserView } from '#shared/schemas/users';
import type {
  FeedAddress,
  HelpersInput,
  LeadCrewView,
  VisitChangeInput,
  VisitInput,
  VisitView,
} from '#shared/schemas/visits';
import type { OnMyWayView } from '#shared/schemas/texts';
import { api } from '../../../lib/api-client';
import { withOfflineCopy } from '../../../lib/offline-copy';
import { queryRoots } from '../../../lib/query-roots';
import type { CrewJobList, JobList } from '#shared/schemas/jobs';

export type VisitList = { visits: VisitView[] };

/** The visits a calendar shows: the visible range only; all of them (office) or mine (crew). */
export function useVisitsInRange(
  range: { from: string; to: string } | null,
  scope: 'all' | 'mine',
  workerId?: string,
  /** Where the phone keeps the answer to show it without signal (lib/offline-copy). */
  copy?: string,
) {
  const params = new URLSearchParams(range ?? {});
  if (workerId) params.set('workerId', workerId);
  const read = () => api<VisitList>('GET', `${scope === 'mine' ? '/my/visits' : '/visits'}?${params}`);
  return useQuery({
    queryKey: [...queryRoots.visits, scope, range, workerId ?? null],
    queryFn: () => (copy ? withOfflineCopy(copy, read) : read()),
    ...(copy ? { networkMode: 'offlineFirst' as const } : {}),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}

/** Where the phone keeps the crew's last Today and Upcoming, and their open jobs. */
export const myVisitsCopy = 'my-visits';
export const myOpenJobsCopy = 'my-jobs:false';

/** My open jobs (their work lines and photos), for the visit cards. */
export function useMyOpenJobs() {
  return useQuery({
    queryKey: ['my-jobs', false],
    queryFn: () => withOfflineCopy(myOpenJobsCopy, () => api<CrewJobList>('GET', '/my/jobs?all=false')),
    networkMode: 'offlineFirst',
  });
}

export function useJobVisits(jobId: string) {
  return useQuery({
    queryKey: [...queryRoots.visits, 'job', jobId],
    queryFn: () => api<VisitList>('GET', `/jobs/${encodeURIComponent(jobId)}/visits`),
  });
}

/** A request's estimate visits (booked online with it, issue 31), cancelled ones too. */
export function useRequestVisits(quoteRequestId: string) {
  return useQuery({
    queryKey: [...queryRoots.visits, 'request', quoteRequestId],
    queryFn: () => api<VisitList>('GET', `/quoterequest/${encodeURIComponent(quoteRequestId)}/visits`),
  });
}

/** Book (for a job), move or cancel a visit; every calendar and job page fetches its visits again. */
export function useVisitChanges() {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryRoots.visits });
    void queryClient.invalidateQueries({ queryKey: queryRoots.jobs });
  };
  const book = useMutation({
    mutationFn: ({ jobId, body }: { jobId: string; body: VisitInput }) =>
      api<VisitView>('POST', `/jobs/${encodeURIComponent(jobId)}/visits`, { body }),
    onSuccess: refresh,
  });
  const change = useMutation({
    mutationFn: ({ visitId, body }: { visitId: string; body: VisitChangeInput }) =>
      api<VisitView>('PATCH', `/visits/${encodeURIComponent(visitId)}`, { body }),
    onSuccess: refresh,
  });
  const cancel = useMutation({
    mutationFn: ({ visitId, reason }: { visitId: string; reason: string }) =>
      api<VisitView>('POST', `/visits/${encodeURIComponent(visitId)}/cancel`, { body: { reason } }),
    onSuccess: refresh,
  });
  const approve = useMutation({
    mutationFn: (visitId: string) => api<VisitView>('POST', `/visits/${encodeURIComponent(visitId)}/approve`),
    onSuccess: refresh,
  });
  return { book, change, cancel, approve };
}

/** The crew to choose from (every employee). */
export function useEmployees(enabled = true) {
  return useQuery({
    queryKey: [...queryRoots.users, 'employees', '', []],
    queryFn: () => api<UserView[]>('GET', '/users/search-employees?fullName='),
    enabled,
  });
}

/** Open jobs to book a visit for from the calendar. */
export function useOpenJobs(enabled: boolean) {
  return useQuery({
    queryKey: [...queryRoots.jobs, 'open-for-visits'],
    queryFn: () => api<JobList>('GET', '/jobs?page=1&limit=100&open=true'),
    enabled,
  });
}

export function useFeedUrl(scope: 'company' | 'mine') {
  const queryClient = useQueryClient();
  const path = scope === 'company' ? '/calendar-feeds/company' : '/my/calendar-feed';
  const key = [...queryRoots.visits, 'feed', scope];
  const feed = useQuery({ queryKey: key, queryFn: () => api<FeedAddress>('GET', path) });
  const regenerate = useMutation({
    mutationFn: () => api<FeedAddress>('POST', `${path}/regenerate`),
    onSuccess: (data) => queryClient.setQueryData(key, data),
  });
  return { feed, regenerate };
}

/** A Crew lead's coming visits of a job with their crews, and the Crew they may add (decision 042). */
export function useLeadCrew(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryRoots.visits, 'lead-crew', jobId],
    queryFn: () => api<LeadCrewView>('GET', `/my/jobs/${encodeURIComponent(jobId)}/crew`),
    enabled,
  });
}

/** A Crew lead sets the helpers on one of their visits; their visit lists fetch again. */
export function useSetHelpers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ visitId, body }: { visitId: string; body: HelpersInput }) =>
      api<VisitView>('PUT', `/my/visits/${encodeURIComponent(visitId)}/helpers`, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.visits }),
  });
}

/** "On my way" for one of my visits today (decision 045): whether it can go, and how the one sent stands. */
export function useOnMyWay(visitId: string) {
  const queryClient = useQueryClient();
  const queryKey = [...queryRoots.visits, 'on-my-way', visitId];
  const url = `/my/visits/${encodeURIComponent(visitId)}/on-my-way`;
  const state = useQuery({
    queryKey,
    queryFn: () => api<OnMyWayView>('GET', url),
    networkMode: 'always',
    retry: false,
    // Delivery is reported a few seconds after sending: looked at again while the card is open.
    refetchInterval: (query) => (query.state.data?.sentAt && query.state.data.state !== 'delivered' ? 10_000 : false),
  });
  const send = useMutation({
    mutationFn: (minutes: number) => api<OnMyWayView>('POST', url, { body: { minutes } }),
    // Tried even when the phone says it is offline: no signal is said at once, not a button that spins.
    networkMode: 'always',
    onSuccess: (view) => queryClient.setQueryData(queryKey, view),
    onError: () => queryClient.invalidateQueries({ queryKey }),
  });
  return { state, send };
}
