import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, wallTimeIn, weekdayOf } from '#shared/dates';
import {
  addMonths,
  allOccurrences,
  describeRecurrence,
  fallsOn,
  monthName,
  monthsToBill,
  nextMonth,
  occurrencesBetween,
  recurrenceInput,
  rruleLine,
  servicePlanRule,
  splitAt,
  visitInstants,
  type RecurrenceInput,
} from '#shared/recurrence';
import { WEEKDAYS } from '#shared/schemas/schedule';

const LA = 'America/Los_Angeles';
const rule = (input: RecurrenceInput) => recurrenceInput.parse(input);

describe('recurring work: the rule', () => {
  it('every 2 weeks on Tuesday, for 4 visits, from a Monday: the first visit is the Tuesday after', () => {
    const r = rule({
      every: 2,
      unit: 'week',
      weekdays: ['Tuesday'],
      firstDate: '2026-11-30',
      start: '09:00',
      end: '11:00',
      count: 4,
    });
    expect(allOccurrences(r)).toEqual(['2026-12-01', '2026-12-15', '2026-12-29', '2027-01-12']);
    expect(rruleLine(r)).toBe('FREQ=WEEKLY;INTERVAL=2;WKST=MO;COUNT=4;BYDAY=TU');
    expect(describeRecurrence(r)).toBe(
      'Every 2 weeks on Tuesday, 9:00 AM – 11:00 AM, from November 30, 2026, 4 visits',
    );
  });

  it('monthly on the 15th, the last day, or the second Saturday; until a date', () => {
    const base = {
      every: 1,
      unit: 'month' as const,
      firstDate: '2027-01-01',
      start: '08:00',
      end: '10:00',
      until: '2027-04-30',
    };
    expect(allOccurrences(rule({ ...base, monthly: { kind: 'day', day: 15 } }))).toEqual([
      '2027-01-15',
      '2027-02-15',
      '2027-03-15',
      '2027-04-15',
    ]);
    // The last day of February is the 28th: no month is skipped, as "the 31st" would skip them.
    expect(allOccurrences(rule({ ...base, monthly: { kind: 'day', day: -1 } }))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
    ]);
    const saturdays = rule({ ...base, monthly: { kind: 'weekday', nth: 2, weekday: 'Saturday' } });
    expect(allOccurrences(saturdays)).toEqual(['2027-01-09', '2027-02-13', '2027-03-13', '2027-04-10']);
    expect(describeRecurrence(saturdays)).toBe(
      'Every month on the second Saturday, 8:00 AM – 10:00 AM, from January 1, 2027, until April 30, 2027',
    );
  });

  it('refuses what cannot be a rule, saying which field', () => {
    const bad = (input: object) =>
      recurrenceInput
        .safeParse({
          every: 1,
          unit: 'week',
          weekdays: ['Monday'],
          firstDate: '2027-01-04',
          start: '09:00',
          end: '10:00',
          ...input,
        })
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(bad({ end: '08:00' })).toEqual(['end: The visit must end after it starts']);
    expect(bad({ weekdays: [] })).toEqual(['weekdays: Pick the weekday']);
    expect(bad({ unit: 'month' })).toEqual(['monthly: Pick the day of the month']);
    expect(bad({ until: '2027-03-01', count: 3 })).toEqual([
      'count: End on a date or after a number of visits, not both',
    ]);
    expect(bad({ until: '2027-01-01' })).toEqual(['until: The end must come after the first visit']);
    expect(bad({ count: 521 })?.[0]).toMatch(/^count:/);
    expect(bad({ every: 0 })?.[0]).toMatch(/^every:/);
  });

  it('keeps 9 AM at 9 AM across both daylight-saving changes (Sacramento, 2027)', () => {
    const r = rule({
      every: 1,
      unit: 'week',
      weekdays: ['Saturday'],
      firstDate: '2027-03-06',
      start: '09:00',
      end: '11:00',
      count: 2,
    });
    // March 13 is the Saturday before the clocks go forward (Sunday March 14), March 6 the one before that.
    const [first, second] = allOccurrences(r).map((d) => visitInstants(r, d, LA));
    expect(first!.startsAt.toISOString()).toBe('2027-03-06T17:00:00.000Z'); // PST, UTC-8
    expect(second!.startsAt.toISOString()).toBe('2027-03-13T17:00:00.000Z'); // still PST
    const later = visitInstants(r, '2027-03-20', LA);
    expect(later.startsAt.toISOString()).toBe('2027-03-20T16:00:00.000Z'); // PDT, UTC-7
    const november = visitInstants(r, '2027-11-13', LA);
    expect(november.startsAt.toISOString()).toBe('2027-11-13T17:00:00.000Z'); // back to PST
  });

  it('"this and following": the rule cut the day before, the new one taking the rest of the visits', () => {
    const r = rule({
      every: 1,
      unit: 'week',
      weekdays: ['Monday'],
      firstDate: '2027-01-04',
      start: '09:00',
      end: '10:00',
      count: 6,
    });
    const [before, after] = splitAt(r, '2027-01-25', { weekdays: ['Wednesday'] });
    expect(allOccurrences(before)).toEqual(['2027-01-04', '2027-01-11', '2027-01-18']);
    expect(allOccurrences(after)).toEqual(['2027-01-27', '2027-02-03', '2027-02-10']);
    expect(fallsOn(r, '2027-01-25')).toBe(true);
    expect(fallsOn(r, '2027-01-26')).toBe(false);
  });
});

