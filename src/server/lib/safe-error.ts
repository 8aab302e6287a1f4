/**
 * What the log and the terminal may say about an error. Drizzle's query errors carry the query's
 * parameters (a password hash, a client's name and address) in their message, their stack and a
 * field of their own, and PostgreSQL's `detail` repeats the values of a clashing row: none of that
 * is printed. What is kept: the error's type, its message without values, the SQL with its
 * placeholders, the database's error code and message, and the stack's frames.
 */
export interface SafeError {
  type: string;
  message: string;
  code?: string;
  query?: string;
  stack?: string;
  cause?: SafeError;
}

const MAX_DEPTH = 4;

function frames(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const lines = stack.split('\n').filter((l) => /^\s+at /.test(l));
  return lines.length ? lines.join('\n') : undefined;
}

export function safeError(error: unknown, depth = 0): SafeError {
  if (!(error instanceof Error)) return { type: typeof error, message: 'a value that is not an Error was thrown' };
  const e = error as Error & { code?: unknown; query?: unknown; params?: unknown; cause?: unknown };
  const isQueryError = typeof e.query === 'string' && 'params' in e;
  const out: SafeError = {
    type: e.name,
    message: isQueryError ? 'Failed query' : e.message,
  };
  if (typeof e.code === 'string') out.code = e.code;
  if (isQueryError) out.query = (e.query as string).slice(0, 2000);
  const stack = frames(e.stack);
  if (stack) out.stack = stack;
  if (e.cause !== undefined && depth < MAX_DEPTH) out.cause = safeError(e.cause, depth + 1);
  return out;
}

/** One line for a terminal: the message and code of the error, then of what it wraps (when it adds something). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let previous = '';
  for (let e: SafeError | undefined = safeError(error); e; e = e.cause) {
    if (previous.includes(e.message) && !e.code) continue;
    const text = `${e.message}${e.code ? ` (${e.code})` : ''}${e.query ? ` [${e.query}]` : ''}`;
    parts.push(parts.length === 0 ? text : `${e.type}: ${text}`);
    previous = e.message;
  }
  return parts.join(' ← ');
}
