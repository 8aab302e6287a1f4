import {
  ActionIcon,
  Badge,
  Button,
  Chip,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconPlus, IconSearch, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { WORKER_SEARCH_DEBOUNCE_MS, WORKER_TAGS } from '#shared/constants';
import { messages } from '#shared/messages';
import type { JobView } from '#shared/schemas/jobs';
import type { WeeklySchedule } from '#shared/schemas/schedule';
import { toast } from '../../../lib/toast';
import { useEmployeeSearch } from '../api/jobs';
import { useAssignWorkers } from '../api/jobs';
import classes from './assign-workers-dialog.module.css';

type Worker = { _id: string; fullName: string };

export function scheduleSummary(schedule: WeeklySchedule): string {
  if (schedule.length === 0) return 'No availability set';
  return schedule.map((d) => `${d.day.slice(0, 3)} ${d.start}–${d.end}`).join(', ');
}

/** "Assign New Worker": find employees by name and skills, see when they work, build the crew. */
export function AssignWorkersDialog({ job, opened, onClose }: { job: JobView; opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Assign New Worker" centered radius="lg" size="lg">
      {/* Mounted while open, so each opening starts from the job's current crew. */}
      {opened ? <AssignWorkersForm job={job} onClose={onClose} /> : null}
    </Modal>
  );
}

function AssignWorkersForm({ job, onClose }: { job: JobView; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), WORKER_SEARCH_DEBOUNCE_MS);
  const [tags, setTags] = useState<string[]>([]);
  const [crew, setCrew] = useState<Worker[]>(job.assignedTo);
  const results = useEmployeeSearch(debounced, tags);
  // The filter offers the spec's four and every skill the crew has (the unfiltered list, cached).
  const everyone = useEmployeeSearch('', []);
  const skills = [...new Set([...WORKER_TAGS, ...(everyone.data ?? []).flatMap((e) => e.tags)])];
  const assign = useAssignWorkers(job._id);

  const add = (worker: Worker) => {
    if (crew.some((w) => w._id === worker._id)) {
      toast.warning(messages.workerAlreadyAssigned);
      return;
    }
    setCrew([...crew, worker]);
  };

  const confirm = () =>
    assign.mutate(crew, {
      onSuccess: () => {
        toast.success(messages.userAdded);
        onClose();
      },
      onError: () => toast.error(messages.userAddError),
    });

  return (
    <Stack>
      <TextInput
        label="Search workers"
        placeholder="Employee name"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        data-autofocus
      />
      <div>
        <Text size="sm" fw={500} mb={6} id="tag-filter">
          Skills
        </Text>
        <Group gap="xs" role="group" aria-labelledby="tag-filter">
          <Chip checked={tags.length === 0} onChange={() => setTags([])} size="sm">
            All
          </Chip>
          <Chip.Group multiple value={tags} onChange={setTags}>
            {skills.map((tag) => (
              <Chip key={tag} value={tag} size="sm">
                {tag}
              </Chip>
            ))}
          </Chip.Group>
        </Group>
      </div>
      <Paper
        withBorder
        radius="md"
        p="xs"
        className={classes.results}
        aria-label="Search results"
        aria-busy={results.isFetching}
      >
        {results.isError ? (
          <Group justify="space-between" p="sm" role="alert">
            <Text size="sm" c="red.9">
              The employees could not be loaded.
            </Text>
            <Button size="xs" variant="light" onClick={() => void results.refetch()}>
              Try again
            </Button>
          </Group>
        ) : results.isFetching && !results.data ? (
          <Group justify="center" p="sm">
            <Loader size="sm" aria-label="Searching" />
          </Group>
        ) : results.data?.length ? (
          <Stack gap={4}>
            {results.data.map((e) => {
              const name = e.fullName || e.username;
              // Someone already on the job is shown as such, and not offered again.
              const onJob = crew.some((w) => w._id === e._id);
              return (
                <UnstyledButton
                  key={e._id}
                  className={classes.result}
                  onClick={() => add({ _id: e._id, fullName: name })}
                  disabled={onJob}
                  data-assigned={onJob || undefined}
                  aria-label={onJob ? `${name} (assigned)` : `Add ${name}`}
                >
                  <Group justify="space-between" wrap="nowrap">
                    <div style={{ minWidth: 0 }}>
                      <Text fw={600} size="sm">
                        {name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {scheduleSummary(e.schedule)}
                      </Text>
                      <Group gap={4} mt={4}>
                        {e.tags.map((t) => (
                          <Badge key={t} size="xs" variant="light" c="dark.6">
                            {t}
                          </Badge>
                        ))}
                      </Group>
                    </div>
                    {onJob ? (
                      <Badge
                        size="sm"
                        variant="light"
                        color="green"
                        c="green.9"
                        // Never squeezed by a long name beside it (it was cut to "ASSI…" at 375 px).
                        style={{ flexShrink: 0 }}
                        leftSection={<IconCheck size={12} aria-hidden />}
                      >
                        Assigned
                      </Badge>
                    ) : (
                      <IconPlus size={18} aria-hidden />
                    )}
                  </Group>
                </UnstyledButton>
              );
            })}
          </Stack>
        ) : (
          <Text c="dimmed" size="sm" ta="center" p="sm">
            No employees found
          </Text>
        )}
      </Paper>
      <div>
        <Text fw={700} size="sm" mb={6}>
          Assigned Workers
        </Text>
        {crew.length === 0 ? (
          <Text c="dimmed" size="sm">
            No workers assigned
          </Text>
        ) : (
          <Stack gap={6} component="ul" className={classes.crew}>
            {crew.map((w) => (
              <Group key={w._id} component="li" justify="space-between" className={classes.crewItem}>
                <Text size="sm">{w.fullName}</Text>
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  aria-label={`Remove ${w.fullName}`}
                  onClick={() => setCrew(crew.filter((c) => c._id !== w._id))}
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </div>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={assign.isPending}>
          Cancel
        </Button>
        <Button onClick={confirm} loading={assign.isPending}>
          Confirm
        </Button>
      </Group>
    </Stack>
  );
}
