import { addDays, wallTimeIn, zonedTimeToUtc } from '#shared/dates';

/** The morning of the visit, in the business's zone: when a visit booked late is still reminded. */
const MORNING = '07:00';

/**
 * When the client's reminder goes out: a day before the visit; booked (or moved) later than that, on
 * the morning of the visit; later still but before it starts, right away. None for a visit already
 * begun.
 */
export function reminderTime(startsAt: Date, timeZone: string, now = new Date()): Date | null {
  if (startsAt <= now) return null;
  const visit = wallTimeIn(timeZone, startsAt);
  // The same clock time the day before (not 24 hours: a day across a clock change has 23 or 25).
  const dayBefore = zonedTimeToUtc(addDays(visit.date, -1), visit.time, timeZone);
  if (dayBefore > now) return dayBefore;
  const morning = zonedTimeToUtc(visit.date, MORNING, timeZone);
  if (morning > now && morning < startsAt) return morning;
  return now;
}

/** "today" or "tomorrow": the visit's day as seen on the day the reminder arrives. */
export function reminderDay(startsAt: Date, remindAt: Date, timeZone: string): 'today' | 'tomorrow' {
  const visitDay = wallTimeIn(timeZone, startsAt).date;
  return wallTimeIn(timeZone, remindAt).date === visitDay ? 'today' : 'tomorrow';
}
