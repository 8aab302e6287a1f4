import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ClientInvoiceView,
  InvoiceDraftInput,
  InvoiceView,
  PaymentInput,
  RefundInput,
} from '#shared/schemas/invoices';
import { api, publicApi } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import type { InvoiceList, JobInvoices } from '#shared/schemas/invoices';

const root = queryRoots.invoices;

/** A page of invoices, searched (number, client, e-mail) and filtered by status ('All': none). */
export function useInvoices(page: number, search = '', status = 'All') {
  const params = new URLSearchParams({ page: String(page), limit: '20' });
  if (search) params.set('search', search);
  if (status !== 'All') params.set('status', status);
  return useQuery({
    queryKey: [...root, 'list', params.toString()],
    queryFn: () => api<InvoiceList>('GET', `/invoices?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
}

export function useInvoice(id: string) {
  return useQuery({
    queryKey: [...root, 'one', id],
    queryFn: () => api<InvoiceView>('GET', `/invoices/${encodeURIComponent(id)}`),
  });
}

export function useJobInvoice(jobId: string) {
  return useQuery({
    queryKey: [...root, 'job', jobId],
    queryFn: () => api<JobInvoices>('GET', `/jobs/${encodeURIComponent(jobId)}/invoice`),
  });
}

/** Every change to an invoice: the lists, the job pages and the dashboard fetch again. */
export function useInvoiceChanges() {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: root });
    void queryClient.invalidateQueries({ queryKey: queryRoots.dashboard });
  };
  // The server answers with the invoice as it now is: the page shows it at once, before the lists refetch.
  const show = (invoice: InvoiceView) => {
    queryClient.setQueryData([...root, 'one', invoice._id], invoice);
    refresh();
  };
  const path = (id: string, rest = '') => `/invoices/${encodeURIComponent(id)}${rest}`;
  return {
    create: useMutation({
      mutationFn: (jobId: string) => api<InvoiceView>('POST', `/jobs/${encodeURIComponent(jobId)}/invoice`),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: InvoiceDraftInput }) =>
        api<InvoiceView>('PUT', path(id), { body }),
      onSuccess: show,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api<null>('DELETE', path(id)),
      onSuccess: refresh,
    }),
    send: useMutation({
      mutationFn: (id: string) => api<InvoiceView>('POST', path(id, '/send')),
      onSuccess: show,
    }),
    pay: useMutation({
      mutationFn: ({ id, body }: { id: string; body: PaymentInput }) =>
        api<InvoiceView>('POST', path(id, '/payments'), { body }),
      onSuccess: show,
    }),
    void: useMutation({
      mutationFn: ({ id, reason }: { id: string; reason: string }) =>
        api<InvoiceView>('POST', path(id, '/void'), { body: { reason } }),
      onSuccess: show,
    }),
  };
}

/** The client's invoice by the token in their link. */
export function useClientInvoice(id: string, token: string) {
  return useQuery({
    queryKey: ['client-invoice', id, token],
    queryFn: () =>
      publicApi<ClientInvoiceView>(
        'GET',
        `/client-invoices/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`,
      ),
    retry: false,
  });
}

/** A refund from the invoice page (decision 035): through Stripe when paid online. */
export function useRefund(invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundInput) =>
      api<{ paymentId: string }>('POST', `/invoices/${encodeURIComponent(invoiceId)}/refunds`, { body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryRoots.invoices });
      void queryClient.invalidateQueries({ queryKey: queryRoots.dashboard });
    },
  });
}
