import { describe, expect, it } from 'vitest';
import { reminderDay, reminderTime } from '../../src/server/visits/reminder';
import { zonedTimeToUtc } from '#shared/dates';

const LA = 'America/Los_Angeles';
const at = (date: string, time: string) => zonedTimeToUtc(date, time, LA);

describe('when a visit’s reminder goes out', () => {
  // Booked at 5 PM on Wednesday, March 10, 2027, in Sacramento.
  const fivePm = at('2027-03-10', '17:00');

  it('goes the day before, at the visit’s time, when there is a day to spare', () => {
    const visit = at('2027-03-12', '09:00');
    expect(reminderTime(visit, LA, fivePm)).toEqual(at('2027-03-11', '09:00'));
    expect(reminderDay(visit, at('2027-03-11', '09:00'), LA)).toBe('tomorrow');
    // Across spring-forward the day before is 23 hours earlier, still the same clock time.
    expect(reminderTime(at('2027-03-15', '00:30'), LA, fivePm)).toEqual(at('2027-03-14', '00:30'));
  });

  it('goes at 7 AM on the day of a visit booked at 5 PM for the next morning', () => {
    const visit = at('2027-03-11', '09:00');
    const remindAt = reminderTime(visit, LA, fivePm)!;
    expect(remindAt).toEqual(at('2027-03-11', '07:00'));
    expect(remindAt.toISOString()).toBe('2027-03-11T15:00:00.000Z');
    expect(reminderDay(visit, remindAt, LA)).toBe('today');
  });

  it('goes right away for a visit booked at 5 PM for later that day, or before 7 AM the next day', () => {
    const tonight = at('2027-03-10', '19:00');
    expect(reminderTime(tonight, LA, fivePm)).toEqual(fivePm);
    expect(reminderDay(tonight, fivePm, LA)).toBe('today');
    const early = at('2027-03-11', '06:30');
    expect(reminderTime(early, LA, fivePm)).toEqual(fivePm);
    expect(reminderDay(early, fivePm, LA)).toBe('tomorrow');
  });

  it('does not go for a visit that has begun', () => {
    expect(reminderTime(at('2027-03-10', '16:00'), LA, fivePm)).toBeNull();
    expect(reminderTime(fivePm, LA, fivePm)).toBeNull();
  });
});
