/**
 * The calendar shows the business's wall-clock times as they are: FullCalendar runs in "UTC" and is
 * handed local date-times without an offset, so nothing is shifted by the browser's own zone.
 */

import { wallTimeIn } from '#shared/dates';

/** A FullCalendar date ("UTC") as the business's wall-clock date and time. */
export const wall = (iso: string) => ({ date: iso.slice(0, 10), time: iso.slice(11, 16) });

/** A wall-clock date and time as FullCalendar takes it. */
export const asWall = (date: string, time: string) => `${date}T${time}:00`;

/**
 * The business's "now" as FullCalendar takes it: with the calendar in "UTC", its today (the date it
 * opens on, the Today button, the highlighted day) and its now-line come from this, not from UTC's
 * clock, which is tomorrow already after 4 PM in Sacramento.
 */
export const businessNow = (timeZone: string, now = new Date()) => {
  const { date, time } = wallTimeIn(timeZone, now);
  return asWall(date, time);
};
