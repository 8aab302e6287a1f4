import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuoteRequestStatus, QuoteStatus } from '#shared/constants';
import type { QuoteRequestInput, QuoteRequestView } from '#shared/schemas/quote-request';
import type { QuoteRequestDetail } from '#shared/schemas/staff-quote-requests';
import { PAGE_SIZE } from '#shared/constants';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import type { CreatedQuoteRequest } from '#shared/schemas/quote-request';
import type { QuoteRequestList } from '#shared/schemas/staff-quote-requests';
import type { ClientDetail } from '#shared/schemas/clients';

export const quoteRequestKeys = {
  all: queryRoots.quoteRequests,
  list: (page: number, filter: object, search: string) => ['quote-requests', 'list', { page, filter, search }] as const,
  detail: (id: string) => ['quote-requests', 'detail', id] as const,
};

export function useQuoteRequestList(
  page: number,
  filter: { status: QuoteRequestStatus | 'All'; quoteState?: QuoteStatus },
  search: string,
) {
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE), status: filter.status });
  if (filter.quoteState) params.set('quoteState', filter.quoteState);
  if (search) params.set('search', search);
  return useQuery({
    queryKey: quoteRequestKeys.list(page, filter, search),
    queryFn: () => api<QuoteRequestList>('GET', `/quoterequest/all?${params}`),
    placeholderData: keepPreviousData,
  });
}

export function useQuoteRequest(id: string) {
  return useQuery({
    queryKey: quoteRequestKeys.detail(id),
    queryFn: () => api<QuoteRequestDetail>('GET', `/quoterequest/${encodeURIComponent(id)}`),
  });
}

/** Accept or decline: on success the request's views (detail, lists, dashboard) are fetched again. */
export function useDecideQuoteRequest(id: string) {
  const queryClient = useQueryClient();
  const onSuccess = (updated: QuoteRequestView) => {
    queryClient.setQueryData<QuoteRequestDetail>(quoteRequestKeys.detail(id), (old) =>
      old ? { ...old, quoteStatus: updated.quoteStatus } : old,
    );
    void queryClient.invalidateQueries({ queryKey: quoteRequestKeys.all });
    void queryClient.invalidateQueries({ queryKey: queryRoots.dashboard });
    // A decline calls off the request's estimate visit: its section and the calendars follow.
    void queryClient.invalidateQueries({ queryKey: queryRoots.visits });
  };
  const accept = useMutation({
    mutationFn: () => api<QuoteRequestView>('PUT', `/quoterequest/markAccepted/${encodeURIComponent(id)}`),
    onSuccess,
  });
  const decline = useMutation({
    mutationFn: (body: { clientEmail: string; clientName: string; reasonForDecline: string }) =>
      api<QuoteRequestView>('POST', '/quoterequest/markDeclined', { body: { quoteRequestId: id, ...body } }),
    onSuccess,
  });
  return { accept, decline };
}

/** A request the office enters for a client who phoned. */
export function useEnterQuoteRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuoteRequestInput & { emailClient: boolean; clientId?: string; serviceAddressId?: string }) =>
      api<CreatedQuoteRequest>('POST', '/quoterequest/staff-entry', { body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: quoteRequestKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryRoots.dashboard });
    },
  });
}

/** The existing client a request is entered for (the office chose them on their page): their contact and places. */
export function useClientForRequest(clientId: string | null) {
  return useQuery({
    queryKey: [...queryRoots.clients, 'detail', clientId],
    queryFn: () => api<ClientDetail>('GET', `/clients/${encodeURIComponent(clientId!)}`),
    enabled: clientId !== null,
  });
}
