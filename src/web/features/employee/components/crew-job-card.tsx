import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { PhotoThumbnails } from '../../../components/photo-thumbnails';
import { WorkList } from '../../../components/work-list';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { StatusPill } from '../../../components/status-text';
import { addressLine } from '../../../lib/links';
import { ContactLinks } from '../../../components/contact-links';
import { toast } from '../../../lib/toast';
import { useUpdateMyJob, type CrewJob } from '../api/my-work';
import { nextCrewMove } from '#shared/statuses';
import { jobNumberOf } from '#shared/schemas/jobs';
import { paths } from '#shared/paths';
import { Link } from 'react-router';

/** One job as the crew needs it in the field: who, where, what, and the next step. */
export function CrewJobCard({ job }: { job: CrewJob }) {
  const update = useUpdateMyJob();
  const address = addressLine(job.address);
  const next = nextCrewMove(job.status);
  const [confirming, setConfirming] = useState(false);
  const move = (onDone?: () => void) =>
    next &&
    update.mutate(
      { id: job._id, status: next },
      {
        onSuccess: () => {
          toast.success(`Marked ${next}`);
          onDone?.();
        },
        onError: (e) => toast.error(e.message),
      },
    );
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" align="flex-start" mb="xs">
        <div>
          <Text fw={700} size="lg">
            {job.contactPerson.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            Job {jobNumberOf(job._id)}
          </Text>
        </div>
        <StatusPill status={job.status} />
      </Group>
      <Stack gap={6}>
        <ContactLinks address={job.address} phone={job.contactPerson.phone} />
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} mt={4}>
          {job.notes || 'No description supplied'}
        </Text>
        {job.work.length ? <WorkList lines={job.work} /> : null}
        <PhotoThumbnails photos={job.photos ?? []} />
      </Stack>
      <Button mt="md" fullWidth variant="light" component={Link} to={paths.employee.job(job._id)}>
        {job.status === 'In Progress' ? 'Record the work' : 'Open job'}
      </Button>
      {next ? (
        <Button
          mt="xs"
          fullWidth
          color={next === 'Completed' ? 'success' : 'brand'}
          loading={update.isPending}
          // Finishing a job asks first: a slip of the thumb in the field would close it.
          onClick={() => (next === 'Completed' ? setConfirming(true) : move())}
        >
          {next === 'In Progress' ? 'Mark In Progress' : 'Mark Completed'}
        </Button>
      ) : null}
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Mark this job completed?"
        confirmLabel="Mark Completed"
        confirmColor="success"
        loading={update.isPending}
        onConfirm={() => move(() => setConfirming(false))}
      >
        <Text size="sm">The office is told the work at {address} is done.</Text>
      </ConfirmDialog>
    </Card>
  );
}
