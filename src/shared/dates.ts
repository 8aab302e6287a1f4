/** Today's date (YYYY-MM-DD) in a time zone (the one the settings name). */
export function todayIn(timeZone: string, now = new Date()): string {
  return wallTimeIn(timeZone, now).date;
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

/** Making an Intl formatter costs far more than using one: one per zone, kept. */
const wallFormats = new Map<string, Intl.DateTimeFormat>();
function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    wallFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock date and time ("2027-03-15", "09:00") an instant shows in a time zone. */
export function wallTimeIn(timeZone: string, instant: Date): { date: string; time: string } {
  const parts = Object.fromEntries(
    wallFormat(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** How far a zone's clock is ahead of UTC at an instant, in minutes (Los Angeles in July: -420). */
function offsetMinutes(timeZone: string, instant: Date): number {
  const { date, time } = wallTimeIn(timeZone, instant);
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  return Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

/**
 * The instant a wall-clock date and time happen in a time zone: 09:00 on 2027-03-15 in Los Angeles is
 * 16:00 UTC (daylight time), 09:00 on 2027-11-08 is 17:00 UTC. A time the clocks skip (02:30 on the
 * spring-forward night) lands an hour later; a time that happens twice (the fall-back night) is the first.
 */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const first = guess - offsetMinutes(timeZone, new Date(guess)) * 60_000;
  const second = guess - offsetMinutes(timeZone, new Date(first)) * 60_000;
  const candidates = [first, second].sort((a, b) => a - b);
  const exact = candidates.find((c) => {
    const wall = wallTimeIn(timeZone, new Date(c));
    return wall.date === date && wall.time === time;
  });
  return new Date(exact ?? Math.max(first, second));
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The weekday ("Monday") of a YYYY-MM-DD date: calendar arithmetic, no Intl (booking windows ask it often). */
export function weekdayOf(isoDate: string): string {
  return WEEKDAY_NAMES[new Date(`${isoDate}T12:00:00Z`).getUTCDay()]!;
}

/** "10:00 AM": a 24-hour "HH:MM" as clients read it, on a 12-hour clock. */
export function formatClock(time: string): string {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return `${hours % 12 || 12}:${String(minutes).padStart(2, '0')} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** "8 AM", "1:30 PM": a clock time as short as it reads (a booking window's button on a phone). */
export function formatShortClock(time: string): string {
  return formatClock(time).replace(':00 ', ' ');
}

/** "Tue, Nov 24": a YYYY-MM-DD date with its weekday. */
export function formatShortDay(isoDate: string): string {
  return new Date(`${isoDate}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * "Tue, Nov 24, 10:00 AM – 12:00 PM": a visit's window as every message to the client reads it
 * (e-mails, reminders, calendar entries), in the business's time zone whatever the server's clock says.
 */
export function formatVisitWindow(startsAt: Date | string, endsAt: Date | string, timeZone: string): string {
  const start = wallTimeIn(timeZone, new Date(startsAt));
  const end = wallTimeIn(timeZone, new Date(endsAt));
  if (end.date === start.date) return formatDayWindow(start.date, start.time, end.time);
  return `${formatShortDay(start.date)}, ${formatClock(start.time)} – ${formatShortDay(end.date)}, ${formatClock(end.time)}`;
}

/** The same from a day and its wall-clock window ("09:00", "11:00"), as the status page receives it. */
export function formatDayWindow(isoDate: string, start: string, end: string): string {
  return `${formatShortDay(isoDate)}, ${formatClock(start)} – ${formatClock(end)}`;
}

/** "Tue, Nov 24, 3:05 PM": a moment on the business's clock (the System page, its e-mail). */
export function formatMoment(instant: Date | string, timeZone: string): string {
  const { date, time } = wallTimeIn(timeZone, new Date(instant));
  return `${formatShortDay(date)}, ${formatClock(time)}`;
}
