import {
  Alert,
  Badge,
  Button,
  Chip,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Radio,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { addDays, formatLongDate, todayIn, weekdayOf } from '#shared/dates';
import { describeRecurrence, recurrenceInput, splitAt } from '#shared/recurrence';
import { WEEKDAYS, type Weekday } from '#shared/schemas/schedule';
import { formatMoney, toCents } from '#shared/money';
import { visitPlanInput, type PlanBilling, type VisitPlanInput, type VisitPlanView } from '#shared/schemas/visit-plans';
import type { VisitView } from '#shared/schemas/visits';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PriceAndTax } from '../../../components/price-and-tax';
import { TimeRange } from '../../../components/time-range';
import { ApiError } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useEmployees } from '../api/visits';
import { useJobPlans, usePlanChanges } from '../api/visit-plans';

/** A job's repeating visits on its page (decision 047): what repeats, its next dates, start one, stop one. */
export function JobPlans({ jobId, open }: { jobId: string; open: boolean }) {
  const titleId = useId();
  const plans = useJobPlans(jobId);
  const { stop } = usePlanChanges(jobId);
  const [starting, setStarting] = useState(false);
  const [stopping, setStopping] = useState<string | null>(null);
  const [changing, setChanging] = useState<VisitPlanView | null>(null);
  const list = plans.data?.plans ?? [];
  const running = list.filter((p) => !p.ended);
  /** The date a replaced plan changed from: the first date of the plan that goes on from it. */
  const changedFrom = (p: VisitPlanView) => {
    const next = list.find((q) => q._id === p.replacedBy);
    return formatLongDate(next ? next.rule.firstDate : addDays(p.rule.until ?? p.rule.firstDate, 1));
  };
  if (!open && list.length === 0) return null;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3" id={titleId}>
          Repeating visits
        </Title>
        {open ? (
          <Button variant="light" leftSection={<IconRepeat size={18} aria-hidden />} onClick={() => setStarting(true)}>
            Make visits repeat
          </Button>
        ) : null}
      </Group>
      {list.length === 0 ? (
        <Text c="dimmed">
          None. Regular work (gutters, pressure washing, upkeep) can repeat every few weeks or months: its visits are
          booked ahead on the calendar and the client is reminded of each.
        </Text>
      ) : (
        <Stack gap="sm">
          {[...running, ...list.filter((p) => p.ended)].map((p) => (
            <Group key={p._id} justify="space-between" wrap="wrap" gap="xs" opacity={p.ended ? 0.7 : 1}>
              <div>
                <Text fw={600} td={p.ended && !p.replaced ? 'line-through' : undefined}>
                  {p.description}
                </Text>
                {p.billing === 'none' ? null : (
                  <Text size="sm">{billingWords(p.billing, toCents(p.price), p.taxable)}</Text>
                )}
                {p.ended && p.replaced ? (
                  <Text size="sm" c="dimmed">
                    Changed from {changedFrom(p)}: the plan above goes on from then.
                  </Text>
                ) : p.ended ? (
                  <Badge variant="light" color="gray" c="dark.7">
                    Stopped
                  </Badge>
                ) : (
                  <Text size="sm" c="dimmed">
                    Next: {p.nextDates.map(formatLongDate).join(' · ') || 'no more dates'}
                    {p.madeThrough && p.nextDates.some((d) => d > p.madeThrough!)
                      ? ` (booked on the calendar through ${formatLongDate(p.madeThrough)})`
                      : p.nextDates.length
                        ? ' (all booked on the calendar)'
                        : ''}
                  </Text>
                )}
              </div>
              {!p.ended && open ? (
                <Group gap="xs">
                  <Button size="xs" variant="default" onClick={() => setChanging(p)}>
                    Change from a date
                  </Button>
                  <Button size="xs" variant="outline" color="red.9" onClick={() => setStopping(p._id)}>
                    Stop repeating
                  </Button>
                </Group>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      <Modal opened={starting} onClose={() => setStarting(false)} title="Make visits repeat" centered radius="lg">
        <PlanForm jobId={jobId} onDone={() => setStarting(false)} />
      </Modal>
      <Modal
        opened={changing !== null}
        onClose={() => setChanging(null)}
        title="Change the repeating visits"
        centered
        radius="lg"
      >
        {changing ? <PlanForm jobId={jobId} changing={changing} onDone={() => setChanging(null)} /> : null}
      </Modal>
      <ConfirmDialog
        opened={stopping !== null}
        title="Stop repeating visits?"
        confirmLabel="Stop repeating"
        confirmColor="red.9"
        loading={stop.isPending}
        onClose={() => setStopping(null)}
        onConfirm={() =>
          stop.mutate(stopping!, {
            onSuccess: () => {
              toast.success('The repeating visits are stopped: the client is told');
              setStopping(null);
            },
            onError: (error) => toast.error(error.message),
          })
        }
      >
        <Text size="sm">Its visits still to come are cancelled, and the client is told once.</Text>
      </ConfirmDialog>
    </Paper>
  );
}

/**
 * "This and following" from one visit of a series (the calendar's and the job's visit dialogs): the
 * plan's change form, from that visit's date. A series stopped meanwhile says so.
 */
export function ChangeSeriesDialog({ visit, onClose }: { visit: VisitView | null; onClose: () => void }) {
  return (
    <Modal opened={visit !== null} onClose={onClose} title="Change this and the following visits" centered radius="lg">
      {visit?.jobId && visit.planId ? (
        <SeriesForm jobId={visit.jobId} planId={visit.planId} date={visit.date} onDone={onClose} />
      ) : null}
    </Modal>
  );
}

function SeriesForm({
  jobId,
  planId,
  date,
  onDone,
}: {
  jobId: string;
  planId: string;
  date: string;
  onDone: () => void;
}) {
  const plans = useJobPlans(jobId);
  if (plans.isPending) return <Loader size="sm" aria-label="Loading the repeating visits" />;
  if (plans.isError)
    return (
      <Alert color="red" role="alert">
        The repeating visits could not be loaded. Please try again.
      </Alert>
    );
  // The visit's series may have changed from a later date since: the plan running now goes on from it.
  const byId = new Map(plans.data.plans.map((p) => [p._id, p]));
  let plan = byId.get(planId);
  for (let hops = 0; plan?.replacedBy && hops < byId.size; hops++) plan = byId.get(plan.replacedBy);
  if (!plan || plan.ended)
    return (
      <Alert color="gray" role="status">
        These visits are stopped: they no longer repeat.
      </Alert>
    );
  return <PlanForm jobId={jobId} changing={plan} fromDate={date} onDone={onDone} />;
}

/** How far ahead a plan's visits are booked (its horizon, in weeks). */
const BOOK_AHEAD = [
  { value: '4', label: '4 weeks' },
  { value: '8', label: '8 weeks' },
  { value: '13', label: '3 months' },
  { value: '26', label: '6 months' },
  { value: '52', label: 'A year' },
];

/** "Billed $120.00 a month, plus sales tax": how a plan bills, as the office reads it. */
function billingWords(billing: Exclude<PlanBilling, 'none'>, cents: number, taxable = false) {
  return `Billed ${formatMoney(cents)} ${billing === 'visit' ? 'a visit, once it is over' : 'a month, on the 1st'}${taxable ? ', plus sales tax' : ''}`;
}

type Ends = 'never' | 'until' | 'count';
const NTH = [
  { value: '1', label: 'First' },
  { value: '2', label: 'Second' },
  { value: '3', label: 'Third' },
  { value: '4', label: 'Fourth' },
  { value: '-1', label: 'Last' },
];
const DAYS = [
  ...Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
  { value: '-1', label: 'Last day' },
];

/**
 * The rule's form: every N weeks on weekdays, or every N months on a day or an nth weekday; its end; the
 * crew, notes and billing. `changing` a plan, it starts as that plan from its next date on ("this and
 * following": the visits left, the same crew and price), and saves as a change from the date chosen.
 */
function PlanForm({
  jobId,
  onDone,
  changing,
  fromDate,
}: {
  jobId: string;
  onDone: () => void;
  changing?: VisitPlanView;
  /** "This and following" from one visit (the calendar's): its date; else the plan's next date. */
  fromDate?: string;
}) {
  const { start, change } = usePlanChanges(jobId);
  const employees = useEmployees(true);
  const tomorrow = addDays(todayIn(siteConfig().timeZone), 1);
  const from = fromDate ?? changing?.nextDates[0] ?? tomorrow;
  const was = changing ? splitAt(changing.rule, from)[1] : undefined;
  const [every, setEvery] = useState<number | string>(was?.every ?? 2);
  const [unit, setUnit] = useState<'week' | 'month'>(was?.unit ?? 'week');
  const [weekdays, setWeekdays] = useState<string[]>(was?.weekdays.length ? was.weekdays : [weekdayOf(from)]);
  const [monthlyKind, setMonthlyKind] = useState<'day' | 'weekday'>(was?.monthly?.kind ?? 'day');
  const [day, setDay] = useState<string | null>(
    String(was?.monthly?.kind === 'day' ? was.monthly.day : Math.min(28, Number(from.slice(8)))),
  );
  const [nth, setNth] = useState<string | null>(String(was?.monthly?.kind === 'weekday' ? was.monthly.nth : 1));
  const [monthWeekday, setMonthWeekday] = useState<string | null>(
    was?.monthly?.kind === 'weekday' ? was.monthly.weekday : weekdayOf(from),
  );
  const [firstDate, setFirstDate] = useState(from);
  const [times, setTimes] = useState({ start: was?.start ?? '09:00', end: was?.end ?? '11:00' });
  const [ends, setEnds] = useState<Ends>(was ? (was.count ? 'count' : was.until ? 'until' : 'never') : 'count');
  const [until, setUntil] = useState(was?.until ?? '');
  const [count, setCount] = useState<number | string>(was?.count ?? 6);
  const [horizon, setHorizon] = useState<string | null>(String(changing?.horizonWeeks ?? 8));
  const [workerIds, setWorkerIds] = useState<string[]>(changing?.workerIds ?? []);
  const [notes, setNotes] = useState(changing?.notes ?? '');
  const [clientNote, setClientNote] = useState(changing?.clientNote ?? '');
  const [billing, setBilling] = useState<PlanBilling>(changing?.billing ?? 'none');
  const [price, setPrice] = useState<number | string>(changing?.price || '');
  const [taxable, setTaxable] = useState(changing?.taxable ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** A field changed: its error (and the form's) goes until the next try. */
  const clear = (...keys: string[]) =>
    setErrors((found) => Object.fromEntries(Object.entries(found).filter(([k]) => !keys.includes(k) && k !== 'form')));

  const body = (): VisitPlanInput => ({
    rule: {
      every: Number(every),
      unit,
      weekdays: unit === 'week' ? (weekdays as Weekday[]) : [],
      monthly:
        unit === 'week'
          ? null
          : monthlyKind === 'day'
            ? { kind: 'day', day: Number(day) }
            : { kind: 'weekday', nth: Number(nth), weekday: monthWeekday as Weekday },
      firstDate,
      start: times.start,
      end: times.end,
      until: ends === 'until' ? until || null : null,
      count: ends === 'count' ? Number(count) : null,
    },
    workerIds,
    notes,
    clientNote,
    horizonWeeks: Number(horizon),
    billing,
    price: billing === 'none' ? 0 : price === '' ? Number.NaN : Number(price),
    taxable: billing !== 'none' && taxable,
  });
  const rule = recurrenceInput.safeParse(body().rule);
  const submit = async () => {
    const parsed = visitPlanInput.safeParse(body());
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path.at(-1))] ??= issue.message;
      if (ends === 'until' && !until) found.until = 'Pick the last date';
      return setErrors(found);
    }
    setErrors({});
    try {
      const saved = changing
        ? await change.mutateAsync({ planId: changing._id, body: parsed.data })
        : await start.mutateAsync(parsed.data);
      toast.success(
        changing ? 'Repeating visits changed: the client is told' : 'Repeating visits booked: the client is told',
      );
      // Booked anyway; the office moves those whose crew is busy or off then.
      const { clashes } = saved;
      if (clashes.length)
        toast.warning(
          `To move on the calendar: ${clashes.slice(0, 3).join('; ')}${clashes.length > 3 ? `; and ${clashes.length - 3} more` : ''}`,
        );
      onDone();
    } catch (error) {
      setErrors({ form: error instanceof ApiError ? error.message : 'The repeating visits could not be saved' });
    }
  };

  return (
    <Stack>
      <Group grow align="flex-end">
        <NumberInput
          label="Every"
          min={1}
          max={52}
          allowDecimal={false}
          value={every}
          onChange={setEvery}
          error={errors.every}
        />
        <SegmentedControl
          aria-label="Weeks or months"
          value={unit}
          onChange={(v) => setUnit(v as 'week' | 'month')}
          data={[
            { value: 'week', label: 'weeks' },
            { value: 'month', label: 'months' },
          ]}
        />
      </Group>
      {unit === 'week' ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            On
          </Text>
          <Chip.Group
            multiple
            value={weekdays}
            onChange={(days) => {
              setWeekdays(days);
              clear('weekdays');
            }}
          >
            <Group gap={6}>
              {WEEKDAYS.map((d) => (
                <Chip key={d} value={d} size="sm">
                  {d.slice(0, 3)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {errors.weekdays ? (
            <Text size="sm" c="red.9">
              {errors.weekdays}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Stack gap="xs">
          <Radio.Group label="On" value={monthlyKind} onChange={(v) => setMonthlyKind(v as 'day' | 'weekday')}>
            <Group mt={4}>
              <Radio value="day" label="A day of the month" />
              <Radio value="weekday" label="A weekday of the month" />
            </Group>
          </Radio.Group>
          {monthlyKind === 'day' ? (
            <Select label="Day" data={DAYS} value={day} onChange={setDay} allowDeselect={false} />
          ) : (
            <Group grow>
              <Select label="Which" data={NTH} value={nth} onChange={setNth} allowDeselect={false} />
              <Select
                label="Weekday"
                data={[...WEEKDAYS]}
                value={monthWeekday}
                onChange={setMonthWeekday}
                allowDeselect={false}
              />
            </Group>
          )}
        </Stack>
      )}
      <TextInput
        type="date"
        label={changing ? 'From (this visit and the following)' : 'From'}
        withAsterisk
        value={firstDate}
        onChange={(e) => {
          const date = e.currentTarget.value;
          setFirstDate(date);
          // Changing a plan that ends after a number of visits: the visits left from that date.
          if (changing?.rule.count && /^\d{4}-\d{2}-\d{2}$/.test(date))
            setCount(splitAt(changing.rule, date)[1].count!);
          clear('firstDate', 'until');
        }}
        error={errors.firstDate}
      />
      <TimeRange
        start={times.start}
        end={times.end}
        onChange={(next) => {
          setTimes(next);
          clear('start', 'end');
        }}
        errors={errors}
      />
      <Radio.Group label="Ends" value={ends} onChange={(v) => setEnds(v as Ends)}>
        <Stack gap={6} mt={4}>
          <Radio value="count" label="After a number of visits" />
          <Radio value="until" label="On a date" />
          <Radio value="never" label="Not set: until it is stopped" />
        </Stack>
      </Radio.Group>
      {ends === 'count' ? (
        <NumberInput
          label="Visits"
          min={1}
          max={520}
          allowDecimal={false}
          value={count}
          onChange={setCount}
          error={errors.count}
        />
      ) : ends === 'until' ? (
        <TextInput
          type="date"
          label="Last date"
          value={until}
          onChange={(e) => setUntil(e.currentTarget.value)}
          error={errors.until}
        />
      ) : null}
      <Select
        label="Book ahead"
        description="Its visits are on the calendar this far ahead, and more are booked as the weeks go by"
        data={BOOK_AHEAD}
        value={horizon}
        onChange={setHorizon}
        allowDeselect={false}
      />
      <MultiSelect
        label="Crew"
        placeholder={workerIds.length ? undefined : 'Choose who goes'}
        searchable
        data={(employees.data ?? []).map((u) => ({ value: u._id, label: u.fullName || u.username }))}
        value={workerIds}
        onChange={setWorkerIds}
      />
      <Textarea
        label="Notes for the crew"
        description="On every visit; only the crew sees these"
        autosize
        minRows={2}
        value={notes}
        onChange={(e) => setNotes(e.currentTarget.value)}
      />
      <Textarea
        label="Note to the client"
        description="Optional: on every visit's reminder"
        autosize
        minRows={1}
        value={clientNote}
        onChange={(e) => setClientNote(e.currentTarget.value)}
      />
      <Radio.Group
        label="Billing"
        value={billing}
        onChange={(v) => {
          setBilling(v as PlanBilling);
          clear('price');
        }}
      >
        <Stack gap={6} mt={4}>
          <Radio value="none" label="Not by these visits: the job is invoiced as usual" />
          <Radio value="visit" label="Each visit, once it is over" />
          <Radio value="month" label="Each month, on the 1st (this month at once)" />
        </Stack>
      </Radio.Group>
      {billing === 'none' ? null : (
        <PriceAndTax
          label={billing === 'visit' ? 'Price per visit' : 'Price per month'}
          price={price}
          onPrice={(v) => {
            setPrice(v);
            clear('price');
          }}
          error={errors.price}
          taxable={taxable}
          onTaxable={setTaxable}
        />
      )}
      {rule.success ? (
        <Text size="sm" fw={600} role="status">
          {describeRecurrence(rule.data)}
          {billing !== 'none' && Number(price) > 0 ? `. ${billingWords(billing, toCents(Number(price)), taxable)}` : ''}
        </Text>
      ) : null}
      {errors.form ? (
        <Alert color="red" role="alert">
          {errors.form}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={start.isPending || change.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={start.isPending || change.isPending}>
          {changing ? 'Change from this date' : 'Book the repeating visits'}
        </Button>
      </Group>
    </Stack>
  );
}
