import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconMapPin, IconPhone } from '@tabler/icons-react';
import { StatusPill } from '../../../components/status-text';
import { toast } from '../../../lib/toast';
import { useUpdateMyJob, type CrewJob } from '../api/my-work';
import { nextCrewMove } from '../../../../shared/statuses';

/** One job as the crew needs it in the field: who, where, what, and the next step. */
export function CrewJobCard({ job }: { job: CrewJob }) {
  const update = useUpdateMyJob();
  const address = `${job.address.street}, ${job.address.city}, ${job.address.state} ${job.address.zip}`;
  const next = nextCrewMove(job.status);
  return (
    <Card withBorder radius="lg" padding="lg">
      <Group justify="space-between" align="flex-start" mb="xs">
        <Text fw={700} size="lg">
          {job.contactPerson.name}
        </Text>
        <StatusPill status={job.status} />
      </Group>
      <Stack gap={6}>
        <Anchor
          href={`https://maps.google.com/?q=${encodeURIComponent(address)}`}
          target="_blank"
          rel="noreferrer"
          size="sm"
          style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}
        >
          <IconMapPin size={16} aria-hidden /> {address}
        </Anchor>
        {job.contactPerson.phone ? (
          <Anchor
            href={`tel:${job.contactPerson.phone}`}
            size="sm"
            style={{ display: 'inline-flex', gap: 6, alignItems: 'center' }}
          >
            <IconPhone size={16} aria-hidden /> {job.contactPerson.phone}
          </Anchor>
        ) : null}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} mt={4}>
          {job.notes || 'No description supplied'}
        </Text>
      </Stack>
      {next ? (
        <Button
          mt="md"
          fullWidth
          color={next === 'Completed' ? 'success' : 'brand'}
          loading={update.isPending}
          onClick={() =>
            update.mutate(
              { id: job._id, status: next },
              { onSuccess: () => toast.success(`Marked ${next}`), onError: (e) => toast.error(e.message) },
            )
          }
        >
          {next === 'In Progress' ? 'Mark In Progress' : 'Mark Completed'}
        </Button>
      ) : null}
    </Card>
  );
}
