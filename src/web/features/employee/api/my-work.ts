import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CrewJob } from '#shared/schemas/jobs';
import type { WeeklySchedule } from '#shared/schemas/schedule';
import { api } from '../../../lib/api-client';
import { withOfflineCopy } from '../../../lib/offline-copy';
import type { CrewJobList } from '#shared/schemas/jobs';
import type { ScheduleResponse } from '#shared/schemas/schedule';
import type { TimeOffInput, TimeOffList, TimeOffView } from '#shared/schemas/time-off';

export type { CrewJob };

/** Where the phone keeps the last list it saw (lib/offline-copy). */
export const myJobsCopy = (all: boolean) => `my-jobs:${all}`;

export function useMyJobs(all: boolean) {
  return useQuery({
    queryKey: ['my-jobs', all],
    queryFn: () => withOfflineCopy(myJobsCopy(all), () => api<CrewJobList>('GET', `/my/jobs?all=${all}`)),
    // Asked even without signal: the answer is then the list this phone kept.
    networkMode: 'offlineFirst',
  });
}

export function useUpdateMyJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'In Progress' | 'Completed' }) =>
      api<CrewJob>('PATCH', `/my/jobs/${encodeURIComponent(id)}/status`, { body: { status } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['my-jobs'] }),
  });
}

export function useMySchedule() {
  return useQuery({
    queryKey: ['my-schedule'],
    queryFn: () => api<ScheduleResponse>('GET', '/my/schedule'),
    refetchInterval: false,
  });
}

export function useSaveMySchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedule: WeeklySchedule) => api<ScheduleResponse>('PUT', '/my/schedule', { body: { schedule } }),
    onSuccess: (data) => queryClient.setQueryData(['my-schedule'], data),
  });
}

/** My time off from today on (issue 31): clients are offered no visit with me then. */
export function useMyTimeOff() {
  return useQuery({ queryKey: ['my-time-off'], queryFn: () => api<TimeOffList>('GET', '/my/time-off') });
}

export function useTimeOffChanges() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['my-time-off'] });
  return {
    add: useMutation({
      mutationFn: (body: TimeOffInput) => api<TimeOffView>('POST', '/my/time-off', { body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api<null>('DELETE', `/my/time-off/${encodeURIComponent(id)}`),
      onSuccess: refresh,
    }),
  };
}
