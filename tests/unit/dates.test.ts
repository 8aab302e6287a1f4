import { describe, expect, it } from 'vitest';
import { formatDateTime, timeAgo } from '../../src/web/components/date-text';
import { addDays, formatLongDate, todayIn } from '../../src/shared/dates';

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
});
