import { Anchor, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { SEARCH_DEBOUNCE_MS, type QuoteRequestStatus } from '../../../../shared/constants';
import { paths } from '../../../../shared/paths';
import { quoteNumberOf } from '../../../../shared/schemas/quote-request';
import { formatDate } from '../../../components/date-text';
import { ListTable } from '../../../components/list-table';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { useQuoteRequestList } from '../api/staff';

type Filter = QuoteRequestStatus | 'All';
const FILTERS: Filter[] = ['All', 'Pending', 'Accepted', 'Quote Sent', 'Declined'];

export default function AdminQuoteRequestsPage() {
  const location = useLocation();
  const initial = (location.state as { status?: string } | null)?.status;
  const [status, setStatus] = useState<Filter>(FILTERS.includes(initial as Filter) ? (initial as Filter) : 'All');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const list = useQuoteRequestList(page, status, debounced);

  return (
    <>
      <PageHeader title="Quote Requests" />
      <Group mb="md" align="flex-end" gap="md">
        <TextInput
          label="Search by name"
          placeholder="Client name"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 280 }}
        />
        <Select
          label="Filter"
          data={FILTERS}
          value={status}
          onChange={(v) => {
            setStatus((v as Filter) ?? 'All');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
        />
        <Text c="dimmed" size="sm" role="status" pb={8}>
          {list.data ? `${list.data.total} ${list.data.total === 1 ? 'result' : 'results'}` : 'Loading…'}
        </Text>
      </Group>
      <ListTable
        label="Quote requests"
        columns={['Id', 'Client Name', 'Preferred End Date', 'Status', 'Action']}
        rows={list.data?.quoteRequests}
        loading={list.isPending}
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
      <PaginationBar page={page} totalPages={list.data?.totalPages ?? 1} onChange={setPage} />
    </>
  );
}
