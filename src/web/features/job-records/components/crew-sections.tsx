import {
  ActionIcon,
  Autocomplete,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatDollars } from '#shared/money';
import { formatMinutes, type JobRecordView } from '#shared/schemas/job-records';
import { formatShortDay, todayIn } from '#shared/dates';
import { siteConfig } from '../../../lib/site-config';
import type { useRecordChanges } from '../api/record';

type Changes = ReturnType<typeof useRecordChanges>;
interface SectionProps {
  record: JobRecordView;
  changes: Changes;
  /** The job is completed or cancelled: shown, not changed. */
  closed: boolean;
}

/** The smallest target a finger in a work glove hits reliably (WCAG 2.5.5): rows and their buttons. */
const TAP = 44;
const CHECK_ROW = {
  root: { flex: 1 },
  body: { minHeight: TAP, alignItems: 'center' },
  labelWrapper: { flex: 1 },
  label: { cursor: 'pointer', paddingBlock: 10 },
} as const;

/** The work to do: the sold quote's lines and the crew's own items, ticked as they go. */
export function ChecklistSection({ record, changes, closed }: SectionProps) {
  const [text, setText] = useState('');
  const add = () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    void changes.putItem(crypto.randomUUID(), { text: trimmed, done: false });
    setText('');
  };
  return (
    <Stack gap="xs">
      {record.checklist.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing on the checklist yet.
        </Text>
      ) : null}
      {record.checklist.map((item) => (
        <Group key={item._id} justify="space-between" wrap="nowrap" align="center" gap="xs">
          <Checkbox
            size="md"
            // The whole row's height takes the tap (44 px at least), not only the box.
            styles={CHECK_ROW}
            label={item.text}
            description={item.done && item.doneBy ? `Done by ${item.doneBy}` : undefined}
            checked={item.done}
            disabled={closed}
            onChange={(e) => void changes.putItem(item._id, { text: item.text, done: e.currentTarget.checked })}
          />
          {!item.fromQuote && !closed ? (
            <ActionIcon
              variant="subtle"
              color="red"
              size={TAP}
              aria-label={`Remove ${item.text}`}
              onClick={() => void changes.removeItem(item._id)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          ) : null}
        </Group>
      ))}
      {closed ? null : (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            style={{ flex: 1 }}
            label="Add an item"
            placeholder="e.g. Haul away the old gate"
            value={text}
            maxLength={500}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <Button variant="light" onClick={add} disabled={!text.trim()}>
            Add
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/** Minutes since a timer started, ticking while the page is open. */
function useElapsed(startedAt: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!startedAt) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [startedAt]);
  return startedAt ? Math.max(0, Math.floor((now - Date.parse(startedAt)) / 60_000)) : 0;
}

/** My timer (start, stop) or my hours for a day; everyone's entries and totals. */
export function TimeSection({ record, changes, closed }: SectionProps) {
  const running = record.time.find((t) => t.worker._id === record.me._id && t.startedAt && !t.endedAt);
  const elapsed = useElapsed(running?.startedAt ?? null);
  const [hours, setHours] = useState<number | string>('');
  const [date, setDate] = useState(() => todayIn(siteConfig().timeZone));
  const validHours = typeof hours === 'number' && hours > 0 && hours <= 24 && Number.isInteger(hours * 4);
  return (
    <Stack gap="sm">
      {closed ? null : running ? (
        <Button
          size="md"
          color="red"
          leftSection={<IconPlayerStop size={18} />}
          onClick={() =>
            void changes.putTime(running._id, {
              kind: 'timer',
              visitId: running.visitId,
              startedAt: running.startedAt!,
              endedAt: new Date().toISOString(),
            })
          }
        >
          Stop timer ({formatMinutes(elapsed)})
        </Button>
      ) : (
        <Button
          size="md"
          leftSection={<IconPlayerPlay size={18} />}
          onClick={() =>
            void changes.putTime(crypto.randomUUID(), { kind: 'timer', startedAt: new Date().toISOString() })
          }
        >
          Start timer
        </Button>
      )}
      {closed ? null : (
        <Group gap="xs" align="flex-end">
          <TextInput
            type="date"
            label="Day"
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
            style={{ flex: '1 1 150px' }}
          />
          <NumberInput
            label="Hours"
            value={hours}
            onChange={setHours}
            min={0.25}
            max={24}
            step={0.25}
            decimalScale={2}
            style={{ flex: '1 1 80px' }}
          />
          <Button
            variant="light"
            disabled={!validHours || !date}
            onClick={() => {
              void changes.putTime(crypto.randomUUID(), { kind: 'hours', workDate: date, hours: Number(hours) });
              setHours('');
            }}
          >
            Add hours
          </Button>
        </Group>
      )}
      {record.time.length ? (
        <Stack gap={4} component="ul" aria-label="Time entries" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {record.time.map((t) => (
            <Group component="li" key={t._id} justify="space-between" wrap="nowrap" mih={TAP}>
              <Text size="sm">
                {t.worker.fullName} · {formatShortDay(t.workDate)} ·{' '}
                {t.minutes === null ? 'running' : formatMinutes(t.minutes)}
              </Text>
              {t.worker._id === record.me._id && !closed ? (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size={TAP}
                  aria-label={`Remove the entry of ${formatShortDay(t.workDate)}`}
                  onClick={() => void changes.removeTime(t._id)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              ) : null}
            </Group>
          ))}
        </Stack>
      ) : null}
      {record.timeTotals.length ? (
        <Text size="sm" fw={600}>
          Total: {record.timeTotals.map((t) => `${t.worker.fullName} ${formatMinutes(t.minutes)}`).join(', ')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** Materials used beyond the quote: picked from the price list or typed; prices only when shown. */
export function MaterialsSection({ record, changes, closed }: SectionProps) {
  const [name, setName] = useState('');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [price, setPrice] = useState<number | string>('');
  const listed = record.priceList.find((p) => p.name.toLowerCase() === name.trim().toLowerCase());
  const add = () => {
    if (!name.trim() || typeof quantity !== 'number' || quantity <= 0) return;
    void changes.putMaterial(crypto.randomUUID(), {
      name: name.trim(),
      quantity,
      ...(record.pricesShown && typeof price === 'number' ? { unitPrice: price } : {}),
    });
    setName('');
    setQuantity(1);
    setPrice('');
  };
  return (
    <Stack gap="sm">
      {record.materials.length ? (
        <Stack gap={4} component="ul" aria-label="Materials used" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {record.materials.map((m) => (
            <Group component="li" key={m._id} justify="space-between" wrap="nowrap" mih={TAP}>
              <Text size="sm">
                {m.name} × {m.quantity}
                {record.pricesShown && m.unitPrice !== null ? ` · ${formatDollars(m.unitPrice)} each` : ''}
              </Text>
              {closed ? null : (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size={TAP}
                  aria-label={`Remove ${m.name}`}
                  onClick={() => void changes.removeMaterial(m._id)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          No materials beyond the quote.
        </Text>
      )}
      {closed ? null : (
        <Stack gap="xs">
          <Autocomplete
            label="Material"
            placeholder="Pick from the list or type a name"
            data={record.priceList.map((p) => p.name)}
            value={name}
            maxLength={200}
            onChange={setName}
          />
          <Group gap="xs" align="flex-end">
            <NumberInput
              label="Quantity"
              value={quantity}
              onChange={setQuantity}
              min={0.01}
              decimalScale={2}
              style={{ flex: '1 1 80px' }}
            />
            {record.pricesShown ? (
              <NumberInput
                label="Unit price"
                prefix="$"
                value={listed && price === '' ? (listed.unitPrice ?? '') : price}
                onChange={setPrice}
                min={0}
                decimalScale={2}
                style={{ flex: '1 1 100px' }}
              />
            ) : null}
            <Button variant="light" onClick={add} disabled={!name.trim() || typeof quantity !== 'number'}>
              Add material
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Notes for the office (never on the client's report) and an optional note to the client (printed on
 * it), each queued as it is typed.
 */
export function NotesSection({ record, changes, closed }: SectionProps) {
  return (
    <Stack gap="md">
      {CREW_NOTES.map(({ field, save, ...note }) => (
        <QueuedNote key={field} {...note} saved={record[field]} closed={closed} save={changes[save]} />
      ))}
    </Stack>
  );
}

const CREW_NOTES = [
  {
    field: 'notes',
    save: 'setNotes',
    label: 'Notes for the office',
    description: "Only the office reads these (never on the client's report): saved as you type",
    minRows: 3,
    maxLength: 5000,
  },
  {
    field: 'clientNote',
    save: 'setClientNote',
    label: 'Note to the client',
    description: "Optional: printed on the client's job report",
    minRows: 2,
    maxLength: 2000,
  },
] as const;

/**
 * A note queued as it is typed (each keystroke replaces the change still waiting, so one is sent), so a
 * reload a moment later loses nothing. Shows the record's text unless being typed in.
 */
function QueuedNote({
  saved,
  save,
  closed,
  ...field
}: {
  label: string;
  description: string;
  minRows: number;
  maxLength: number;
  saved: string;
  closed: boolean;
  save: (value: string) => Promise<unknown>;
}) {
  const [value, setValue] = useState(saved);
  const typing = useRef(false);
  useEffect(() => {
    if (!typing.current) setValue(saved);
  }, [saved]);
  return (
    <Textarea
      {...field}
      autosize
      value={value}
      readOnly={closed}
      onFocus={() => (typing.current = true)}
      onBlur={() => (typing.current = false)}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setValue(next);
        void save(next);
      }}
    />
  );
}
