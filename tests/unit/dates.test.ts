import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDayOf, timeAgo } from '../../src/web/components/date-text';
import { addDays, formatClock, formatLongDate, formatShortClock, formatVisitWindow, todayIn } from '#shared/dates';

describe('dates', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-11-22', 30)).toBe('2026-12-22');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('reads "today" in the business zone, not the clock’s', () => {
    // 06:30 UTC on Nov 22 is still the evening of Nov 21 in Sacramento.
    expect(todayIn('America/Los_Angeles', new Date('2026-11-22T06:30:00Z'))).toBe('2026-11-21');
    expect(todayIn('America/New_York', new Date('2026-11-22T06:30:00Z'))).toBe('2026-11-22');
  });

  it('shortens a clock time to what a booking window’s button needs', () => {
    expect(formatShortClock('08:00')).toBe('8 AM');
    expect(formatShortClock('13:30')).toBe('1:30 PM');
    expect(formatShortClock('12:00')).toBe('12 PM');
    expect(formatShortClock('00:00')).toBe('12 AM');
  });

  it('prints dates as people read them', () => {
    expect(formatLongDate('2026-12-22')).toBe('December 22, 2026');
    expect(formatDateTime('2026-11-22T06:30:00Z', 'America/Los_Angeles')).toBe('Nov 21, 2026, 10:30 PM');
    expect(formatDateTime('2026-11-22T06:30:07Z', 'America/Los_Angeles', { seconds: true })).toBe(
      'Nov 21, 2026, 10:30:07 PM',
    );
  });

  it('says how long ago something happened', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(timeAgo('2026-11-22T11:59:40Z', now)).toBe('just now');
    expect(timeAgo('2026-11-22T11:45:00Z', now)).toBe('15 min ago');
    expect(timeAgo('2026-11-22T10:00:00Z', now)).toBe('2 h ago');
    expect(timeAgo('2026-11-21T10:00:00Z', now)).toBe('yesterday');
    expect(timeAgo('2026-11-18T12:00:00Z', now)).toBe('4 days ago');
  });

  it('reads a visit window as clients do: weekday, 12-hour clock, the business’s zone, across DST', () => {
    const cases: [zone: string, from: string, to: string, reads: string][] = [
      ['America/Los_Angeles', '2026-11-24T18:00:00Z', '2026-11-24T20:00:00Z', 'Tue, Nov 24, 10:00 AM – 12:00 PM'],
      // The same 10 o'clock on either side of spring-forward (March 14, 2027) is a different UTC hour.
      ['America/Los_Angeles', '2027-03-13T18:00:00Z', '2027-03-13T19:30:00Z', 'Sat, Mar 13, 10:00 AM – 11:30 AM'],
      ['America/Los_Angeles', '2027-03-15T17:00:00Z', '2027-03-15T18:30:00Z', 'Mon, Mar 15, 10:00 AM – 11:30 AM'],
      // Through the skipped hour, and the hour that happens twice (fall-back, November 7, 2027).
      ['America/Los_Angeles', '2027-03-14T09:30:00Z', '2027-03-14T10:30:00Z', 'Sun, Mar 14, 1:30 AM – 3:30 AM'],
      ['America/Los_Angeles', '2027-11-07T07:30:00Z', '2027-11-07T09:30:00Z', 'Sun, Nov 7, 12:30 AM – 1:30 AM'],
      ['America/Los_Angeles', '2027-11-08T18:00:00Z', '2027-11-08T20:00:00Z', 'Mon, Nov 8, 10:00 AM – 12:00 PM'],
      // Another zone in the settings reads its own wall clock; a window past midnight names both days.
      ['America/New_York', '2026-11-24T18:00:00Z', '2026-11-24T20:00:00Z', 'Tue, Nov 24, 1:00 PM – 3:00 PM'],
      [
        'America/Los_Angeles',
        '2026-11-25T05:00:00Z',
        '2026-11-25T09:00:00Z',
        'Tue, Nov 24, 9:00 PM – Wed, Nov 25, 1:00 AM',
      ],
    ];
    for (const [zone, from, to, reads] of cases) expect(formatVisitWindow(from, to, zone)).toBe(reads);
    expect(['00:00', '00:05', '11:59', '12:00', '13:30', '23:45'].map(formatClock)).toEqual([
      '12:00 AM',
      '12:05 AM',
      '11:59 AM',
      '12:00 PM',
      '1:30 PM',
      '11:45 PM',
    ]);
  });
});

describe("a moment's day, where the business is", () => {
  it('is the day in Sacramento for an evening request, though UTC is on the next day already', () => {
    // 7:49 PM Pacific on Nov 28 is 03:49 UTC on Nov 29.
    expect(formatDayOf('2026-11-29T03:49:00.000Z', 'America/Los_Angeles')).toBe('Nov 28, 2026');
    expect(formatDate('2026-11-29T03:49:00.000Z')).toBe('Nov 29, 2026');
    expect(formatDayOf('2026-11-29T03:49:00.000Z', 'America/New_York')).toBe('Nov 28, 2026');
    expect(formatDayOf('2026-11-29T08:00:00.000Z', 'America/Los_Angeles')).toBe('Nov 29, 2026');
  });
});
