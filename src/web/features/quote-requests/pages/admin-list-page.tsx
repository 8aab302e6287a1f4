import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconCamera, IconPhonePlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ClientLink } from '../../../components/client-link';
import { QUOTE_REQUEST_STATUSES, QUOTE_STATUSES, type QuoteRequestStatus, type QuoteStatus } from '#shared/constants';
import { QUOTE_STATE_LABELS } from '#shared/statuses';
import { paths } from '#shared/paths';
import { quoteNumberOf } from '#shared/schemas/quote-request';
import { formatDate, formatDayOf } from '../../../components/date-text';
import { siteConfig } from '../../../lib/site-config';
import { ListTable } from '../../../components/list-table';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { useQuoteRequestList } from '../api/staff';

/** The request statuses, then where a sent quote stands ("Quote: Question asked"): one filter for both. */
const quoteFilter = (state: QuoteStatus) => `Quote: ${QUOTE_STATE_LABELS[state]}`;
const FILTERS = ['All', ...QUOTE_REQUEST_STATUSES, ...QUOTE_STATUSES.map(quoteFilter)];
type Filter = (typeof FILTERS)[number];

function apiFilter(filter: Filter): { status: QuoteRequestStatus | 'All'; quoteState?: QuoteStatus } {
  const state = QUOTE_STATUSES.find((s) => quoteFilter(s) === filter);
  if (state) return { status: 'Quote Sent', quoteState: state };
  return {
    status: (QUOTE_REQUEST_STATUSES as readonly string[]).includes(filter) ? (filter as QuoteRequestStatus) : 'All',
  };
}

/** The photos the client sent, as a camera and their number (named for screen readers); nothing without any. */
function PhotoMarker({ count }: { count: number }) {
  if (count === 0) return null;
  const label = `${count} ${count === 1 ? 'photo' : 'photos'}`;
  return (
    <Group gap={2} wrap="nowrap" c="dimmed" role="img" aria-label={label} title={label} display="inline-flex">
      <IconCamera size={16} aria-hidden />
      <Text span size="xs" fw={600} aria-hidden>
        {count}
      </Text>
    </Group>
  );
}

export default function AdminQuoteRequestsPage() {
  const { timeZone } = siteConfig();
  const list = useListControls<Filter>(FILTERS, 'All');
  const { debounced, filter, page } = list;
  const requests = useQuoteRequestList(page, apiFilter(filter), debounced);

  return (
    <>
      <PageHeader
        title="Quote Requests"
        actions={
          <Button
            component={Link}
            to={paths.admin.newQuoteRequest}
            leftSection={<IconPhonePlus size={18} aria-hidden />}
          >
            Enter a phoned-in request
          </Button>
        }
      />
      <ListToolbar
        controls={list}
        searchLabel="Search by name"
        searchPlaceholder="Name, e-mail or Q-number"
        filter={{ label: 'Filter', options: FILTERS }}
        count={countOf(requests.data?.total, 'result', 'results')}
      />
      <ListTable
        label="Quote requests"
        columns={['Id', 'Client Name', 'City', 'Received', 'Preferred End Date', 'Status', 'Action']}
        rows={requests.data?.quoteRequests}
        loading={requests.isPending}
        rowKey={(q) => q._id}
        empty={debounced || filter !== 'All' ? 'No quote requests match.' : 'No quote requests yet.'}
        renderRow={(q) => [
          <Text key="id" ff="monospace" size="sm" style={{ whiteSpace: 'nowrap' }}>
            {quoteNumberOf(q._id)}
          </Text>,
          <Group key="c" gap={8} wrap="nowrap">
            <ClientLink clientId={q.clientId} name={q.contactPerson.name || 'No name provided'} />
            <PhotoMarker count={q.photoCount} />
          </Group>,
          q.address.city || '—',
          // The day it came in, in the business's time zone.
          formatDayOf(q.quoteRequestDate, timeZone),
          formatDate(q.preferredEndDate),
          <Stack key="s" gap={0}>
            <StatusText status={q.quoteStatus} size="sm" />
            {q.quoteState ? (
              <Text size="xs" c="dimmed">
                Quote: {QUOTE_STATE_LABELS[q.quoteState]}
              </Text>
            ) : null}
          </Stack>,
          <Anchor key="a" component={Link} to={paths.admin.quoteRequest(q._id)} fw={600}>
            View
          </Anchor>,
        ]}
      />
      <PaginationBar page={page} totalPages={requests.data?.totalPages ?? 1} onChange={list.setPage} />
    </>
  );
}
