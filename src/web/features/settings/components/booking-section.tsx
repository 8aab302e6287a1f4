import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  Group,
  MultiSelect,
  NumberInput,
  Stack,
  Radio,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { BookingWindow } from '#shared/booking';
import { formatClock } from '#shared/dates';
import { bookingSettingsInput, type BookingSettingsView } from '#shared/schemas/booking';
import { WEEKDAYS, type Weekday } from '#shared/schemas/schedule';
import { SectionCard } from '../../../components/section-card';
import { toast } from '../../../lib/toast';
import { useBookingSettings, useEstimateWorkers, useSaveBookingSettings } from '../api/booking';

/**
 * Settings → Online booking (decision 046): the arrival windows clients may pick, on which days, and
 * whether they may move or cancel their own visits from their page, until when and how often.
 */
export function BookingSection() {
  const view = useBookingSettings();
  return (
    <SectionCard title="Online booking" region>
      {view.data ? <BookingForm view={view.data} /> : <Text size="sm">Loading…</Text>}
    </SectionCard>
  );
}

const byStart = (a: BookingWindow, b: BookingWindow) => a.start.localeCompare(b.start);

function BookingForm({ view }: { view: BookingSettingsView }) {
  const save = useSaveBookingSettings();
  const [windows, setWindows] = useState<BookingWindow[]>(view.windows);
  const [lead, setLead] = useState<number | string>(view.leadBusinessDays);
  const [horizon, setHorizon] = useState<number | string>(view.horizonDays);
  const [clientChanges, setClientChanges] = useState(view.clientChanges);
  const [cutoff, setCutoff] = useState<number | string>(view.changeCutoffHours);
  const [moves, setMoves] = useState<number | string>(view.maxMoves);
  const [onlineBooking, setOnlineBooking] = useState(view.onlineBooking);
  const [needsApproval, setNeedsApproval] = useState(view.needsApproval);
  const [estimateMinutes, setEstimateMinutes] = useState<number | string>(view.estimateMinutes);
  const [estimateWorkerIds, setEstimateWorkerIds] = useState<string[]>(view.estimateWorkerIds);
  const [bookingArea, setBookingArea] = useState<string[]>(view.bookingArea);
  const workers = useEstimateWorkers();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async () => {
    const parsed = bookingSettingsInput.safeParse({
      windows,
      leadBusinessDays: lead,
      horizonDays: horizon,
      clientChanges,
      changeCutoffHours: cutoff,
      maxMoves: moves,
      onlineBooking,
      needsApproval,
      estimateMinutes,
      estimateWorkerIds,
      bookingArea,
    });
    if (parsed.success && parsed.data.onlineBooking && parsed.data.estimateWorkerIds.length === 0)
      return setProblem('Choose who takes estimate visits, or turn online booking off');
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? 'Check the booking settings');
    setProblem(null);
    try {
      const saved = await save.mutateAsync(parsed.data);
      setWindows(saved.windows);
      toast.success('Online booking saved');
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        The arrival windows clients pick from when they book an estimate visit or move a visit. Only windows where the
        visit’s whole crew is free (their other visits and the hours they set) are offered.
      </Text>
      <Stack gap="xs" role="group" aria-label="Booking windows">
        {WEEKDAYS.map((day) => (
          <DayWindows
            key={day}
            day={day}
            windows={windows.filter((w) => w.day === day).sort(byStart)}
            onChange={(mine) => setWindows([...windows.filter((w) => w.day !== day), ...mine])}
          />
        ))}
      </Stack>
      <Group grow align="flex-start" wrap="wrap">
        <NumberInput
          label="Soonest day"
          description="Business days after today (0: today)"
          min={0}
          max={30}
          allowDecimal={false}
          value={lead}
          onChange={setLead}
          miw={200}
        />
        <NumberInput
          label="How far ahead"
          description="Days after today"
          min={1}
          max={120}
          allowDecimal={false}
          value={horizon}
          onChange={setHorizon}
          miw={200}
        />
      </Group>
      <Divider />
      <Switch
        label="Visitors may book an estimate visit on Get a Quote"
        description="The visit goes to the free worker with the fewest visits that day, and the visitor gets it by e-mail"
        checked={onlineBooking}
        onChange={(e) => setOnlineBooking(e.currentTarget.checked)}
      />
      {onlineBooking ? (
        <Stack gap="sm">
          <Group grow align="flex-start" wrap="wrap">
            <MultiSelect
              label="Who takes estimate visits"
              description="A window is offered while one of them is free"
              data={(workers.data ?? []).map((w) => ({ value: w._id, label: w.fullName || w.username }))}
              value={estimateWorkerIds}
              onChange={setEstimateWorkerIds}
              searchable
              miw={240}
            />
            <NumberInput
              label="An estimate visit lasts"
              description="Minutes"
              min={15}
              max={480}
              step={15}
              allowDecimal={false}
              value={estimateMinutes}
              onChange={setEstimateMinutes}
              miw={200}
            />
          </Group>
          <Radio.Group
            label="A visit booked online"
            value={needsApproval ? 'approve' : 'direct'}
            onChange={(value) => setNeedsApproval(value === 'approve')}
          >
            <Stack gap={6} mt={6}>
              <Radio value="direct" label="Is booked at once: the visitor gets it with a calendar entry" />
              <Radio
                value="approve"
                label="Waits for the office to approve it: the window is held, and the visitor hears when it is approved"
              />
            </Stack>
          </Radio.Group>
          <TagsInput
            label="Where visitors may book online"
            description="ZIP codes or cities; leave empty to take bookings anywhere. Others are asked to send the request without a visit."
            value={bookingArea}
            onChange={setBookingArea}
            clearable
          />
        </Stack>
      ) : null}
      <Divider />
      <Switch
        label="Clients may reschedule or cancel their visits from their page"
        description="The office is e-mailed each change; the calendar and the crew’s day follow at once"
        checked={clientChanges}
        onChange={(e) => setClientChanges(e.currentTarget.checked)}
      />
      {clientChanges ? (
        <Group grow align="flex-start" wrap="wrap">
          <NumberInput
            label="Until how long before the visit"
            description="Hours; after this the page gives your number"
            min={0}
            max={168}
            allowDecimal={false}
            value={cutoff}
            onChange={setCutoff}
            miw={200}
          />
          <NumberInput
            label="Moves per visit"
            description="How often a client may move one visit online"
            min={0}
            max={10}
            allowDecimal={false}
            value={moves}
            onChange={setMoves}
            miw={200}
          />
        </Group>
      ) : null}
      {problem ? (
        <Alert
          color="red"
          role="alert"
          title={
            <Text span inherit c="var(--mantine-color-text)">
              Not saved
            </Text>
          }
        >
          {problem}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={submit} loading={save.isPending}>
          Save online booking
        </Button>
      </Group>
    </Stack>
  );
}

/** One weekday's windows, each removable, and a new one added by its start and end. */
function DayWindows({
  day,
  windows,
  onChange,
}: {
  day: Weekday;
  windows: BookingWindow[];
  onChange: (windows: BookingWindow[]) => void;
}) {
  const [adding, setAdding] = useState(false);
  const [start, setStart] = useState('08:00');
  const [end, setEnd] = useState('10:00');
  return (
    <Group gap="xs" wrap="wrap" align="center">
      <Text size="sm" fw={600} w={100}>
        {day}
      </Text>
      {windows.length === 0 && !adding ? (
        <Text size="sm" c="dimmed">
          No windows
        </Text>
      ) : null}
      {windows.map((w) => (
        <Group
          key={w.start}
          gap={2}
          wrap="nowrap"
          px={8}
          py={2}
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 16 }}
        >
          <Text size="sm">
            {formatClock(w.start)} – {formatClock(w.end)}
          </Text>
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={`Remove ${day} ${formatClock(w.start)} – ${formatClock(w.end)}`}
            onClick={() => onChange(windows.filter((x) => x !== w))}
          >
            <IconX size={14} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      {adding ? (
        <Group gap={6} wrap="nowrap" align="flex-end">
          <TextInput
            type="time"
            size="xs"
            label="From"
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
          />
          <TextInput type="time" size="xs" label="To" value={end} onChange={(e) => setEnd(e.currentTarget.value)} />
          <Button
            size="xs"
            onClick={() => {
              onChange([...windows, { day, start, end }]);
              setAdding(false);
            }}
            aria-label={`Add the ${day} window`}
          >
            Add
          </Button>
          <Button size="xs" variant="default" onClick={() => setAdding(false)}>
            Cancel
          </Button>
        </Group>
      ) : (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => setAdding(true)}
          aria-label={`Add a window on ${day}`}
        >
          Add
        </Button>
      )}
    </Group>
  );
}
