import { formatClock, formatDayWindow, formatShortDay, formatVisitWindow, wallTimeIn } from './dates';

/**
 * How a visit's time is shown to its client (issue 30): as an arrival window of so many minutes from
 * the visit's start ("arriving 9:00 AM – 11:00 AM"), not a minute the crew may miss by a quarter hour;
 * 0: the visit's own start and end. The office's screens always show the visit's own times.
 */
export const ARRIVAL_WINDOWS = [0, 60, 120, 180, 240] as const;
export type ArrivalWindowMinutes = (typeof ARRIVAL_WINDOWS)[number];
export const DEFAULT_ARRIVAL_WINDOW: ArrivalWindowMinutes = 120;

interface Timed {
  startsAt: Date | string;
  endsAt: Date | string;
}

/** The window the client is given: from the visit's start, `minutes` long (0: the visit's own end). */
export function arrivalWindow(visit: Timed, minutes: number): { startsAt: Date; endsAt: Date } {
  const startsAt = new Date(visit.startsAt);
  const endsAt = minutes > 0 ? new Date(startsAt.getTime() + minutes * 60_000) : new Date(visit.endsAt);
  return { startsAt, endsAt };
}

/** The client's window as wall-clock date and times in the business's zone, as pages receive it. */
export interface ArrivalWallTimes {
  date: string;
  start: string;
  end: string;
  /** An arrival window ("arriving 9:00 AM – 11:00 AM"), not the visit's own start and end. */
  arriving: boolean;
}

/** The same as wall-clock date and times in the business's zone ("2026-12-01", "09:00", "11:00"). */
export function arrivalWallTimes(visit: Timed, minutes: number, timeZone: string): ArrivalWallTimes {
  const window = arrivalWindow(visit, minutes);
  const start = wallTimeIn(timeZone, window.startsAt);
  return { date: start.date, start: start.time, end: wallTimeIn(timeZone, window.endsAt).time, arriving: minutes > 0 };
}

/** "Tue, Dec 1, arriving 9:00 AM – 11:00 AM" (or the visit's own "Tue, Dec 1, 9:00 AM – 12:00 PM") from wall times. */
export function formatArrivalWallTimes({ date, start, end, arriving }: ArrivalWallTimes): string {
  return arriving
    ? `${formatShortDay(date)}, arriving ${formatClock(start)} – ${formatClock(end)}`
    : formatDayWindow(date, start, end);
}

/**
 * "Tue, Dec 1, arriving 9:00 AM – 11:00 AM" with a window; the visit's own "Tue, Dec 1, 9:00 AM –
 * 12:00 PM" without one: every message to the client about a visit reads its time so.
 */
export function formatArrival(visit: Timed, minutes: number, timeZone: string): string {
  if (minutes <= 0) return formatVisitWindow(visit.startsAt, visit.endsAt, timeZone);
  const window = arrivalWindow(visit, minutes);
  const text = formatVisitWindow(window.startsAt, window.endsAt, timeZone);
  // "Tue, Dec 1, 9:00 AM – 11:00 AM" → "Tue, Dec 1, arriving 9:00 AM – 11:00 AM" (a window past midnight keeps both days).
  const day = wallTimeIn(timeZone, window.startsAt).date === wallTimeIn(timeZone, window.endsAt).date;
  if (!day) return `arriving ${text}`;
  const cut = text.lastIndexOf(', ', text.indexOf(':'));
  return `${text.slice(0, cut)}, arriving ${text.slice(cut + 2)}`;
}
