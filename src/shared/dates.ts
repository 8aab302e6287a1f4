import { BUSINESS_TIME_ZONE } from './constants';

/** Today's date (YYYY-MM-DD) where the business is, whatever the clock's zone. No zod: pages import it. */
export function todayInBusinessZone(now = new Date()): string {
  return todayIn(BUSINESS_TIME_ZONE, now);
}

/** Today's date (YYYY-MM-DD) in a time zone (the one the settings name). */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** A YYYY-MM-DD date plus a number of days (calendar arithmetic, no time zone involved). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** "December 22, 2026": a YYYY-MM-DD date as people read it. */
export function formatLongDate(isoDate: string): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
