import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { QuoteRequestStatus } from '../../../../shared/constants';
import { paths } from '../../../../shared/paths';
import { quoteNumberOf } from '../../../../shared/schemas/quote-request';
import { formatDate } from '../../../components/date-text';
import { ListTable } from '../../../components/list-table';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { useQuoteRequestList } from '../api/staff';

type Filter = QuoteRequestStatus | 'All';
const FILTERS: Filter[] = ['All', 'Pending', 'Accepted', 'Quote Sent', 'Declined'];

export default function AdminQuoteRequestsPage() {
  const list = useListControls<Filter>(FILTERS, 'All');
  const { debounced, filter: status, page } = list;
  const requests = useQuoteRequestList(page, status, debounced);

  return (
    <>
      <PageHeader title="Quote Requests" />
      <ListToolbar
        controls={list}
        searchLabel="Search by name"
        searchPlaceholder="Name, e-mail or Q-number"
        filter={{ label: 'Filter', options: FILTERS }}
        count={countOf(requests.data?.total, 'result', 'results')}
      />
      <ListTable
        label="Quote requests"
        columns={['Id', 'Client Name', 'Preferred End Date', 'Status', 'Action']}
        rows={requests.data?.quoteRequests}
        loading={requests.isPending}
        rowKey={(q) => q._id}
        empty={debounced || status !== 'All' ? 'No quote requests match.' : 'No quote requests yet.'}
        renderRow={(q) => [
          <Text key="id" ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
            {quoteNumberOf(q._id)}
          </Text>,
          q.contactPerson.name || 'No name provided',
          formatDate(q.preferredEndDate),
          <StatusText key="s" status={q.quoteStatus} size="sm" />,
          <Anchor key="a" component={Link} to={paths.admin.quoteRequest(q._id)} fw={600}>
            View
          </Anchor>,
        ]}
      />
      <PaginationBar page={page} totalPages={requests.data?.totalPages ?? 1} onChange={list.setPage} />
    </>
  );
}
