import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ClientLink } from '../../../components/client-link';
import { JOB_STATUSES, type JobStatus } from '#shared/constants';
import { paths } from '#shared/paths';
import { ListTable } from '../../../components/list-table';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { StatusText } from '../../../components/status-text';
import { useJobs } from '../api/jobs';

type Filter = JobStatus | 'All';
const FILTERS: readonly Filter[] = ['All', ...JOB_STATUSES];

export default function JobsPage() {
  const list = useListControls<Filter>(FILTERS, 'All');
  const { debounced, filter: status, page } = list;
  const jobs = useJobs(page, debounced, status);

  return (
    <>
      <PageHeader title="Jobs" />
      <ListToolbar
        controls={list}
        searchLabel="Search by client"
        searchPlaceholder="Client name"
        filter={{ label: 'Status', options: FILTERS }}
        count={countOf(jobs.data?.total, 'job', 'jobs')}
      />
      <ListTable
        label="Jobs"
        columns={['Client Name', 'Address', 'Assigned To', 'Status', 'Action']}
        rows={jobs.data?.jobs}
        loading={jobs.isPending}
        rowKey={(j) => j._id}
        empty={
          debounced || status !== 'All'
            ? 'No jobs match.'
            : 'No jobs yet: a job is created when a client accepts a quote.'
        }
        renderRow={(j) => [
          <ClientLink key="c" clientId={j.clientId} name={j.contactPerson.name} />,
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
      <PaginationBar page={page} totalPages={jobs.data?.totalPages ?? 1} onChange={list.setPage} />
    </>
  );
}
