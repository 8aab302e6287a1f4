import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { PhotoThumbnails } from '../../../components/photo-thumbnails';
import { WorkList } from '../../../components/work-list';
import { IconMapPin, IconPhone } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { StatusPill } from '../../../components/status-text';
import { addressLine, mapHref, telHref } from '../../../lib/links';
import { toast } from '../../../lib/toast';
import { useUpdateMyJob, type CrewJob } from '../api/my-work';
import { nextCrewMove } from '../../../../shared/statuses';
import { jobNumberOf } from '../../../../shared/schemas/jobs';

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
        <Anchor
          href={mapHref(job.address)}
          target="_blank"
          rel="noreferrer"
          size="sm"
          style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}
        >
          <IconMapPin size={16} aria-hidden /> {address}
        </Anchor>
        {job.contactPerson.phone ? (
          <Anchor
            href={telHref(job.contactPerson.phone)}
            size="sm"
            style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}
          >
            <IconPhone size={16} aria-hidden /> {job.contactPerson.phone}
          </Anchor>
        ) : null}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} mt={4}>
          {job.notes || 'No description supplied'}
        </Text>
        {job.work.length ? <WorkList lines={job.work} /> : null}
        <PhotoThumbnails photos={job.photos ?? []} />
      </Stack>
      {next ? (
        <Button
          mt="md"
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
