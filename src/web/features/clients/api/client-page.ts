import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VisitChangeOptions } from '#shared/schemas/booking';
import type { ClientPageView } from '#shared/schemas/client-page';
import type { QuoteRequestInput } from '#shared/schemas/quote-request';
import { api, publicApi } from '../../../lib/api-client';

/** The client's own page by its signed link (decision 036). */
export function useClientPage(id: string, token: string) {
  return useQuery({
    queryKey: ['client-page', id, token],
    queryFn: () =>
      publicApi<ClientPageView>('GET', `/client-page/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`),
    retry: false,
  });
}

/** Staff: a client's page as they see it (read-only; each opening is in the trail). */
export function useTheirPage(clientId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['clients', clientId, 'their-page'],
    queryFn: () => api<ClientPageView>('GET', `/clients/${encodeURIComponent(clientId)}/their-page`),
    enabled,
    staleTime: 0,
  });
}

/** An expired link's "E-mail me a fresh link". */
export function useFreshLink(id: string, token: string) {
  return useMutation({
    mutationFn: () =>
      publicApi<{ message: string }>('POST', `/client-page/${encodeURIComponent(id)}/fresh-link`, { body: { token } }),
  });
}

/** "Request new work" from the client's page: the public form's request, with their details. */
export function useRequestNewWork() {
  return useMutation({
    mutationFn: (body: QuoteRequestInput) =>
      publicApi<{ quoteRequest: { _id: string; quoteNumber: string } }>('POST', '/quoterequest/create', { body }),
  });
}

/** Confirm on the client's page (decision 045): the page's own token proves whose visit it is. */
export function useConfirmVisit(id: string, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (visitId: string) =>
      publicApi<{ confirmed: true; when: string }>(
        'POST',
        `/client-page/${encodeURIComponent(id)}/visits/${encodeURIComponent(visitId)}/confirm`,
        { body: { token } },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['client-page', id] }),
  });
}

const visitPath = (id: string, visitId: string, what: string) =>
  `/client-page/${encodeURIComponent(id)}/visits/${encodeURIComponent(visitId)}/${what}`;

/** Whether the client may move or cancel a visit now, and the windows it may move to (decision 046). */
export function useVisitChangeOptions(id: string, token: string, visitId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['client-page', id, token, 'visit', visitId, 'changes'],
    queryFn: () =>
      publicApi<VisitChangeOptions>('GET', `${visitPath(id, visitId, 'changes')}?token=${encodeURIComponent(token)}`),
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/** The client moves their visit to a window, or cancels it saying why. */
export function useVisitChanges(id: string, token: string, visitId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['client-page', id] });
  return {
    reschedule: useMutation({
      mutationFn: (pick: { date: string; start: string }) =>
        publicApi<{ when: string }>('POST', visitPath(id, visitId, 'reschedule'), { body: { token, ...pick } }),
      onSuccess: refresh,
    }),
    cancel: useMutation({
      mutationFn: (reason: string) =>
        publicApi<{ cancelled: true }>('POST', visitPath(id, visitId, 'cancel'), { body: { token, reason } }),
      onSuccess: refresh,
    }),
  };
}
