import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { formatLongDate } from '#shared/dates';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { ClientLink } from '../../../components/client-link';
import { ListTable } from '../../../components/list-table';
import { DownloadButtons, MONEY_FILES } from '../../../components/download-buttons';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { INVOICE_STATUSES } from '#shared/constants';
import { useInvoices } from '../api/invoices';

const FILTERS = ['All', ...INVOICE_STATUSES] as const;

/** Every invoice, newest first: number, client, status, total, balance, due date; searched and filtered. */
export default function InvoicesPage() {
  const list = useListControls(FILTERS, 'All');
  const { debounced, page, filter } = list;
  const invoices = useInvoices(page, debounced, filter);
  const filtered = Boolean(debounced) || filter !== 'All';
  return (
    <>
      <PageHeader title="Invoices" actions={<DownloadButtons files={MONEY_FILES} />} />
      <ListToolbar
        controls={list}
        searchLabel="Search invoices"
        searchPlaceholder="Number, client or e-mail"
        filter={{ label: 'Status', options: FILTERS }}
        count={countOf(invoices.data?.total, 'invoice', 'invoices')}
      />
      <ListTable
        label="Invoices"
        columns={['Number', 'Client', 'Status', 'Total', 'Balance', 'Due', 'Action']}
        rows={invoices.data?.invoices}
        loading={invoices.isPending}
        rowKey={(i) => i._id}
        empty={filtered ? 'No invoices match.' : "No invoices yet: create one from a completed job's page."}
        renderRow={(i) => [
          i.number ?? 'Draft',
          <ClientLink key="c" clientId={i.clientId} name={i.clientName} />,
          <StatusText key="s" status={i.status} size="sm" />,
          formatDollars(i.total),
          formatDollars(i.balance),
          i.dueDate ? formatLongDate(i.dueDate) : '—',
          <Anchor key="a" component={Link} to={paths.admin.invoice(i._id)} fw={600}>
            View
          </Anchor>,
        ]}
      />
      <PaginationBar page={page} totalPages={invoices.data?.totalPages ?? 1} onChange={list.setPage} />
    </>
  );
}
