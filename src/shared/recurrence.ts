import * as rruleModule from 'rrule';
import type { Options, RRule as RRuleRule, Weekday as RRuleWeekday } from 'rrule';
import { z } from 'zod';
import { addDays, formatClock, formatLongDate, weekdayOf, zonedTimeToUtc } from './dates';
import { clock } from './schemas/fields';
import { WEEKDAYS, type Weekday } from './schemas/schedule';
import type { VisitsPerYear } from './schemas/service-plans';

/**
 * Recurring work (issue 31): a job's visits that repeat, as an RFC 5545 rule read by rrule. The rule
 * lives on the business's wall clock: its dates are calendar dates and its times "09:00", and each
 * visit's instant is found from them in the business's zone (`visitInstants`), so a 9 AM visit stays at
 * 9 AM across the daylight-saving changes. rrule is given "floating" dates for that (UTC dates standing
 * for wall-clock ones, as its documentation advises): no zone ever enters its arithmetic.
 */

// rrule is CommonJS for Node, whose ES module loader shows only its default export (the server's
// build leaves packages to node_modules), and ES modules for bundlers (the browser's build, Vitest).
// The default is looked up by name: written `.default`, every build warned that the bundler's copy has none.
const { RRule } = 'RRule' in rruleModule ? rruleModule : (Reflect.get(rruleModule, 'default') as typeof rruleModule);

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Pick a date');

/** "The 2nd Tuesday", "the last Friday" of each month; or its day (1–28, or the last: -1). */
const monthlyOn = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('day'), day: z.union([z.number().int().min(1).max(28), z.literal(-1)]) }),
  z.object({
    kind: z.literal('weekday'),
    nth: z.union([z.number().int().min(1).max(4), z.literal(-1)]),
    weekday: z.enum(WEEKDAYS),
  }),
]);

/** The longest a rule may run: enough for ten years of weekly visits, and a bound on what one rule makes. */
export const MAX_RECURRING_VISITS = 520;

export const recurrenceInput = z
  .object({
    /** Every `every` weeks or months. */
    every: z.coerce.number().int().min(1, 'At least every 1').max(52, 'At most every 52'),
    unit: z.enum(['week', 'month']),
    /** Weekly: the weekdays (one or more). */
    weekdays: z.array(z.enum(WEEKDAYS)).max(7).default([]),
    /** Monthly: the day, or the nth weekday. */
    monthly: monthlyOn.nullable().default(null),
    /** The first day the rule may fall on; the first visit is its first occurrence from there. */
    firstDate: isoDate,
    start: clock,
    end: clock,
    /** Ends on a date (its last visit on or before it), after a number of visits, or not at all. */
    until: isoDate.nullable().default(null),
    count: z.coerce.number().int().min(1).max(MAX_RECURRING_VISITS).nullable().default(null),
  })
  .superRefine((r, ctx) => {
    if (r.start >= r.end)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'The visit must end after it starts' });
    if (r.unit === 'week' && r.weekdays.length === 0)
      ctx.addIssue({ code: 'custom', path: ['weekdays'], message: 'Pick the weekday' });
    if (r.unit === 'month' && !r.monthly)
      ctx.addIssue({ code: 'custom', path: ['monthly'], message: 'Pick the day of the month' });
    if (r.until && r.count)
      ctx.addIssue({ code: 'custom', path: ['count'], message: 'End on a date or after a number of visits, not both' });
    if (r.until && r.until < r.firstDate)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'The end must come after the first visit' });
  });
export type RecurrenceInput = z.input<typeof recurrenceInput>;
export type Recurrence = z.output<typeof recurrenceInput>;

const RRULE_DAYS: Record<Weekday, RRuleWeekday> = {
  Monday: RRule.MO,
  Tuesday: RRule.TU,
  Wednesday: RRule.WE,
  Thursday: RRule.TH,
  Friday: RRule.FR,
  Saturday: RRule.SA,
  Sunday: RRule.SU,
};

/** A calendar date as rrule's floating date: midnight UTC of it. */
const floating = (date: string) => new Date(`${date}T00:00:00Z`);
const dateOf = (d: Date) => d.toISOString().slice(0, 10);

/** The rule as rrule's, on floating dates (times are the rule's own, added to each date). */
function rruleOf(r: Recurrence): RRuleRule {
  const options: Partial<Options> = {
    freq: r.unit === 'week' ? RRule.WEEKLY : RRule.MONTHLY,
    interval: r.every,
    dtstart: floating(r.firstDate),
    wkst: RRule.MO,
    ...(r.until ? { until: floating(r.until) } : {}),
    ...(r.count ? { count: r.count } : {}),
  };
  if (r.unit === 'week') options.byweekday = r.weekdays.map((d) => RRULE_DAYS[d]);
  else if (r.monthly?.kind === 'day') options.bymonthday = [r.monthly.day];
  else if (r.monthly?.kind === 'weekday') options.byweekday = [RRULE_DAYS[r.monthly.weekday].nth(r.monthly.nth)];
  return new RRule(options);
}

/** The RFC 5545 RRULE line (stored with the plan, and what a calendar application would read). */
export function rruleLine(r: Recurrence): string {
  return rruleOf(r)
    .toString()
    .split('\n')
    .find((line) => line.startsWith('RRULE:'))!
    .slice('RRULE:'.length);
}

/** The rule's dates from `from` to `to` (both included), in order; never more than the rule allows. */
export function occurrencesBetween(r: Recurrence, from: string, to: string): string[] {
  if (to < from) return [];
  return rruleOf(r).between(floating(from), floating(to), true).map(dateOf);
}

