import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { readLargeBytes } from '../db/large-bytes';
import { documents } from '../db/schema';

/** The stored bytes of `key` at `version` (undefined when none, or an older version). */
export async function storedBytes(db: DbOrTx, key: string, version: string): Promise<Buffer | undefined> {
  return readLargeBytes(db, documents, documents.bytes, and(eq(documents.key, key), eq(documents.version, version))!);
}

/** Keeps `bytes` as the one copy of `key` (an older version is replaced). */
export async function storeBytes(db: DbOrTx, key: string, version: string, bytes: Buffer): Promise<void> {
  const values = { version, bytes, size: bytes.length, createdAt: new Date() };
  await db
    .insert(documents)
    .values({ key, ...values })
    .onConflictDoUpdate({ target: documents.key, set: values });
}
