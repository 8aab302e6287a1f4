import { Button, Checkbox, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { WEEKDAYS, weeklySchedule, type WeeklySchedule, type Weekday } from '#shared/schemas/schedule';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../lib/toast';
import { useMySchedule, useSaveMySchedule } from '../api/my-work';
import { TimeOff } from '../components/time-off';
import classes from './schedule-page.module.css';

type Row = { on: boolean; start: string; end: string };
type Draft = Record<Weekday, Row>;

const toDraft = (schedule: WeeklySchedule): Draft =>
  Object.fromEntries(
    WEEKDAYS.map((day) => {
      const found = schedule.find((d) => d.day === day);
      return [day, { on: Boolean(found), start: found?.start ?? '08:00', end: found?.end ?? '17:00' }];
    }),
  ) as Draft;

/** Set Schedule: the weekdays and hours I can work; admins see it when assigning jobs. */
export default function SchedulePage() {
  const current = useMySchedule();
  return (
    <>
      <PageHeader title="Set Schedule" />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} maw={640}>
        <Text c="dimmed" size="sm" mb="md">
          Tick the days you can work and set your hours. The office sees this when assigning jobs.
        </Text>
        {current.isPending ? <Skeleton h={280} /> : <ScheduleForm initial={current.data?.schedule ?? []} />}
      </Paper>
      <TimeOff />
    </>
  );
}

function ScheduleForm({ initial }: { initial: WeeklySchedule }) {
  const save = useSaveMySchedule();
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial));
  const [error, setError] = useState<string>();

  const set = (day: Weekday, patch: Partial<Row>) => setDraft((d) => ({ ...d, [day]: { ...d[day], ...patch } }));

  const onSave = () => {
    const schedule = WEEKDAYS.filter((day) => draft[day].on).map((day) => ({
      day,
      start: draft[day].start,
      end: draft[day].end,
    }));
    const parsed = weeklySchedule.safeParse(schedule);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: () => toast.success('Schedule saved'),
      onError: () => toast.error('The schedule could not be saved. Please try again.'),
    });
  };

  return (
    <Stack gap="sm">
      {WEEKDAYS.map((day) => (
        <Group key={day} className={classes.row}>
          <Checkbox
            label={day}
            checked={draft[day].on}
            onChange={(e) => set(day, { on: e.currentTarget.checked })}
            className={classes.day}
          />
          <input
            type="time"
            aria-label={`${day} start`}
            value={draft[day].start}
            disabled={!draft[day].on}
            onChange={(e) => set(day, { start: e.currentTarget.value })}
            className={classes.time}
          />
          <Text aria-hidden>–</Text>
          <input
            type="time"
            aria-label={`${day} end`}
            value={draft[day].end}
            disabled={!draft[day].on}
            onChange={(e) => set(day, { end: e.currentTarget.value })}
            className={classes.time}
          />
        </Group>
      ))}
      {error ? (
        <Text c="red.9" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
      <Group justify="flex-end" mt="sm">
        <Button onClick={onSave} loading={save.isPending}>
          Save schedule
        </Button>
      </Group>
    </Stack>
  );
}
