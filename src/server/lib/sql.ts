import { sql } from 'drizzle-orm';

/** `%` and `_` typed in a search box are letters, not wildcards. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Where page `page` of `limit` rows, newest first, lies among `total`: pages past the middle are read
 * from the oldest end (ascending, skipping from that end), so no page walks more than half of an
 * index (decision 004). Undefined past the last page.
 */
export function pageWindow(
  page: number,
  limit: number,
  total: number,
): { fromOldest: boolean; take: number; skip: number } | undefined {
  const offset = (page - 1) * limit;
  if (offset >= total) return undefined;
  const fromOldest = offset > total / 2;
  const take = Math.min(limit, total - offset);
  return { fromOldest, take, skip: fromOldest ? total - offset - take : offset };
}

/**
 * Every row of a long list in its order, in batches (decision 028): `readAfter` reads the batch after
 * the last row it was given (undefined for the first), a short query of its own keyed on the list's
 * order, so a download of every row holds no transaction (PGlite's one connection is free between
 * batches) and no more than two batches in memory: the next is asked for before this one is handed
 * on, so the database reads while the caller writes. Ends at the first empty batch.
 */
export async function* inKeyOrder<T>(readAfter: (last: T | undefined) => Promise<T[]>): AsyncGenerator<T[]> {
  const read = (last: T | undefined) => {
    const batch = readAfter(last);
    // Awaited below; marked handled here so a download given up meanwhile leaves no unhandled rejection.
    batch.catch(() => {});
    return batch;
  };
  let next = read(undefined);
  for (;;) {
    const batch = await next;
    if (batch.length === 0) return;
    next = read(batch.at(-1));
    yield batch;
  }
}

/**
 * Every row of a long list in key order, in ranges read several at once (decision 028, session 36).
 * `boundaryAfter` finds where the range after a key ends (the key a batch's length further on, read
 * from the index alone, or undefined when fewer rows are left: the last range is open), and
 * `readRange` reads the rows after one key up to and including the other, a short query of its own.
 * Up to `ahead` ranges are being read while the caller writes the one before them: on PostgreSQL each
 * on a connection of its own, so the database writes rows on both cores while the server sends them
 * (one read at a time left the server idle half the download). Each range is yielded in order, empty
 * ones (rows deleted meanwhile) skipped; a row added behind a range already read is not seen, as with
 * `inKeyOrder`.
 */
export async function* inKeyRanges<K, T>(
  boundaryAfter: (after: K | undefined) => Promise<K | undefined>,
  readRange: (after: K | undefined, upTo: K | undefined) => Promise<T[]>,
  ahead: number,
): AsyncGenerator<T[]> {
  const reads: Promise<T[]>[] = [];
  let after: K | undefined;
  let planned = false;
  try {
    for (;;) {
      while (!planned && reads.length < ahead) {
        const upTo = await boundaryAfter(after);
        const read = readRange(after, upTo);
        // Awaited in turn below; marked handled so a download given up meanwhile leaves no unhandled rejection.
        read.catch(() => {});
        reads.push(read);
        if (upTo === undefined) planned = true;
        else after = upTo;
      }
      const next = reads.shift();
      if (!next) return;
      const batch = await next;
      if (batch.length) yield batch;
    }
  } finally {
    // A download given up: the reads still in flight finish on their own and are dropped.
    await Promise.allSettled(reads);
  }
}

/**
 * How many rows the query matched before its limit, as a column of each row read (`count(*) over ()`):
 * a short list and its whole count in one statement instead of two. No row read means none matched
 * (or the page lies past the end); `totalOf` reads it so.
 */
export const totalBeforeLimit = () => sql<number>`count(*) over ()`.mapWith(Number);

/** The rows without their total, and the total (`totalBeforeLimit`'s column, 0 when no row came back). */
export function totalOf<T extends { total: number }>(rows: T[]): { count: number; rows: Omit<T, 'total'>[] } {
  return { count: rows[0]?.total ?? 0, rows: rows.map(({ total: _total, ...row }) => row) };
}
