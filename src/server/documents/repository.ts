import { randomUUID } from 'node:crypto';
import { and, eq, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { PIECE, readLargeBytes } from '../db/large-bytes';
import { documents } from './tables';

/** The stored bytes of `key` at `version` (undefined when none, or an older version). */
export async function storedBytes(db: DbOrTx, key: string, version: string): Promise<Buffer | undefined> {
  return readLargeBytes(db, documents, documents.bytes, and(eq(documents.key, key), eq(documents.version, version))!);
}

const STAGING = 'staging:';

/**
 * Bytes on their way into the database: written a megabyte per statement, each piece a row of its own,
 * outside any transaction (on the embedded database one 14 MB statement holds every other query for
 * seconds, and so would a transaction), then stored where they belong by one statement that joins the
 * pieces inside the database (`value`). Appending each piece to one growing value instead rewrote all
 * of it every time: the twelfth megabyte of a report took 0.9 s alone, over 2 s on a busy machine.
 * Nobody reads the staging rows; `drop` removes them, and ones left by a process that died are removed
 * by the next staging after an hour.
 */
export async function stageBytes(db: Db, bytes: Buffer): Promise<{ value: SQL; drop: () => Promise<void> }> {
  const staging = `${STAGING}${randomUUID()}:`;
  await db
    .delete(documents)
    .where(and(like(documents.key, `${STAGING}%`), lt(documents.createdAt, new Date(Date.now() - 3_600_000))));
  const keys: string[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += PIECE) {
    const key = `${staging}${String(keys.length).padStart(4, '0')}`;
    const piece = bytes.subarray(at, at + PIECE);
    await db
      .insert(documents)
      .values({ key, version: 'staging', bytes: piece, size: piece.length, createdAt: new Date() });
    keys.push(key);
  }
  return {
    // The keys' own order is the pieces' (fixed-width numbers), compared byte by byte whatever the collation.
    // Null unless every piece is there (a piece lost, say to the hour's clean-up, must not store a value
    // cut short): where the value is required, the statement then fails; a job's report stays to draw.
    value: sql`(select string_agg(${documents.bytes}, ''::bytea order by ${documents.key} collate "C")
      from ${documents} where ${inArray(documents.key, keys)} having count(*) = ${keys.length})`,
    drop: async () => {
      await db.delete(documents).where(inArray(documents.key, keys));
    },
  };
}

/** Keeps `bytes` as the one copy of `key` (an older version is replaced): readers see the old copy or the new one whole. */
export async function storeBytes(db: Db, key: string, version: string, bytes: Buffer): Promise<void> {
  const staged = await stageBytes(db, bytes);
  try {
    const values = { version, bytes: staged.value, size: bytes.length, createdAt: new Date() };
    await db
      .insert(documents)
      .values({ key, ...values })
      // The row proposed, not the staging joined a second time.
      .onConflictDoUpdate({ target: documents.key, set: { ...values, bytes: sql`excluded.bytes` } });
  } finally {
    await staged.drop();
  }
}