const weeklyRules = fc.record({
  every: fc.integer({ min: 1, max: 8 }),
  unit: fc.constant('week' as const),
  weekdays: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 3 }),
  firstDate: fc.integer({ min: 0, max: 800 }).map((n) => addDays('2026-01-01', n)),
  start: fc.constantFrom('07:00', '09:30', '13:00'),
  end: fc.constant('16:00'),
  count: fc.integer({ min: 1, max: 60 }),
});

describe('recurring work: the months a monthly plan bills', () => {
  const weekly = rule({
    every: 2,
    unit: 'week',
    weekdays: ['Tuesday'],
    firstDate: '2026-11-10',
    start: '09:00',
    end: '10:00',
  });

  it('bills the first month as soon as it has begun, then each month on its 1st, each once', () => {
    const started = { startedOn: '2026-11-09', billedThrough: null };
    expect(monthsToBill(weekly, { today: '2026-11-09', ...started })).toEqual(['2026-11-01']);
    expect(monthsToBill(weekly, { today: '2026-11-30', ...started, billedThrough: '2026-11-01' })).toEqual([]);
    expect(monthsToBill(weekly, { today: '2026-12-01', ...started, billedThrough: '2026-11-01' })).toEqual([
      '2026-12-01',
    ]);
    // A server down for a while catches up, across the year's end.
    expect(monthsToBill(weekly, { today: '2027-02-03', ...started, billedThrough: '2026-11-01' })).toEqual([
      '2026-12-01',
      '2027-01-01',
      '2027-02-01',
    ]);
  });

  it('never bills before the plan existed or its first month, nor after its last visit’s month', () => {
    const later = rule({ ...weekly, firstDate: '2027-01-05' });
    expect(monthsToBill(later, { today: '2026-12-20', startedOn: '2026-12-20', billedThrough: null })).toEqual([]);
    expect(monthsToBill(later, { today: '2027-01-01', startedOn: '2026-12-20', billedThrough: null })).toEqual([
      '2027-01-01',
    ]);
    // Entered with a first date months ago: billed from the day it was started, not for the months before.
    expect(monthsToBill(weekly, { today: '2027-03-02', startedOn: '2027-03-02', billedThrough: null })).toEqual([
      '2027-03-01',
    ]);
    // 4 visits every 2 weeks from Nov 10: the last is Dec 22, so December is the last month billed.
    const four = rule({ ...weekly, count: 4 });
    expect(monthsToBill(four, { today: '2027-04-01', startedOn: '2026-11-01', billedThrough: '2026-11-01' })).toEqual([
      '2026-12-01',
    ]);
    expect(monthsToBill(four, { today: '2027-04-01', startedOn: '2026-11-01', billedThrough: '2026-12-01' })).toEqual(
      [],
    );
  });

  it('starts at the month of the first visit, not of a first date the rule does not fall on', () => {
    // From November 29 on the 28th of each month: the first visit is December 28, so December is the first month.
    const monthly = rule({
      every: 1,
      unit: 'month',
      monthly: { kind: 'day', day: 28 },
      firstDate: '2026-11-29',
      start: '09:00',
      end: '10:00',
    });
    expect(monthsToBill(monthly, { today: '2026-11-29', startedOn: '2026-11-29', billedThrough: null })).toEqual([]);
    expect(monthsToBill(monthly, { today: '2026-12-01', startedOn: '2026-11-29', billedThrough: null })).toEqual([
      '2026-12-01',
    ]);
  });

  it('names the month as people read it', () => {
    expect(monthName('2026-12-01')).toBe('December 2026');
    expect(nextMonth('2026-12-01')).toBe('2027-01-01');
    expect(nextMonth('2027-09-01')).toBe('2027-10-01');
  });
});

