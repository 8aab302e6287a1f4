import { z } from 'zod';
import { EARLIEST_DATE, LATEST_DATE } from '../constants';

// Fields many forms share, checked the same way wherever they come in (decision 025).

/** The range's words, as the quote request form has always said them. */
const DATE_RANGE_MESSAGE = `Must be a date from ${EARLIEST_DATE.slice(0, 4)} to ${LATEST_DATE.slice(0, 4)}`;

/**
 * A calendar date as YYYY-MM-DD that exists (2026-02-30 does not) and falls in the range a person may
 * enter, EARLIEST_DATE to LATEST_DATE (2000-01-01 to 2100-12-31): year 0001 or 9999 is a typo or an
 * attack on the date arithmetic, and answers 400 rather than reaching the database.
 */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date (YYYY-MM-DD)')
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'Must be a real date',
  )
  .refine((v) => v >= EARLIEST_DATE && v <= LATEST_DATE, DATE_RANGE_MESSAGE);

/**
 * A moment as ISO 8601 with its offset (2027-03-14T09:00:00-07:00), in the same range of dates
 * (read in UTC, with a day's slack either side for the offsets).
 */
export const isoInstant = z.iso.datetime({ offset: true, error: 'Must be a date and time' }).refine((v) => {
  const at = Date.parse(v);
  return (
    at >= Date.parse(`${EARLIEST_DATE}T00:00:00Z`) - 86_400_000 &&
    at <= Date.parse(`${LATEST_DATE}T23:59:59Z`) + 86_400_000
  );
}, DATE_RANGE_MESSAGE);

/**
 * Characters that show nothing: whitespace, format characters (zero-width space and joiners, word
 * joiner, bidi marks, the byte order mark: Unicode's Cf), the combining grapheme joiner, and the
 * blank fillers (Hangul, braille) that render as empty.
 */
const INVISIBLE_EDGES =
  /^[\s\p{Cf}\u034f\u115f\u1160\u2800\u3164\uffa0]+|[\s\p{Cf}\u034f\u115f\u1160\u2800\u3164\uffa0]+$/gu;

/** Text with the invisible characters at either end taken off (in the middle they may join letters). */
export const trimInvisible = (value: string) => value.replace(INVISIBLE_EDGES, '');

/**
 * A person's typed name standing as their signature: trimmed of whitespace and invisible characters
 * before it is counted, and holding at least one letter or digit, so "\u200b\u200b" signs nothing.
 */
export function signedName({
  min,
  max,
  missing,
  tooLong,
}: {
  min: number;
  max: number;
  missing: string;
  tooLong: string;
}) {
  return z
    .string({ error: missing })
    .transform(trimInvisible)
    .pipe(
      z
        .string()
        .min(min, missing)
        .max(max, tooLong)
        .regex(/[\p{L}\p{N}]/u, missing),
    );
}

/** A wall-clock time, "09:00". */
export const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time like 09:00');
