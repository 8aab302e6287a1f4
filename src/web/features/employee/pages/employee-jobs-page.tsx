import { Paper, SegmentedControl, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { PageHeader } from '../../../components/page-header';
import { OfflineNote } from '../../../components/offline-note';
import { myJobsCopy, useMyJobs } from '../api/my-work';
import { CrewJobCard } from '../components/crew-job-card';

function JobList({ all }: { all: boolean }) {
  const jobs = useMyJobs(all);
  if (jobs.isPending) return <Skeleton h={180} radius="lg" />;
  if (jobs.isError) return <Text c="red.9">Your jobs could not be loaded. Please try again.</Text>;
  if (jobs.data.jobs.length === 0) {
    return (
      <Paper withBorder radius="lg" p="xl">
        <Text ta="center" c="dimmed">
          {all
            ? 'No jobs have been assigned to you yet.'
            : 'Nothing open right now: no jobs assigned to you are waiting.'}
        </Text>
      </Paper>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {jobs.data.jobs.map((job) => (
        <CrewJobCard key={job._id} job={job} />
      ))}
    </SimpleGrid>
  );
}

/** Dashboard: my visits (given by the app) and the open jobs assigned to me. */
export function EmployeeDashboardPage({ visits, offline }: { visits?: ReactNode; offline?: ReactNode }) {
  return (
    <>
      <PageHeader title="My work" />
      {offline}
      {visits}
      <Title order={2} size="h3" mb="sm">
        My open jobs
      </Title>
      <JobList all={false} />
    </>
  );
}

/** Jobs: everything assigned to me, open or done. */
export default function EmployeeJobsPage() {
  const [view, setView] = useState<'open' | 'all'>('open');
  return (
    <>
      <PageHeader
        title="Jobs"
        actions={
          <SegmentedControl
            value={view}
            onChange={(v) => setView(v as 'open' | 'all')}
            data={[
              { label: 'Open', value: 'open' },
              { label: 'All', value: 'all' },
            ]}
          />
        }
      />
      <OfflineNote copies={[myJobsCopy(view === 'all')]} />
      <JobList all={view === 'all'} />
    </>
  );
}
