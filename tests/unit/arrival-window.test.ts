import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARRIVAL_WINDOWS,
  arrivalWallTimes,
  arrivalWindow,
  formatArrival,
  formatArrivalWallTimes,
} from '#shared/arrival-window';

const ZONE = 'America/Los_Angeles';
// Tue, Dec 1, 2026, 9:00 AM – 12:00 PM in Sacramento (standard time: UTC−8).
const visit = { startsAt: '2026-12-01T17:00:00.000Z', endsAt: '2026-12-01T20:00:00.000Z' };

describe('arrival window', () => {
  it('gives the client a window from the visit’s start, or the visit’s own times', () => {
    expect(formatArrival(visit, 120, ZONE)).toBe('Tue, Dec 1, arriving 9:00 AM – 11:00 AM');
    expect(formatArrival(visit, 60, ZONE)).toBe('Tue, Dec 1, arriving 9:00 AM – 10:00 AM');
    expect(formatArrival(visit, 0, ZONE)).toBe('Tue, Dec 1, 9:00 AM – 12:00 PM');
    expect(arrivalWallTimes(visit, 120, ZONE)).toEqual({
      date: '2026-12-01',
      start: '09:00',
      end: '11:00',
      arriving: true,
    });
    expect(arrivalWallTimes(visit, 0, ZONE)).toEqual({
      date: '2026-12-01',
      start: '09:00',
      end: '12:00',
      arriving: false,
    });
  });

  it('reads the same from the page’s wall times as from the instants, and a window past midnight keeps both days', () => {
    for (const minutes of ARRIVAL_WINDOWS)
      expect(formatArrivalWallTimes(arrivalWallTimes(visit, minutes, ZONE))).toBe(formatArrival(visit, minutes, ZONE));
    const late = { startsAt: '2026-12-02T07:00:00.000Z', endsAt: '2026-12-02T07:30:00.000Z' };
    expect(formatArrival(late, 180, ZONE)).toBe('arriving Tue, Dec 1, 11:00 PM – Wed, Dec 2, 2:00 AM');
  });

  it('starts at the visit’s start and lasts the window, whatever the visit’s length and the zone', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2025-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }),
        fc.integer({ min: 15, max: 600 }),
        fc.constantFrom(...ARRIVAL_WINDOWS),
        fc.constantFrom(ZONE, 'America/New_York', 'Pacific/Honolulu', 'UTC'),
        (start, length, minutes, zone) => {
          const v = { startsAt: start, endsAt: new Date(start.getTime() + length * 60_000) };
          const w = arrivalWindow(v, minutes);
          expect(w.startsAt.getTime()).toBe(start.getTime());
          expect(w.endsAt.getTime() - w.startsAt.getTime()).toBe((minutes || length) * 60_000);
          expect(formatArrival(v, minutes, zone).includes('arriving')).toBe(minutes > 0);
        },
      ),
    );
  });
});
