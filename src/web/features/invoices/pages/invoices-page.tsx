import { Anchor } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatLongDate } from '../../../../shared/dates';
import { formatMoney, toCents } from '../../../../shared/money';
import { paths } from '../../../../shared/paths';
import { ListTable } from '../../../components/list-table';
import { DownloadButtons, MONEY_FILES } from '../../../components/download-buttons';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { useInvoices } from '../api/invoices';

/** Every invoice, newest first: number, client, status, total, balance, due date. */
export default function InvoicesPage() {
  const [page, setPage] = useState(1);
  const invoices = useInvoices(page);
  return (
    <>
      <PageHeader title="Invoices" actions={<DownloadButtons files={MONEY_FILES} />} />
      <ListTable
        label="Invoices"
        columns={['Number', 'Client', 'Status', 'Total', 'Balance', 'Due', 'Action']}
        rows={invoices.data?.invoices}
        loading={invoices.isPending}
        rowKey={(i) => i._id}
        empty="No invoices yet: create one from a completed job's page."
        renderRow={(i) => [
          i.number ?? 'Draft',
          i.clientName,
          <StatusText key="s" status={i.status} size="sm" />,
          formatMoney(toCents(i.total)),
          formatMoney(toCents(i.balance)),
          i.dueDate ? formatLongDate(i.dueDate) : '—',
          <Anchor key="a" component={Link} to={paths.admin.invoice(i._id)} fw={600}>
            View
          </Anchor>,
        ]}
      />
      <PaginationBar page={page} totalPages={invoices.data?.totalPages ?? 1} onChange={setPage} />
    </>
  );
}
