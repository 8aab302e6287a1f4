import { Alert, Button, Group, Loader, MultiSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { formatClock, formatShortDay } from '#shared/dates';
import { MAX_HELPERS, type VisitView } from '#shared/schemas/visits';
import { SectionCard } from '../../../components/section-card';
import { ApiError, hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useLeadCrew, useSetHelpers } from '../api/visits';

type Helper = { _id: string; fullName: string };

/** One visit's helpers: who of the Crew is with the lead, saved at once, with the office's busy warning. */
function VisitHelpersRow({ visit, helpers }: { visit: VisitView; helpers: Helper[] }) {
  const crewIds = new Set(helpers.map((h) => h._id));
  const onVisit = visit.workers.filter((w) => crewIds.has(w._id)).map((w) => w._id);
  const others = visit.workers.filter((w) => !crewIds.has(w._id)).map((w) => w.fullName);
  const [chosen, setChosen] = useState(onVisit);
  const [warning, setWarning] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const save = useSetHelpers();
  const changed = [...chosen].sort().join(',') !== [...onVisit].sort().join(',');
  const when = `${formatShortDay(visit.date)}, ${formatClock(visit.start)}–${formatClock(visit.end)}`;

  const submit = (confirm: boolean) => {
    setFailure(undefined);
    save.mutate(
      { visitId: visit._id, body: { helperIds: chosen, confirm } },
      {
        onSuccess: () => {
          setWarning(undefined);
          toast.success(`The crew for ${when} is saved`);
        },
        onError: (error) => {
          if (hasErrorCode(error, 'VISIT_CONFLICT')) setWarning(error.message);
          else
            setFailure(
              error instanceof ApiError
                ? error.message
                : 'No signal: the crew was not changed. Try again with a signal.',
            );
        },
      },
    );
  };

  return (
    <Stack gap="xs">
      <Text fw={600}>{when}</Text>
      <Text size="sm" c="dimmed">
        Booked: {others.join(', ')}
      </Text>
      <MultiSelect
        label="Helpers"
        description={`The Crew with you on this visit (at most ${MAX_HELPERS})`}
        placeholder={chosen.length ? undefined : 'Add a helper'}
        data={helpers.map((h) => ({ value: h._id, label: h.fullName }))}
        value={chosen}
        onChange={(value) => {
          setChosen(value);
          setWarning(undefined);
          setFailure(undefined);
        }}
        maxValues={MAX_HELPERS}
        searchable
        nothingFoundMessage="No one of the Crew by that name"
        disabled={save.isPending}
      />
      {warning ? (
        <Alert
          color="orange"
          role="alert"
          title={
            <Text span inherit c="var(--mantine-color-text)">
              Check the crew
            </Text>
          }
        >
          <Stack gap="xs">
            <Text size="sm">{warning}</Text>
            <Group gap="xs">
              <Button size="xs" color="orange.9" onClick={() => submit(true)} loading={save.isPending}>
                Add anyway
              </Button>
              <Button size="xs" variant="default" onClick={() => setWarning(undefined)} disabled={save.isPending}>
                Not now
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {failure ? (
        <Text size="sm" c="red.9" role="alert">
          {failure}
        </Text>
      ) : null}
      {changed && !warning ? (
        <Group>
          <Button size="sm" onClick={() => submit(false)} loading={save.isPending}>
            Save the crew
          </Button>
          <Button size="sm" variant="default" onClick={() => setChosen(onVisit)} disabled={save.isPending}>
            Undo
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/**
 * On a Crew lead's job page (decision 042): their coming visits of the job, each with the Crew they take
 * along. Changing it needs a signal; without one the section says so and the rest of the page works.
 */
export function VisitHelpers({ jobId }: { jobId: string }) {
  const crew = useLeadCrew(jobId, true);
  return (
    <SectionCard title="Your crew">
      {crew.isPending ? (
        <Loader size="sm" aria-label="Loading your visits" />
      ) : crew.isError ? (
        <Group justify="space-between">
          <Text size="sm">Your crew shows here with a signal.</Text>
          <Button size="xs" variant="light" onClick={() => void crew.refetch()}>
            Try again
          </Button>
        </Group>
      ) : crew.data.visits.length === 0 ? (
        <Text size="sm" c="dimmed">
          You are not booked on a coming visit of this job.
        </Text>
      ) : (
        <Stack gap="lg">
          {crew.data.visits.map((visit) => (
            // Keyed by its crew too: saved or changed elsewhere, the field starts again from the server's.
            <VisitHelpersRow
              key={`${visit._id}:${visit.workers.map((w) => w._id).join(',')}`}
              visit={visit}
              helpers={crew.data.helpers}
            />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
