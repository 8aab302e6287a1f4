/** PostgreSQL's code for a unique constraint that a write would break (both servers and PGlite). */
const UNIQUE_VIOLATION = '23505';
/**
 * PostgreSQL's codes for a transaction that lost to another one and was rolled back whole: a deadlock
 * (two transactions each waiting for a row the other holds) and a serialization failure. Run again, it
 * succeeds (PostgreSQL's documentation, "Serialization Failure Handling").
 */
const LOST_TO_ANOTHER = new Set(['40P01', '40001']);

/** True when `error`, or an error it wraps (drizzle wraps the driver's), has a code `is` accepts. */
function hasCode(error: unknown, is: (code: unknown) => boolean): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (is(e.code)) return true;
  }
  return false;
}

/** True when `error`, or an error it wraps, is a unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  return hasCode(error, (code) => code === UNIQUE_VIOLATION);
}

/** True when `error` rolled a transaction back because another one went first: worth one more try. */
export function isLostToAnotherTransaction(error: unknown): boolean {
  return hasCode(error, (code) => typeof code === 'string' && LOST_TO_ANOTHER.has(code));
}
