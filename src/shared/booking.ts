import { z } from 'zod';
import { addDays, wallTimeIn, weekdayOf, zonedTimeToUtc } from './dates';
import { WEEKDAYS, type WeeklySchedule } from './schemas/schedule';

/*
 * Booking windows (issue 31, decision 046): the arrival windows a client may pick from (Tuesday 8–10,
 * 10–12, 1–3), the days they are offered on, and which of them a crew is free for. One module, used by
 * the server (which answers and checks again when a client books) and the Settings page (its example).
 */

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time such as 08:00');

/** One window on one weekday, in the business's wall-clock time. */
export const bookingWindow = z.object({ day: z.enum(WEEKDAYS), start: time, end: time }).superRefine((w, ctx) => {
  if (w.start >= w.end)
    ctx.addIssue({ code: 'custom', path: ['end'], message: `${w.day}: a window must end after it starts` });
});
export type BookingWindow = z.infer<typeof bookingWindow>;

/** At most this many windows in a week (a dozen a day is already more than a crew books). */
export const MAX_BOOKING_WINDOWS = 84;

export const bookingWindows = z
  .array(bookingWindow)
  .max(MAX_BOOKING_WINDOWS)
  .superRefine((windows, ctx) => {
    for (const day of WEEKDAYS) {
      const same = windows.filter((w) => w.day === day).sort((a, b) => a.start.localeCompare(b.start));
      for (let i = 1; i < same.length; i++)
        if (same[i]!.start < same[i - 1]!.end)
          ctx.addIssue({
            code: 'custom',
            message: `${day}: the windows ${same[i - 1]!.start}–${same[i - 1]!.end} and ${same[i]!.start}–${same[i]!.end} overlap`,
          });
    }
  });

/** The windows most handymen start from: three a weekday, none at weekends. */
export const DEFAULT_BOOKING_WINDOWS: BookingWindow[] = WEEKDAYS.slice(0, 5).flatMap((day) => [
  { day, start: '08:00', end: '10:00' },
  { day, start: '10:00', end: '12:00' },
  { day, start: '13:00', end: '15:00' },
]);

/** When windows are offered: from the soonest day (business days ahead) to the furthest (days ahead). */
export interface BookingDays {
  leadBusinessDays: number;
  horizonDays: number;
}

const isWeekend = (date: string) => {
  const day = weekdayOf(date);
  return day === 'Saturday' || day === 'Sunday';
};

/** The first day a window may be on: `lead` business days (Monday to Friday) after today; 0: today. */
export function soonestDay(today: string, leadBusinessDays: number): string {
  let day = today;
  for (let left = leadBusinessDays; left > 0;) {
    day = addDays(day, 1);
    if (!isWeekend(day)) left -= 1;
  }
  return day;
}

/** Every date windows may be on, soonest first: from the soonest day to `horizonDays` after today. */
export function bookableDates(today: string, days: BookingDays): string[] {
  const last = addDays(today, days.horizonDays);
  const dates: string[] = [];
  for (let day = soonestDay(today, days.leadBusinessDays); day <= last; day = addDays(day, 1)) dates.push(day);
  return dates;
}

/** A worker's time, as availability reads it: the hours they said they work, and when they are taken. */
export interface WorkerTime {
  id: string;
  /** Set Schedule's hours; empty: no hours given, any time is theirs to be booked. */
  schedule: WeeklySchedule;
  /** Instants (ms) they are taken (visits, time off), in any order. */
  busy: { start: number; end: number }[];
}

/** A window offered: its day and wall-clock times, the instant the visit would start, and who is free. */
export interface FreeWindow {
  date: string;
  start: string;
  end: string;
  startsAt: string;
  workerIds: string[];
}

export interface FreeWindowsInput {
  dates: string[];
  windows: BookingWindow[];
  timeZone: string;
  /** How long the visit lasts from the window's start. */
  durationMinutes: number;
  workers: WorkerTime[];
  /** `all`: the whole crew must be free (moving a visit); `any`: one of them is enough (an estimate). */
  need: 'all' | 'any';
  /** Windows starting before this instant are not offered. */
  notBefore: Date;
}

/** Whether a worker may be booked from `startsAt` for `minutes`: inside their hours, nothing else then. */
export function isFree(worker: WorkerTime, date: string, startsAt: number, minutes: number, timeZone: string): boolean {
  const endsAt = startsAt + minutes * 60_000;
  if (worker.busy.some((b) => b.start < endsAt && b.end > startsAt)) return false;
  if (worker.schedule.length === 0) return true;
  const hours = worker.schedule.find((d) => d.day === weekdayOf(date));
  if (!hours) return false;
  const start = wallTimeIn(timeZone, new Date(startsAt));
  const end = wallTimeIn(timeZone, new Date(endsAt));
  // The same rule the office's booking warns by (visits' conflictsOf): inside the day's hours.
  return start.date === date && end.date === date && start.time >= hours.start && end.time <= hours.end;
}

/**
 * The windows a visit of `durationMinutes` may start in, soonest first, with the workers free for the
 * whole of it. Wall-clock windows become instants on each date in the business's zone, so a window
 * stays 8–10 across the daylight-saving changes.
 */
export function freeWindows(input: FreeWindowsInput): FreeWindow[] {
  const byDay = new Map<string, BookingWindow[]>();
  for (const w of [...input.windows].sort((a, b) => a.start.localeCompare(b.start)))
    byDay.set(w.day, [...(byDay.get(w.day) ?? []), w]);
  const found: FreeWindow[] = [];
  for (const date of input.dates) {
    for (const w of byDay.get(weekdayOf(date)) ?? []) {
      const startsAt = zonedTimeToUtc(date, w.start, input.timeZone);
      if (startsAt < input.notBefore) continue;
      const free = input.workers
        .filter((worker) => isFree(worker, date, startsAt.getTime(), input.durationMinutes, input.timeZone))
        .map((worker) => worker.id);
      const enough = input.need === 'all' ? free.length === input.workers.length : free.length > 0;
      if (enough) found.push({ date, start: w.start, end: w.end, startsAt: startsAt.toISOString(), workerIds: free });
    }
  }
  return found;
}