/** The rule's first date to fall on (its first visit), if it has one. */
export function firstOccurrence(r: Recurrence): string | undefined {
  const first = rruleOf(r).after(floating(r.firstDate), true);
  return first ? dateOf(first) : undefined;
}

/** Every date of a rule that ends (by date or count); at most MAX_RECURRING_VISITS of an open one. */
export function allOccurrences(r: Recurrence): string[] {
  return rruleOf(r)
    .all((_, i) => i < MAX_RECURRING_VISITS)
    .map(dateOf);
}

/** When a visit on one of the rule's dates starts and ends, in the business's zone. */
export function visitInstants(r: Pick<Recurrence, 'start' | 'end'>, date: string, timeZone: string) {
  return { startsAt: zonedTimeToUtc(date, r.start, timeZone), endsAt: zonedTimeToUtc(date, r.end, timeZone) };
}

/**
 * "This and following": the rule cut before `date` (it ends the day before, its count reduced to the
 * visits it kept) and the new rule from `date` on (its count the rest), for a change that applies from
 * one visit on. `changes` are the new rule's own (another weekday, time or interval).
 */
export function splitAt(r: Recurrence, date: string, changes: Partial<Recurrence> = {}): [Recurrence, Recurrence] {
  const kept = occurrencesBetween(r, r.firstDate, addDays(date, -1)).length;
  const before: Recurrence = { ...r, until: addDays(date, -1), count: null };
  const after: Recurrence = {
    ...r,
    firstDate: date,
    ...(r.count ? { count: Math.max(1, r.count - kept), until: null } : {}),
    ...changes,
  };
  return [before, after];
}

const ORDINALS: Record<number, string> = { 1: 'first', 2: 'second', 3: 'third', 4: 'fourth', [-1]: 'last' };
const plural = (n: number, unit: string) => (n === 1 ? unit : `${n} ${unit}s`);

/** "Every 2 weeks on Tuesday, 9:00 AM – 11:00 AM, from December 1, 2026, 6 visits": as the office and the client read it. */
export function describeRecurrence(r: Recurrence): string {
  const on =
    r.unit === 'week'
      ? `on ${listOf(WEEKDAYS.filter((d) => r.weekdays.includes(d)))}`
      : r.monthly?.kind === 'day'
        ? r.monthly.day === -1
          ? 'on the last day'
          : `on the ${ordinalDay(r.monthly.day)}`
        : r.monthly
          ? `on the ${ORDINALS[r.monthly.nth]} ${r.monthly.weekday}`
          : '';
  const end = r.until
    ? `, until ${formatLongDate(r.until)}`
    : r.count
      ? `, ${r.count} ${r.count === 1 ? 'visit' : 'visits'}`
      : '';
  return `Every ${plural(r.every, r.unit)} ${on}, ${formatClock(r.start)} – ${formatClock(r.end)}, from ${formatLongDate(r.firstDate)}${end}`;
}

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function ordinalDay(n: number): string {
  const suffix =
    n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/** Whether a date is one the rule falls on (a visit moved off it is an exception of that rule). */
export function fallsOn(r: Recurrence, date: string): boolean {
  return occurrencesBetween(r, date, date).length === 1;
}

/** The first day of a date's month. */
const monthOf = (date: string) => `${date.slice(0, 7)}-01`;

/** The first day of the month after. */
export function nextMonth(first: string): string {
  const [y, m] = first.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * A plan billed by the month (decision 047): the months still to invoice on `today`, as their first days,
 * in order. Each month is billed on its 1st (the first one as soon as the plan starts), from the month of
 * its first visit or of the day the plan was started, whichever is later (never a month before it existed
 * or before its first visit), after `billedThrough` (the last month billed), and none after the month of
 * the rule's last visit when it ends.
 */
export function monthsToBill(
  r: Recurrence,
  on: { today: string; startedOn: string; billedThrough: string | null },
): string[] {
  const last = r.until || r.count ? allOccurrences(r).at(-1) : undefined;
  const through = last && monthOf(last) < monthOf(on.today) ? monthOf(last) : monthOf(on.today);
  const visit = firstOccurrence(r);
  if (!visit) return [];
  const first = monthOf(visit > on.startedOn ? visit : on.startedOn);
  const months: string[] = [];
  for (let m = on.billedThrough ? nextMonth(on.billedThrough) : first; m <= through; m = nextMonth(m)) months.push(m);
  return months;
}

/** "December 2026". */
export function monthName(first: string): string {
  return new Date(`${first}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A month's last day. */
export const monthEnd = (first: string): string => addDays(nextMonth(first), -1);

/** A date some months later (the same day; never past the month's end: Jan 31 + 1 month is Feb 28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * A service plan's rule (issue 31): its visits a year from the first visit's date, on that weekday (52 or
 * 26 a year) or that day of the month (every 12 / n months), at its times, for its term: the last visit
 * falls before the same date `termMonths` later (a year's plan from March 3 ends by March 2 next year).
 * A monthly plan's day is at most the 28th (every month has one).
 */
export function servicePlanRule(plan: {
  visitsPerYear: VisitsPerYear;
  firstDate: string;
  start: string;
  end: string;
  termMonths: number;
}): Recurrence {
  const weekly = plan.visitsPerYear >= 26;
  return recurrenceInput.parse({
    every: weekly ? 52 / plan.visitsPerYear : 12 / plan.visitsPerYear,
    unit: weekly ? 'week' : 'month',
    weekdays: weekly ? [weekdayOf(plan.firstDate)] : [],
    monthly: weekly ? null : { kind: 'day', day: Math.min(28, Number(plan.firstDate.slice(8))) },
    firstDate: plan.firstDate,
    start: plan.start,
    end: plan.end,
    until: addDays(addMonths(plan.firstDate, plan.termMonths), -1),
  });
}
