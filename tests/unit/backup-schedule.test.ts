import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backupDue, nextBackupAround } from '#shared/backup-schedule';
import { wallTimeIn } from '#shared/dates';

const LA = 'America/Los_Angeles';
const at = (iso: string) => new Date(iso);
const CHECK_MS = 10 * 60_000;

/** A server that runs from `start` and looks every ten minutes: the moments it takes a backup. */
function simulate(start: Date, everyHours: number, timeZone: string, days: number, running = (_: Date) => true) {
  const taken: Date[] = [];
  for (let t = start.getTime() + 60_000; t < start.getTime() + days * 86_400_000; t += CHECK_MS) {
    const now = new Date(t);
    if (running(now) && backupDue(taken.at(-1) ?? null, now, everyHours, timeZone)) taken.push(now);
  }
  return taken;
}

describe('the automatic backups’ schedule', () => {
  it('takes the first at once, then at 1 AM on the business’s clock, and never lets one grow older than its interval', () => {
    expect(backupDue(null, at('2026-11-20T22:00:00Z'), 24, LA)).toBe(true);
    // The newest from 2 PM Sacramento time (22:00 UTC): not at 11 PM nor at 12:59 AM, at 1 AM.
    const newest = at('2026-11-20T22:00:00Z');
    expect(backupDue(newest, at('2026-11-21T07:00:00Z'), 24, LA)).toBe(false);
    expect(backupDue(newest, at('2026-11-21T08:59:00Z'), 24, LA)).toBe(false);
    expect(backupDue(newest, at('2026-11-21T09:00:00Z'), 24, LA)).toBe(true);
    // A server off at 1 AM takes it when it runs again (8 AM).
    expect(backupDue(newest, at('2026-11-21T16:00:00Z'), 24, LA)).toBe(true);
    // From 1 AM, the next 1 AM; every two days, the second 1 AM.
    const night = at('2026-11-21T09:00:00Z');
    expect(wallTimeIn(LA, nextBackupAround(night, 24, LA))).toEqual({ date: '2026-11-22', time: '01:00' });
    expect(wallTimeIn(LA, nextBackupAround(night, 48, LA))).toEqual({ date: '2026-11-23', time: '01:00' });
    // Six hours: every six hours, night or day.
    expect(backupDue(newest, at('2026-11-21T03:59:00Z'), 6, LA)).toBe(false);
    expect(backupDue(newest, at('2026-11-21T04:00:00Z'), 6, LA)).toBe(true);
    expect(nextBackupAround(newest, 6, LA)).toEqual(at('2026-11-21T04:00:00Z'));
    // The night the clocks go back is 25 hours long: at most a day all the same.
    const before = at('2026-11-01T08:00:00Z'); // 1 AM daylight time
    expect(nextBackupAround(before, 24, LA)).toEqual(at('2026-11-02T08:00:00Z')); // midnight standard time
  });

  it('for a server always running: each backup within its interval of the last, around 1 AM from the second on, when the System page said', () => {
    fc.assert(
      fc.property(
        fc.date({ min: at('2026-01-01T00:00:00Z'), max: at('2027-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom(LA, 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Auckland'),
        fc.constantFrom(24, 48, 168),
        (start, timeZone, everyHours) => {
          const taken = simulate(start, everyHours, timeZone, 10);
          expect(taken.length).toBeGreaterThan(1);
          for (let i = 1; i < taken.length; i++) {
            const gap = taken[i]!.getTime() - taken[i - 1]!.getTime();
            expect(gap).toBeLessThanOrEqual(everyHours * 3_600_000 + CHECK_MS);
            // 1 AM, or the hour before on the night the clocks go back.
            const { time } = wallTimeIn(timeZone, taken[i]!);
            expect(time >= '00:00' && time < '01:10', `${taken[i]!.toISOString()} at ${time}`).toBe(true);
            const said = nextBackupAround(taken[i - 1]!, everyHours, timeZone).getTime();
            expect(taken[i]!.getTime() - said).toBeGreaterThanOrEqual(0);
            expect(taken[i]!.getTime() - said).toBeLessThan(CHECK_MS);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('for a server switched off at night: one a day all the same, taken in the day', () => {
    const office = (now: Date) => {
      const { time } = wallTimeIn(LA, now);
      return time >= '08:00' && time < '18:00';
    };
    const taken = simulate(at('2026-11-16T16:00:00Z'), 24, LA, 14, office);
    for (let i = 1; i < taken.length; i++) {
      const gap = taken[i]!.getTime() - taken[i - 1]!.getTime();
      // Taken as soon as the server runs once a day has passed: the office's night adds at most 14 hours.
      expect(gap).toBeLessThanOrEqual((24 + 14) * 3_600_000 + CHECK_MS);
    }
    expect(taken.length).toBeGreaterThanOrEqual(10);
  });
});
