// The embedded database in a worker thread of its own (decision 053): what crosses between the threads
// comes back as it went (rows, bytes, the database's errors), transactions hold and end as in PGlite,
// several databases of one process stay apart, and the server's thread is free while the database works.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/server/lib/db-errors';
import { PGliteThread } from '../../src/server/db/pglite-thread';
import { projectRoot } from '../../src/server/paths';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db';

type Rows<T> = { rows: T[] };

describe('the embedded database in its own thread', () => {
  let database: TestDatabase;
  let other: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    other = await createTestDatabase('pglite');
    await database.db.execute(sql`create table thread_test (id integer primary key, name text not null, data bytea)`);
  });
  afterAll(async () => {
    await database?.destroy();
    await other?.destroy();
  });

  it('answers many statements at once, each with its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        database.db.execute(sql`select ${n}::integer as n, repeat('x', ${n}) as text`),
      ),
    );
    answers.forEach((answer, n) =>
      expect((answer as unknown as Rows<unknown>).rows).toEqual([{ n, text: 'x'.repeat(n) }]),
    );
  });

  it('gives bytes back as Buffers, byte for byte, small and large', async () => {
    const small = randomBytes(100);
    const large = randomBytes(300_000);
    await database.db.execute(sql`insert into thread_test values (1, 'small', ${small}), (2, 'large', ${large})`);
    const { rows } = (await database.db.execute(
      sql`select id, data from thread_test where id in (1, 2) order by id`,
    )) as unknown as Rows<{ data: Buffer }>;
    expect(rows.map((row) => Buffer.isBuffer(row.data))).toEqual([true, true]);
    expect(Buffer.compare(rows[0]!.data, small)).toBe(0);
    expect(Buffer.compare(rows[1]!.data, large)).toBe(0);
    // A small value is its own memory, not a slice of a shared pool copied across whole.
    expect(rows[0]!.data.buffer.byteLength).toBe(100);
  });

  it('passes the database’s errors on with their code and constraint', async () => {
    await database.db.execute(sql`insert into thread_test (id, name) values (10, 'first')`);
    const error = await database.db
      .execute(sql`insert into thread_test (id, name) values (10, 'again')`)
      .catch((e) => e);
    expect(isUniqueViolation(error)).toBe(true);
    const cause = (error as { cause: { code: string; constraint: string; message: string } }).cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 'thread_test_pkey' });
    expect(cause.message).toContain('duplicate key');
  });

  it('commits a transaction that returns, rolls back one that throws, and holds other statements until it ends', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_test (id, name) values (20, 'kept')`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_test (id, name) values (21, 'undone')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const names = async () =>
      (
        (await database.db.execute(sql`select name from thread_test where id in (20, 21, 22)`)) as unknown as Rows<{
          name: string;
        }>
      ).rows.map((row) => row.name);
    expect(await names()).toEqual(['kept']);

    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_test (id, name) values (22, 'later')`);
      order.push('written');
      await held;
      order.push('committing');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = names().then((seen) => {
      order.push('read');
      return seen;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(['written']);
    release();
    await transaction;
    expect(await outside).toEqual(['kept', 'later']);
    expect(order).toEqual(['written', 'committing', 'read']);
  });

  it('keeps two databases of one process apart, and a closed one refuses calls while the other works', async () => {
    await other.db.execute(sql`create table thread_test (id integer primary key, name text not null, data bytea)`);
    const count = async (of: TestDatabase) =>
      ((await of.db.execute(sql`select count(*)::integer as n from thread_test`)) as unknown as Rows<{ n: number }>)
        .rows[0]!.n;
    expect(await count(other)).toBe(0);
    expect(await count(database)).toBeGreaterThan(0);

    const third = await PGliteThread.start({ dataDir: 'memory://' });
    expect((await third.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await third.close();
    await expect(third.query('select 1')).rejects.toThrow('The embedded database is closed');
    expect(await count(other)).toBe(0);
  });

  it('leaves the server’s thread free while the database works', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const started = performance.now();
    await database.db.execute(sql`select count(*) from generate_series(1, 3000000) a, lateral (select a % 7) b`);
    const ms = performance.now() - started;
    clearInterval(timer);
    // In the server's own thread the statement ran without a break, and no timer fired until it ended.
    expect(ms).toBeGreaterThan(200);
    expect(ticks).toBeGreaterThan(ms / 10 / 4);
  });

  it('lets a command that never closes its database end by itself', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/open-and-leave.ts'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(output).toContain('answer 42');
    expect(code).toBe(0);
  }, 60_000);
});
