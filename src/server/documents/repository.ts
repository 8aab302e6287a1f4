import { randomUUID } from 'node:crypto';
import { and, eq, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { appendLargeBytes, readLargeBytes } from '../db/large-bytes';
import { documents } from './tables';

/** The stored bytes of `key` at `version` (undefined when none, or an older version). */
export async function storedBytes(db: DbOrTx, key: string, version: string): Promise<Buffer | undefined> {
  return readLargeBytes(db, documents, documents.bytes, and(eq(documents.key, key), eq(documents.version, version))!);
}

const STAGING = 'staging:';

/**
 * Bytes on their way into the database: written into a row of their own a megabyte per statement,
 * outside any transaction (on the embedded database one 14 MB statement holds the process for seconds,
 * and a transaction would hold every other query), then stored where they belong by one statement that
 * copies them inside the database (`value`). Nobody reads the staging row; `drop` removes it, and one
 * left by a process that died is removed by the next staging after an hour.
 */
export async function stageBytes(db: Db, bytes: Buffer): Promise<{ value: SQL; drop: () => Promise<void> }> {
  const key = `${STAGING}${randomUUID()}`;
  await db
    .delete(documents)
    .where(and(like(documents.key, `${STAGING}%`), lt(documents.createdAt, new Date(Date.now() - 3_600_000))));
  await db
    .insert(documents)
    .values({ key, version: 'staging', bytes: Buffer.alloc(0), size: bytes.length, createdAt: new Date() });
  await appendLargeBytes(db, documents, documents.bytes, eq(documents.key, key), bytes);
  return {
    value: sql`(select ${documents.bytes} from ${documents} where ${documents.key} = ${key})`,
    drop: async () => {
      await db.delete(documents).where(eq(documents.key, key));
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
      .onConflictDoUpdate({ target: documents.key, set: values });
  } finally {
    await staged.drop();
  }
}
