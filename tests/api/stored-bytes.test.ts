// Bytes (photos, signatures, documents) go into the database and come back exactly, on both
// databases: every byte value, empty, odd lengths, a view into a larger buffer, a photo's size, and
// in the pieces readLargeBytes and appendLargeBytes move. On PGlite they pass through Node's own hex
// codec (pgliteBytes, decision 028 session 36) instead of PGlite's byte-at-a-time one.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteBytes } from '../../src/server/db/pglite-bytes';
import { bytea } from '../../src/server/db/columns';
import { appendLargeBytes, readLargeBytes } from '../../src/server/db/large-bytes';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

const scratch = pgTable('stored_bytes_test', { id: text('id').primaryKey(), data: bytea('data') });

const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const inside = Buffer.concat([Buffer.from('before'), everyByte, Buffer.from('after')]);
const samples: [string, Uint8Array][] = [
  ['empty', Buffer.alloc(0)],
  ['one zero byte', Buffer.from([0])],
  ['every byte value', everyByte],
  // A view into a larger buffer (Node's small Buffers are views into one shared slab).
  ['a view with an offset', inside.subarray(6, 6 + 256)],
  ['a plain Uint8Array', new Uint8Array(everyByte)],
  ['odd length', randomBytes(4099)],
  ['a phone photo', randomBytes(2_300_000)],
];

describe('pgliteBytes', () => {
  it('reads the database text form and writes it back', () => {
    expect(pgliteBytes.parse('\\x00ff10')).toEqual(Buffer.from([0, 255, 16]));
    expect(pgliteBytes.parse('\\x')).toEqual(Buffer.alloc(0));
    expect(pgliteBytes.serialize(inside.subarray(6, 9))).toBe('\\x000102');
    expect(() => pgliteBytes.serialize('not bytes')).toThrow('Invalid input for bytea type');
  });
});

describe.each(dbKinds)('stored bytes (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.execute(sql`create table stored_bytes_test (id text primary key, data bytea)`);
  });
  afterAll(() => database.destroy());

  it.each(samples)('%s: written as a parameter and read back byte for byte', async (name, bytes) => {
    await database.db.insert(scratch).values({ id: name, data: bytes as Buffer });
    const [row] = await database.db
      .select()
      .from(scratch)
      .where(sql`id = ${name}`);
    expect(Buffer.isBuffer(row!.data)).toBe(true);
    expect(row!.data!.equals(bytes)).toBe(true);
    const [length] = (
      (await database.db.execute(
        sql`select octet_length(data) as n from stored_bytes_test where id = ${name}`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(Number(length!.n)).toBe(bytes.length);
  });

  it('a document appended and read a megabyte at a time comes back whole', async () => {
    const document = randomBytes(3 * 1024 * 1024 + 17);
    await database.db.insert(scratch).values({ id: 'document', data: Buffer.alloc(0) });
    await database.db.transaction((tx) => appendLargeBytes(tx, scratch, scratch.data, sql`id = 'document'`, document));
    const read = await readLargeBytes(database.db, scratch, scratch.data, sql`id = 'document'`);
    expect(read?.equals(document)).toBe(true);
  });
});
