import { Anchor, Badge, Button, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { addDays, formatLongDate, todayIn, zonedTimeToUtc } from '#shared/dates';
import type { CrewJob } from '#shared/schemas/jobs';
import type { VisitView } from '#shared/schemas/visits';
import { mapHref, telHref } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { myVisitsCopy, useMyOpenJobs, useVisitsInRange } from '../api/visits';
import { PhotoThumbnails } from '../../../components/photo-thumbnails';
import { WorkList } from '../../../components/work-list';
import { OnMyWay } from './on-my-way';

function VisitCard({ visit, job, today = false }: { visit: VisitView; job: CrewJob | undefined; today?: boolean }) {
  const [street, ...rest] = visit.client.address.split(', ');
  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap={4}>
        <Badge variant="light" color="blue" c="dark.7" size="lg" w="fit-content">
          {visit.start}–{visit.end}
        </Badge>
        <Text fw={700}>{visit.client.name}</Text>
        {visit.awaitingApproval ? (
          <Text size="sm" fw={600} c="orange.9">
            Booked online, not approved yet: the office will confirm it
          </Text>
        ) : null}
        <Anchor
          href={mapHref({ street: street ?? '', city: rest.join(', '), state: '', zip: '' })}
          target="_blank"
          rel="noreferrer"
        >
          {visit.client.address}
        </Anchor>
        {visit.client.phone ? <Anchor href={telHref(visit.client.phone)}>{visit.client.phone}</Anchor> : null}
        {today && !visit.cancelled && !visit.awaitingApproval ? <OnMyWay visitId={visit._id} /> : null}
        {visit.workers.length > 1 ? (
          <Text size="sm" c="dimmed">
            With {visit.workers.map((w) => w.fullName).join(', ')}
          </Text>
        ) : null}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {visit.work}
        </Text>
        {job ? <WorkList lines={job.work} /> : null}
        {job ? <PhotoThumbnails photos={job.photos ?? []} /> : null}
        {visit.notes ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            <b>For this visit:</b> {visit.notes}
          </Text>
        ) : null}
        {visit.jobId ? (
          <Button mt="xs" variant="light" component={Link} to={paths.employee.job(visit.jobId)}>
            Open job
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The crew's Today and Upcoming (the next two weeks): where to be, when, and how to reach the client. */
export function MyVisits() {
  const { timeZone } = siteConfig();
  const [today] = useState(() => todayIn(timeZone));
  const [range] = useState(() => ({
    from: zonedTimeToUtc(today, '00:00', timeZone).toISOString(),
    to: zonedTimeToUtc(addDays(today, 15), '00:00', timeZone).toISOString(),
  }));
  const visits = useVisitsInRange(range, 'mine', undefined, myVisitsCopy);
  const jobs = useMyOpenJobs();
  const jobOf = (v: VisitView) => jobs.data?.jobs.find((j) => j._id === v.jobId);
  if (visits.isPending) return <Skeleton h={120} radius="lg" mb="lg" />;
  if (visits.isError)
    return (
      <Text c="red.9" mb="lg" role="alert">
        Your visits could not be loaded. Please try again.
      </Text>
    );
  const list = visits.data.visits;
  const todays = list.filter((v) => v.date === today);
  const later = list.filter((v) => v.date > today);
  const days = [...new Set(later.map((v) => v.date))];
  return (
    <Stack gap="lg" mb="xl">
      <section aria-labelledby="today-title">
        <Title order={2} size="h3" mb="sm" id="today-title">
          Today
        </Title>
        {todays.length ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            {todays.map((v) => (
              <VisitCard key={v._id} visit={v} job={jobOf(v)} today />
            ))}
          </SimpleGrid>
        ) : (
          <Text c="dimmed">No visits today.</Text>
        )}
      </section>
      <section aria-labelledby="upcoming-title">
        <Title order={2} size="h3" mb="sm" id="upcoming-title">
          Upcoming
        </Title>
        {days.length === 0 ? <Text c="dimmed">Nothing booked for the next two weeks.</Text> : null}
        <Stack gap="md">
          {days.map((day) => (
            <div key={day}>
              <Text fw={700} mb={6}>
                {formatLongDate(day)}
              </Text>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                {later
                  .filter((v) => v.date === day)
                  .map((v) => (
                    <VisitCard key={v._id} visit={v} job={jobOf(v)} />
                  ))}
              </SimpleGrid>
            </div>
          ))}
        </Stack>
      </section>
    </Stack>
  );
}
