import { addDays, wallTimeIn, zonedTimeToUtc } from '#shared/dates';

/**
 * When, on the business's clock, the daily backup is taken by a server that runs at night. Copying the
 * embedded database holds it for the copy (2–5 s at a business's years, every screen waiting) and
 * packing it keeps a core busy for a minute (decision 024, session 43).
 */
export const BACKUP_AT_NIGHT = '01:00';

const HOUR_MS = 3_600_000;

/**
 * When the automatic backup after `newest` is due. Every `everyHours` of a day or more: at the first
 * 1 AM (business time) once `everyHours − 24` have passed, and at the latest `everyHours` after the
 * newest (a day 25 hours long). A server that is off then takes it as soon as it runs again. Shorter
 * intervals keep to their interval, night or day.
 */
export function nextBackupAround(newest: Date, everyHours: number, timeZone: string): Date {
  const latest = new Date(newest.getTime() + everyHours * HOUR_MS);
  if (everyHours < 24) return latest;
  const earliest = new Date(newest.getTime() + (everyHours - 24) * HOUR_MS);
  const { date, time } = wallTimeIn(timeZone, earliest);
  const night = zonedTimeToUtc(time < BACKUP_AT_NIGHT ? date : addDays(date, 1), BACKUP_AT_NIGHT, timeZone);
  return night < latest ? night : latest;
}

/** Whether the running server takes an automatic backup now: the first at once, then as `nextBackupAround` says. */
export function backupDue(newest: Date | null, now: Date, everyHours: number, timeZone: string): boolean {
  return !newest || now >= nextBackupAround(newest, everyHours, timeZone);
}
