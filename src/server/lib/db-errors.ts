/** PostgreSQL's code for a unique constraint that a write would break (both servers and PGlite). */
const UNIQUE_VIOLATION = '23505';

/** True when `error`, or an error it wraps (drizzle wraps the driver's), is a unique violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
