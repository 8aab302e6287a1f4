import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VisitPlanInput, VisitPlanView } from '#shared/schemas/visit-plans';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

const plansKey = (jobId: string) => [...queryRoots.visits, 'plans', jobId];

/** A job's repeating visits (decision 047), stopped ones too. */
export function useJobPlans(jobId: string) {
  return useQuery({
    queryKey: plansKey(jobId),
    queryFn: () => api<{ plans: VisitPlanView[] }>('GET', `/jobs/${encodeURIComponent(jobId)}/plans`),
  });
}

/** Start or stop a job's repeating visits; its visits, the calendars, the job's page and its invoices follow. */
export function usePlanChanges(jobId: string) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryRoots.visits });
    void queryClient.invalidateQueries({ queryKey: queryRoots.jobs });
    // A plan billed by the month invoices its first month as it starts.
    void queryClient.invalidateQueries({ queryKey: queryRoots.invoices });
  };
  const start = useMutation({
    mutationFn: (body: VisitPlanInput) =>
      api<VisitPlanView>('POST', `/jobs/${encodeURIComponent(jobId)}/plans`, { body }),
    onSuccess: refresh,
  });
  const stop = useMutation({
    mutationFn: (planId: string) => api<VisitPlanView>('POST', `/plans/${encodeURIComponent(planId)}/stop`),
    onSuccess: refresh,
  });
  /** "This and following": from the rule's first date on, the visits repeat as the body says. */
  const change = useMutation({
    mutationFn: ({ planId, body }: { planId: string; body: VisitPlanInput }) =>
      api<VisitPlanView>('POST', `/plans/${encodeURIComponent(planId)}/change`, { body }),
    onSuccess: refresh,
  });
  return { start, stop, change };
}
