import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

/** How much of a large value one statement reads or writes. */
export const PIECE = 1024 * 1024;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const asBuffer = (value: unknown) =>
  Buffer.isBuffer(value) ? value : value instanceof Uint8Array ? Buffer.from(value) : Buffer.alloc(0);

/**
 * A large bytea value (a stored PDF of up to 15 MB) read a megabyte per statement. The embedded database
 * runs in this process: one statement that returns 14 MB holds every other request for over a second,
 * and the pieces let them through in between. Undefined when no row matches or the value is null.
 * Read inside a transaction when the value may change meanwhile (stored documents are written once).
 */
export async function readLargeBytes(
  db: DbOrTx,
  table: PgTable,
  column: PgColumn,
  where: SQL,
): Promise<Buffer | undefined> {
  const [size] = rowsOf<{ length: number | string | null }>(
    await db.execute(sql`select octet_length(${column}) as length from ${table} where ${where} limit 1`),
  );
  if (!size || size.length === null) return undefined;
  const length = Number(size.length);
  const pieces: Buffer[] = [];
  for (let at = 0; at < length; at += PIECE) {
    const [row] = rowsOf<{ piece: unknown }>(
      await db.execute(
        sql`select substring(${column} from ${at + 1}::int for ${PIECE}::int) as piece from ${table} where ${where} limit 1`,
      ),
    );
    if (!row) return undefined;
    pieces.push(asBuffer(row.piece));
  }
  return Buffer.concat(pieces, length);
}
