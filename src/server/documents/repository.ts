import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { appendLargeBytes, readLargeBytes } from '../db/large-bytes';
import { documents } from '../db/schema';

/** The stored bytes of `key` at `version` (undefined when none, or an older version). */
export async function storedBytes(db: DbOrTx, key: string, version: string): Promise<Buffer | undefined> {
  return readLargeBytes(db, documents, documents.bytes, and(eq(documents.key, key), eq(documents.version, version))!);
}

/** Keeps `bytes` as the one copy of `key` (an older version is replaced). */
export async function storeBytes(db: Db, key: string, version: string, bytes: Buffer): Promise<void> {
  const values = { version, bytes: Buffer.alloc(0), size: bytes.length, createdAt: new Date() };
  // Written a piece at a time, in one transaction: readers see the old copy or the whole new one.
  await db.transaction(async (tx) => {
    await tx
      .insert(documents)
      .values({ key, ...values })
      .onConflictDoUpdate({ target: documents.key, set: values });
    await appendLargeBytes(tx, documents, documents.bytes, eq(documents.key, key), bytes);
  });
}
