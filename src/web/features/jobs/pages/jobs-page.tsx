import { Anchor, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { JOB_STATUSES, SEARCH_DEBOUNCE_MS, type JobStatus } from '../../../../shared/constants';
import { paths } from '../../../../shared/paths';
import { ListTable } from '../../../components/list-table';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { useJobs } from '../api/jobs';

type Filter = JobStatus | 'All';

export default function JobsPage() {
  const location = useLocation();
  const initial = (location.state as { status?: string } | null)?.status as Filter | undefined;
  const [status, setStatus] = useState<Filter>(initial && JOB_STATUSES.includes(initial as JobStatus) ? initial : 'All');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const jobs = useJobs(page, debounced, status);

  return (
    <>
      <PageHeader title="Jobs" />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search by client"
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
          label="Status"
          data={['All', ...JOB_STATUSES]}
          value={status}
          onChange={(v) => {
            setStatus((v as Filter) ?? 'All');
            setPage(1);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
        />
        <Text c="dimmed" size="sm" role="status" pb={8}>
          {jobs.data ? `${jobs.data.total} ${jobs.data.total === 1 ? 'job' : 'jobs'}` : 'Loading…'}
        </Text>
      </Group>
      <ListTable
        label="Jobs"
        columns={['Client Name', 'Address', 'Assigned To', 'Status', 'Action']}
        rows={jobs.data?.jobs}
        loading={jobs.isPending}
        rowKey={(j) => j._id}
        empty={debounced || status !== 'All' ? 'No jobs match.' : 'No jobs yet: a job is created when a client accepts a quote.'}
        renderRow={(j) => [
          j.contactPerson.name,
          `${j.address.street}, ${j.address.city}, ${j.address.state} ${j.address.zip}`,
          j.assignedTo.length ? (
            j.assignedTo.map((w) => w.fullName).join(', ')
          ) : (
            <Text key="n" c="dimmed" size="sm">
              Not assigned yet
            </Text>
          ),
          <StatusText key="s" status={j.status} size="sm" />,
          <Anchor key="a" component={Link} to={paths.admin.job(j._id)} fw={600}>
            View
          </Anchor>,
        ]}
      />
      <PaginationBar page={page} totalPages={jobs.data?.totalPages ?? 1} onChange={setPage} />
    </>
  );
}
