import { ActionIcon, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { addDays, formatShortDay } from '#shared/dates';
import { timeOffInput, type TimeOffView } from '#shared/schemas/time-off';
import { businessToday } from '../../../lib/business-today';
import { toast } from '../../../lib/toast';
import { useMyTimeOff, useTimeOffChanges } from '../api/my-work';

const daysOf = (o: Pick<TimeOffView, 'from' | 'to'>) =>
  o.from === o.to ? formatShortDay(o.from) : `${formatShortDay(o.from)} – ${formatShortDay(o.to)}`;

/** Time off on Set Schedule (issue 31): whole days; clients are offered no visit with the worker then. */
export function TimeOff() {
  const list = useMyTimeOff();
  const { add, remove } = useTimeOffChanges();
  const today = businessToday();
  const [from, setFrom] = useState(() => addDays(today, 1));
  const [to, setTo] = useState(() => addDays(today, 1));
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const parsed = timeOffInput.safeParse({ from, to, reason });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the days');
    setProblem(null);
    add.mutate(parsed.data, {
      onSuccess: (added) => {
        setReason('');
        toast.success(`Time off added: ${daysOf(added)}`);
      },
      onError: (error) => setProblem(error.message.replace(/^\w+: /, '')),
    });
  };

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      maw={640}
      mt="md"
      component="section"
      aria-labelledby="time-off"
    >
      <Title order={2} size="h4" id="time-off" mb={4}>
        Time off
      </Title>
      <Text c="dimmed" size="sm" mb="md">
        Whole days you cannot work. Clients are not offered visits with you then, and the office is warned if they book
        you.
      </Text>
      {list.isPending ? (
        <Skeleton h={60} />
      ) : list.data?.timeOff.length ? (
        <Stack gap={6} mb="md">
          {list.data.timeOff.map((o) => (
            <Group key={o._id} justify="space-between" wrap="nowrap">
              <div>
                <Text size="sm" fw={600}>
                  {daysOf(o)}
                </Text>
                {o.reason ? (
                  <Text size="sm" c="dimmed">
                    {o.reason}
                  </Text>
                ) : null}
              </div>
              <ActionIcon
                variant="subtle"
                color="red.9"
                aria-label={`Remove the time off of ${daysOf(o)}`}
                loading={remove.isPending && remove.variables === o._id}
                onClick={() => remove.mutate(o._id, { onSuccess: () => toast.success('Time off removed') })}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      ) : (
        <Text size="sm" mb="md">
          No time off planned.
        </Text>
      )}
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="date"
          label="First day"
          value={from}
          min={today}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput type="date" label="Last day" value={to} min={from} onChange={(e) => setTo(e.currentTarget.value)} />
        <TextInput
          label="Reason (for the office)"
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.currentTarget.value)}
          style={{ flex: '1 1 12rem' }}
        />
      </Group>
      {problem ? (
        <Text c="red.9" size="sm" role="alert" mt="xs">
          {problem}
        </Text>
      ) : null}
      <Group justify="flex-end" mt="sm">
        <Button onClick={submit} loading={add.isPending}>
          Add time off
        </Button>
      </Group>
    </Paper>
  );
}
