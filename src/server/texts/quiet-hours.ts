import { addDays, wallTimeIn, zonedTimeToUtc } from '#shared/dates';

/** No text reaches a client between these hours, in the business's time zone ("on my way" apart). */
export const QUIET_FROM = '21:00';
export const QUIET_UNTIL = '08:00';

/**
 * The first moment at or after `at` outside the quiet hours (9 PM to 8 AM, the business's clock): a
 * text due at 10:30 PM leaves at 8 AM the next morning, one due at 6 AM at 8 AM that day. Clock
 * changes count: 8 AM is 8 AM on the wall, whatever the offset.
 */
export function outsideQuietHours(at: Date, timeZone: string): Date {
  const { date, time } = wallTimeIn(timeZone, at);
  if (time >= QUIET_UNTIL && time < QUIET_FROM) return at;
  const morningOf = time < QUIET_UNTIL ? date : addDays(date, 1);
  return zonedTimeToUtc(morningOf, QUIET_UNTIL, timeZone);
}
