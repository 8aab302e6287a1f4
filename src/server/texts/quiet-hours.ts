import { addDays, wallTimeIn, zonedTimeToUtc } from '#shared/dates';

/** When no text reaches a client, on the business's clock ("on my way" apart): from 9 PM until 8 AM. */
export interface QuietHours {
  from: string;
  until: string;
}

export const QUIET_HOURS: QuietHours = { from: '21:00', until: '08:00' };

/** TEXTS_QUIET_HOURS ("21:00-08:00", or "off"): the hours, or null for none. */
export function parseQuietHours(text: string): QuietHours | null {
  if (text === 'off') return null;
  const [from = '', until = ''] = text.split('-');
  return { from, until };
}

/**
 * The first moment at or after `at` outside the quiet hours (9 PM to 8 AM by default, the business's
 * clock): a text due at 10:30 PM leaves at 8 AM the next morning, one due at 6 AM at 8 AM that day.
 * Clock changes count: 8 AM is 8 AM on the wall, whatever the offset.
 */
export function outsideQuietHours(at: Date, timeZone: string, hours: QuietHours | null = QUIET_HOURS): Date {
  if (!hours || hours.from === hours.until) return at;
  const { date, time } = wallTimeIn(timeZone, at);
  // The hours span midnight (21:00-08:00) or lie within a day (01:00-05:00).
  const overnight = hours.from > hours.until;
  const quiet = overnight ? time >= hours.from || time < hours.until : time >= hours.from && time < hours.until;
  if (!quiet) return at;
  const morningOf = overnight && time >= hours.from ? addDays(date, 1) : date;
  return zonedTimeToUtc(morningOf, hours.until, timeZone);
}