describe('recurring work: a service plan’s rule', () => {
  it('adds months as a calendar does: the same day, or the month’s last', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-12-15', 2)).toBe('2027-02-15');
    expect(addMonths('2027-03-14', 12)).toBe('2028-03-14');
  });

  it('twice a year for a year: two visits six months apart, the term ending the day before a year on', () => {
    const r = servicePlanRule({
      visitsPerYear: 2,
      firstDate: '2027-03-14',
      start: '09:00',
      end: '11:00',
      termMonths: 12,
    });
    expect(r.until).toBe('2028-03-13');
    expect(allOccurrences(r)).toEqual(['2027-03-14', '2027-09-14']);
    expect(describeRecurrence(r)).toBe(
      'Every 6 months on the 14th, 9:00 AM – 11:00 AM, from March 14, 2027, until March 13, 2028',
    );
  });

  it('every week for a month, on the first visit’s weekday; four times a year, every three months', () => {
    const weekly = servicePlanRule({
      visitsPerYear: 52,
      firstDate: '2027-01-05',
      start: '08:00',
      end: '09:00',
      termMonths: 1,
    });
    expect(allOccurrences(weekly)).toEqual(['2027-01-05', '2027-01-12', '2027-01-19', '2027-01-26', '2027-02-02']);
    const quarterly = servicePlanRule({
      visitsPerYear: 4,
      firstDate: '2027-01-10',
      start: '08:00',
      end: '09:00',
      termMonths: 12,
    });
    expect(allOccurrences(quarterly)).toEqual(['2027-01-10', '2027-04-10', '2027-07-10', '2027-10-10']);
  });
});

describe('recurring work: properties', () => {
  it('a weekly rule falls only on its weekdays, from its first date, as many times as it says, in weeks N apart', () => {
    fc.assert(
      fc.property(weeklyRules, (input) => {
        const r = rule(input);
        const dates = allOccurrences(r);
        expect(dates).toHaveLength(input.count);
        for (const d of dates) {
          expect(input.weekdays).toContain(weekdayOf(d));
          expect(d >= input.firstDate).toBe(true);
        }
        // Weeks (Monday-based) between visits are multiples of the interval.
        const mondayOf = (d: string) => addDays(d, -((WEEKDAYS.indexOf(weekdayOf(d) as never) + 7) % 7));
        const week0 = Date.parse(mondayOf(dates[0]!));
        for (const d of dates) expect(((Date.parse(mondayOf(d)) - week0) / (7 * 86_400_000)) % input.every).toBe(0);
        expect([...dates].sort()).toEqual(dates);
        expect(new Set(dates).size).toBe(dates.length);
      }),
      { numRuns: 200 },
    );
  });

  it('every visit starts at the same wall-clock time in the business’s zone, whatever the season', () => {
    fc.assert(
      fc.property(weeklyRules, (input) => {
        const r = rule(input);
        for (const d of allOccurrences(r)) {
          const { startsAt, endsAt } = visitInstants(r, d, LA);
          expect(wallTimeIn(LA, startsAt)).toEqual({ date: d, time: input.start });
          expect(wallTimeIn(LA, endsAt)).toEqual({ date: d, time: input.end });
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a window of dates holds exactly the rule’s dates inside it; splitting keeps every visit once', () => {
    fc.assert(
      fc.property(
        weeklyRules,
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 120 }),
        (input, skip, span) => {
          const r = rule(input);
          const all = allOccurrences(r);
          const from = addDays(input.firstDate, skip);
          const to = addDays(from, span);
          expect(occurrencesBetween(r, from, to)).toEqual(all.filter((d) => d >= from && d <= to));
          const cut = all[Math.floor(all.length / 2)]!;
          const [before, after] = splitAt(r, cut);
          expect([...allOccurrences(before), ...allOccurrences(after)]).toEqual(all);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('billing month by month, however often the job runs, bills each month from the first to today once', () => {
    fc.assert(
      fc.property(weeklyRules, fc.array(fc.integer({ min: 0, max: 70 }), { maxLength: 12 }), (input, steps) => {
        const r = rule(input);
        const all = allOccurrences(r);
        let today = input.firstDate;
        let billedThrough: string | null = null;
        const billed: string[] = [];
        for (const step of steps) {
          today = addDays(today, step);
          const months = monthsToBill(r, { today, startedOn: input.firstDate, billedThrough });
          billed.push(...months);
          billedThrough = months.at(-1) ?? billedThrough;
        }
        // Each month once, in order, from the first visit's month to today's (or the last visit's), none skipped.
        const monthOf = (d: string) => `${d.slice(0, 7)}-01`;
        const [first] = all;
        const last = r.count || r.until ? all.at(-1) : undefined;
        const end = monthOf(last && last < today ? last : today);
        const expected: string[] = [];
        if (steps.length && first) for (let m = monthOf(first); m <= end; m = nextMonth(m)) expected.push(m);
        expect(billed).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
