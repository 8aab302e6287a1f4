import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bookableDates,
  bookingWindows,
  DEFAULT_BOOKING_WINDOWS,
  freeWindows,
  soonestDay,
  type WorkerTime,
} from '#shared/booking';
import { wallTimeIn, zonedTimeToUtc } from '#shared/dates';

const ZONE = 'America/Los_Angeles';
const at = (date: string, time: string) => zonedTimeToUtc(date, time, ZONE).getTime();
const worker = (id: string, busy: [string, string, string][] = [], schedule: WorkerTime['schedule'] = []) => ({
  id,
  schedule,
  busy: busy.map(([date, from, to]) => ({ start: at(date, from), end: at(date, to) })),
});
const base = {
  windows: DEFAULT_BOOKING_WINDOWS,
  timeZone: ZONE,
  durationMinutes: 120,
  need: 'all' as const,
  notBefore: new Date('2026-11-01T00:00:00Z'),
};

describe('booking days', () => {
  it('counts the soonest day in business days, so a Friday request is offered Monday', () => {
    // 2026-11-27 is a Friday.
    expect(soonestDay('2026-11-27', 1)).toBe('2026-11-30');
    expect(soonestDay('2026-11-27', 0)).toBe('2026-11-27');
    expect(soonestDay('2026-11-28', 1)).toBe('2026-11-30'); // Saturday → Monday
    expect(soonestDay('2026-11-30', 2)).toBe('2026-12-02');
  });

  it('offers every day from the soonest to the horizon', () => {
    const dates = bookableDates('2026-11-27', { leadBusinessDays: 1, horizonDays: 10 });
    expect(dates[0]).toBe('2026-11-30');
    expect(dates.at(-1)).toBe('2026-12-07');
    expect(dates).toHaveLength(8);
  });
});

describe('free windows', () => {
  it('offers a window only when the whole crew is free for the whole visit', () => {
    const found = freeWindows({
      ...base,
      dates: ['2026-12-01'],
      workers: [worker('a', [['2026-12-01', '11:00', '12:00']]), worker('b')],
    });
    // 8–10 fits (ends at 10); 10–12 would run into a's 11:00; 1–3 is free.
    expect(found.map((w) => w.start)).toEqual(['08:00', '13:00']);
    expect(found[0]).toMatchObject({ date: '2026-12-01', end: '10:00', workerIds: ['a', 'b'] });
    expect(found[0]!.startsAt).toBe('2026-12-01T16:00:00.000Z');
  });

  it('offers a window one free worker can take, with who is free', () => {
    const found = freeWindows({
      ...base,
      need: 'any',
      dates: ['2026-12-01'],
      workers: [worker('a', [['2026-12-01', '08:00', '17:00']]), worker('b', [['2026-12-01', '13:30', '14:00']])],
    });
    expect(found.map((w) => [w.start, w.workerIds])).toEqual([
      ['08:00', ['b']],
      ['10:00', ['b']],
    ]);
  });

  it('keeps to the hours a worker set, and offers nothing on a day they do not work', () => {
    const hours = [{ day: 'Tuesday' as const, start: '09:00', end: '15:00' }];
    const found = freeWindows({ ...base, dates: ['2026-12-01', '2026-12-02'], workers: [worker('a', [], hours)] });
    // 8:00 starts before 9; 13:00 + 2 h ends at 15:00, inside.
    expect(found.map((w) => `${w.date} ${w.start}`)).toEqual(['2026-12-01 10:00', '2026-12-01 13:00']);
  });

  it('offers no window that starts before the moment given, and none at weekends by default', () => {
    const found = freeWindows({
      ...base,
      dates: ['2026-12-01', '2026-12-05', '2026-12-06'],
      notBefore: new Date(at('2026-12-01', '09:00')),
      workers: [worker('a')],
    });
    expect(found.map((w) => `${w.date} ${w.start}`)).toEqual(['2026-12-01 10:00', '2026-12-01 13:00']);
  });

  it('keeps 8–10 on the clock across the daylight-saving changes', () => {
    const found = freeWindows({
      ...base,
      notBefore: new Date('2026-10-01T00:00:00Z'),
      dates: ['2026-10-30', '2026-11-02', '2027-03-12', '2027-03-15'],
      workers: [],
    });
    const eight = found.filter((w) => w.start === '08:00');
    expect(eight.map((w) => wallTimeIn(ZONE, new Date(w.startsAt)))).toEqual([
      { date: '2026-10-30', time: '08:00' },
      { date: '2026-11-02', time: '08:00' },
      { date: '2027-03-12', time: '08:00' },
      { date: '2027-03-15', time: '08:00' },
    ]);
    // Daylight time (UTC−7) before the November change, standard (UTC−8) after, daylight again in March.
    expect(eight.map((w) => w.startsAt.slice(11, 16))).toEqual(['15:00', '16:00', '16:00', '15:00']);
  });

  it('never offers a window where a chosen worker is taken (any busy time, any window)', () => {
    const day = '2026-12-01';
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 6 * 60, max: 18 * 60 }), fc.integer({ min: 15, max: 240 })), {
          maxLength: 6,
        }),
        fc.integer({ min: 30, max: 240 }),
        (busy, minutes) => {
          const dayStart = at(day, '00:00');
          const a: WorkerTime = {
            id: 'a',
            schedule: [],
            busy: busy.map(([from, length]) => ({
              start: dayStart + from * 60_000,
              end: dayStart + (from + length) * 60_000,
            })),
          };
          for (const w of freeWindows({ ...base, durationMinutes: minutes, dates: [day], workers: [a] })) {
            const start = Date.parse(w.startsAt);
            const end = start + minutes * 60_000;
            expect(a.busy.some((b) => b.start < end && b.end > start)).toBe(false);
          }
          // And every window left out had a reason.
          const offered = new Set(
            freeWindows({ ...base, durationMinutes: minutes, dates: [day], workers: [a] }).map((w) => w.start),
          );
          for (const w of DEFAULT_BOOKING_WINDOWS.filter((x) => x.day === 'Tuesday' && !offered.has(x.start))) {
            const start = at(day, w.start);
            expect(a.busy.some((b) => b.start < start + minutes * 60_000 && b.end > start)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('the windows as the owner sets them', () => {
  it('refuses a window that ends before it starts, or two that overlap on a day', () => {
    expect(bookingWindows.safeParse(DEFAULT_BOOKING_WINDOWS).success).toBe(true);
    const backwards = bookingWindows.safeParse([{ day: 'Monday', start: '10:00', end: '08:00' }]);
    expect(backwards.error?.issues[0]?.message).toBe('Monday: a window must end after it starts');
    const overlapping = bookingWindows.safeParse([
      { day: 'Monday', start: '08:00', end: '10:00' },
      { day: 'Monday', start: '09:00', end: '11:00' },
    ]);
    expect(overlapping.error?.issues[0]?.message).toBe('Monday: the windows 08:00–10:00 and 09:00–11:00 overlap');
  });
});
