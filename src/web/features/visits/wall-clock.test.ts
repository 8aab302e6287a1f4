import { describe, expect, it } from 'vitest';
import { businessNow, wall } from './wall-clock';

describe("the calendar's now", () => {
  // 5:30 PM on Tuesday, November 24, 2026 in Sacramento: already 01:30 on the 25th in UTC.
  const evening = new Date('2026-11-25T01:30:00Z');

  it("is the business's wall clock, not UTC's: at 5:30 PM Pacific today is still the 24th", () => {
    expect(businessNow('America/Los_Angeles', evening)).toBe('2026-11-24T17:30:00');
    expect(wall(businessNow('America/Los_Angeles', evening))).toEqual({ date: '2026-11-24', time: '17:30' });
  });

  it('follows the zone the settings name, across a clock change', () => {
    expect(businessNow('America/New_York', evening)).toBe('2026-11-24T20:30:00');
    // 1:30 AM on the fall-back night in Los Angeles happens twice; the instant says which.
    expect(businessNow('America/Los_Angeles', new Date('2026-11-01T09:30:00Z'))).toBe('2026-11-01T01:30:00');
  });
});
