// Bytes (photos, signatures, documents) go into the database and come back exactly, on both
// databases: every byte value, empty, odd lengths, a view into a larger buffer, a photo's size, and
// in the pieces stageBytes writes and readLargeBytes reads. On PGlite they pass through Node's own hex
// codec (pgliteBytes, decision 028 session 36) instead of PGlite's byte-at-a-time one.
import { randomBytes } from 'node:crypto';
import { like, sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteBytes } from '../../src/server/db/pglite-bytes';
import { bytea } from '../../src/server/db/columns';
import { readLargeBytes } from '../../src/server/db/large-bytes';
import { stageBytes } from '../../src/server/documents/repository';
import { documents } from '../../src/server/db/schema';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
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

  it.each([
    ['empty', 0],
    ['one byte', 1],
    ['exactly a megabyte', 1024 * 1024],
    ['three megabytes and 17 bytes', 3 * 1024 * 1024 + 17],
  ])(
    '%s: staged a megabyte per row, copied in one statement and read a megabyte at a time comes back whole',
    async (name, size) => {
      const document = randomBytes(size);
      const staged = await stageBytes(database.db, document);
      await database.db.insert(scratch).values({ id: `staged ${name}`, data: staged.value as unknown as Buffer });
      await staged.drop();
      const read = await readLargeBytes(database.db, scratch, scratch.data, sql`id = ${`staged ${name}`}`);
      expect(read?.equals(document)).toBe(true);
      // Nothing of the staging is left behind.
      expect(
        await database.db.select({ key: documents.key }).from(documents).where(like(documents.key, 'staging:%')),
      ).toEqual([]);
    },
  );

  it('joins the staged pieces in their order, not the order the table holds them in, and none when one is lost', async () => {
    const document = randomBytes(3 * 1024 * 1024 + 5);
    const staged = await stageBytes(database.db, document);
    // The first piece written again: it is now the last row in the table's own order.
    await database.db.execute(sql`update documents set size = size where key like 'staging:%:0000'`);
    await database.db.insert(scratch).values({ id: 'reordered', data: staged.value as unknown as Buffer });
    expect((await readLargeBytes(database.db, scratch, scratch.data, sql`id = 'reordered'`))?.equals(document)).toBe(
      true,
    );
    // A piece gone (say to the clean-up of an hour-old staging): no value at all, never one cut short.
    await database.db.execute(sql`delete from documents where key like 'staging:%:0001'`);
    await database.db.insert(scratch).values({ id: 'a piece lost', data: staged.value as unknown as Buffer });
    await staged.drop();
    const [row] = rowsOf<{ n: number | null }>(
      await database.db.execute(sql`select octet_length(data) as n from stored_bytes_test where id = 'a piece lost'`),
    );
    expect(row!.n).toBeNull();
  });

  it('keeps stored files (PDFs, reports, photos) as they are, uncompressed: they are compressed already', async () => {
    const { rows } = (await database.db.execute(sql`
      select attrelid::regclass::text as "table", attname as "column", attstorage as storage from pg_attribute
      where (attrelid::regclass::text, attname) in (('documents', 'bytes'), ('job_records', 'report'), ('job_photos', 'data'))
      order by 1`)) as unknown as { rows: { table: string; column: string; storage: string }[] };
    expect(rows).toEqual([
      { table: 'documents', column: 'bytes', storage: 'e' },
      { table: 'job_photos', column: 'data', storage: 'e' },
      { table: 'job_records', column: 'report', storage: 'e' },
    ]);
  });
});
