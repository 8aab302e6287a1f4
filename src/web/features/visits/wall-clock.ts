/**
 * The calendar shows the business's wall-clock times as they are: FullCalendar runs in "UTC" and is
 * handed local date-times without an offset, so nothing is shifted by the browser's own zone.
 */

/** A FullCalendar date ("UTC") as the business's wall-clock date and time. */
export const wall = (iso: string) => ({ date: iso.slice(0, 10), time: iso.slice(11, 16) });

/** A wall-clock date and time as FullCalendar takes it. */
export const asWall = (date: string, time: string) => `${date}T${time}:00`;
