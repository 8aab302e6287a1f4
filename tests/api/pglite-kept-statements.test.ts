// The embedded database's worker keeps the statements run again and again prepared by name
// (src/server/db/pglite-statements.ts): the same values as an unprepared run, whatever the types; a
// bounded number kept; errors as before; a table changed under a kept statement; transactions.
import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_STATEMENTS, PreparedStatements } from '../../src/server/db/pglite-statements';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe('kept statements on the embedded database', () => {
  let database: TestDatabase;
  const kept = async () =>
    rowsOf<{ statement: string }>(
      await database.db.execute(
        sql`select statement from pg_prepared_statements where name like 'pglite_kept_%' order by prepare_time`,
      ),
    ).map((row) => row.statement);

  /** How many rows hold `n`, read on the database or a transaction. */
  const countOf = async (n: number, on: Pick<TestDatabase['db'], 'execute'> = database.db) =>
    Number(rowsOf<{ n: number }>(await on.execute(sql`select count(*)::int as n from kept_test where n = ${n}`))[0]!.n);

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    await database.db.execute(sql`create table kept_test (
      id text primary key, n integer, big bigint, amount numeric(12,2), yes boolean, at timestamptz, day date,
      doc jsonb, tags text[], data bytea)`);
  });
  afterAll(() => database.destroy());

  it('prepares a statement the second time it runs, and reads the same values every time', async () => {
    const values = {
      id: 'every type',
      n: 42,
      big: '9007199254740993',
      amount: '1234.50',
      yes: true,
      at: '2026-12-01T17:00:00.123Z',
      day: '2026-12-01',
      doc: JSON.stringify({ a: [1, 'two', null], b: { c: 'é' } }),
      tags: ['one', 'two, three', 'quote"d'],
      data: Buffer.from([0, 1, 2, 253, 254, 255]),
    };
    await database.db.execute(sql`insert into kept_test values (${values.id}, ${values.n}, ${values.big},
      ${values.amount}, ${values.yes}, ${values.at}, ${values.day}, ${values.doc}::jsonb, ${sql.param(values.tags)}, ${values.data})`);
    await database.db.execute(sql`insert into kept_test (id) values ('all null')`);
    const read = () =>
      database.db.execute(
        sql`select * from kept_test where id = any(${sql.param(['every type', 'all null'])}) order by id desc`,
      );
    const first = rowsOf(await read());
    expect((await kept()).some((text) => text.includes('from kept_test'))).toBe(false);
    const second = rowsOf(await read());
    const third = rowsOf(await read());
    expect((await kept()).filter((text) => text.includes('from kept_test where id = any'))).toHaveLength(1);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    const [row] = first as Record<string, unknown>[];
    expect(row!.data).toEqual(values.data);
    expect(row!.doc).toEqual(JSON.parse(values.doc));
    expect(row!.tags).toEqual(values.tags);
    // Times come as the database's text: the driver's callers parse them (decision 053).
    expect(row!.at).toBe('2026-12-01 17:00:00.123+00');
    expect((first[1] as Record<string, unknown>).n).toBeNull();
  });

  it(`keeps at most ${KEPT_STATEMENTS}, closing the least recently run`, async () => {
    const often = () => database.db.execute(sql`select 'run often' as what, ${1}::int as n`);
    await often();
    await often();
    for (let i = 0; i < KEPT_STATEMENTS + 50; i++) {
      await database.db.execute(sql.raw(`select ${i} as n`));
      await database.db.execute(sql.raw(`select ${i} as n`));
      if (i % 50 === 0) await often();
    }
    const statements = await kept();
    expect(statements.length).toBeLessThanOrEqual(KEPT_STATEMENTS);
    expect(statements).toContain(`select ${KEPT_STATEMENTS + 49} as n`);
    expect(statements).not.toContain('select 0 as n');
    expect(statements.some((text) => text.includes('run often'))).toBe(true);
  });

  it('tells an error as before: its code, constraint and statement', async () => {
    const insert = (id: string) => database.db.execute(sql`insert into kept_test (id, n) values (${id}, 1)`);
    await insert('twice');
    await insert('twice again');
    const error = await insert('twice').then(
      () => undefined,
      // Drizzle tells the database's error as its cause.
      (e: unknown) => (e as { cause?: unknown }).cause as { code?: string; constraint?: string; query?: string },
    );
    expect(error?.code).toBe('23505');
    expect(error?.constraint).toBe('kept_test_pkey');
    expect(error?.query).toContain('insert into kept_test');
    // The statement still runs after its error.
    await insert('after the error');
    expect(rowsOf(await database.db.execute(sql`select id from kept_test where id = 'after the error'`))).toHaveLength(
      1,
    );
  });

  it('reads a table changed under a kept statement as it now is', async () => {
    const read = () => database.db.execute(sql`select * from kept_test where id = ${'every type'}`);
    await read();
    await read();
    await database.db.execute(sql`alter table kept_test add column extra text default 'added'`);
    const [row] = rowsOf<Record<string, unknown>>(await read());
    expect(row!.extra).toBe('added');
  });

  it('prepares again a statement whose values changed type under it, and inside a transaction tells the error', async () => {
    await database.db.execute(sql`create table kept_types (id text primary key, n integer)`);
    await database.db.execute(sql`insert into kept_types values ('seven', 7)`);
    const read = (tx: Pick<TestDatabase['db'], 'execute'> = database.db) =>
      tx.execute(sql`select id from kept_types where n = ${7}`).then((r) => rowsOf<{ id: string }>(r));
    await read();
    await read();
    // Prepared with an integer value; the column is text now (the value is written as text either way).
    await database.db.execute(sql`alter table kept_types alter column n type text`);
    expect(await read()).toEqual([{ id: 'seven' }]);
    // Inside a transaction, the error that aborted it is the one told, and the statement works after.
    const star = () => database.db.execute(sql`select * from kept_types where id = ${'seven'}`);
    await star();
    await star();
    await database.db.execute(sql`alter table kept_types add column more text`);
    const error = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select * from kept_types where id = ${'seven'}`);
      })
      .then(
        () => undefined,
        (e: unknown) => ((e as { cause?: unknown }).cause ?? e) as { code?: string },
      );
    expect(error?.code).toBe('0A000');
    expect(Object.keys(rowsOf<Record<string, unknown>>(await star())[0]!)).toContain('more');
  });

  it('does not keep a long bulk statement', async () => {
    const values = Array.from({ length: 120 }, (_, i) => sql`(${`bulk ${i}`}, ${i})`);
    await database.db.execute(sql`insert into kept_test (id, n) values ${sql.join(values, sql`, `)}`);
    await database.db.execute(sql`delete from kept_test where id like 'bulk %'`);
    await database.db.execute(sql`insert into kept_test (id, n) values ${sql.join(values, sql`, `)}`);
    expect((await kept()).some((text) => text.includes('$240'))).toBe(false);
    await database.db.execute(sql`delete from kept_test where id like 'bulk %'`);
  });

  it('runs a statement outside a transaction only once an open one has ended, as an unprepared one', async () => {
    const count = () => countOf(8);
    await count();
    await count();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedNow = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into kept_test (id, n) values ('held open', 8)`);
      inserted();
      await held;
    });
    await insertedNow;
    let outside: number | undefined;
    const read = count().then((n) => (outside = n));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still waiting: it neither ran inside the open transaction nor read around it.
    expect(outside).toBeUndefined();
    release();
    await transaction;
    await read;
    expect(outside).toBe(1);
  });

  it('runs inside a transaction: its writes seen within it, gone when it rolls back', async () => {
    const count = () => countOf(7);
    await count();
    await count();
    const inside: number[] = [];
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into kept_test (id, n) values ('in a transaction', 7)`);
        inside.push(await countOf(7, tx));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(inside).toEqual([1]);
    expect(await count()).toBe(0);
  });
});

describe("a kept statement read with the call's own parsers", () => {
  it("lays each call's parsers over PGlite's, and keeps none of them for the next call", async () => {
    const db = await PGlite.create();
    try {
      const kept = new PreparedStatements(db);
      const text = `select '2026-12-01 17:00:00+00'::timestamptz as at, 7::int as n, '\\x01ff'::bytea as b,
        array[1, 2]::int[] as a, '{"k": "v"}'::jsonb as doc`;
      const run = (options: Parameters<PreparedStatements['run']>[2]) =>
        kept.run(text, [], options, false).then((result) => result.rows[0] as Record<string, unknown>);
      const asText = { [types.TIMESTAMPTZ]: (value: string) => `text ${value}` };
      const other = { [types.TIMESTAMPTZ]: (value: string) => `other ${value}` };
      const unprepared = (await db.query(text)).rows[0] as Record<string, unknown>;
      expect(unprepared.at).toBeInstanceOf(Date);

      for (const options of [{}, { parsers: asText }, { parsers: asText }, { parsers: other }, {}]) {
        const row = await run(options);
        // The call's parser for its type, PGlite's own for every other (arrays included, which PGlite adds
        // once it has started), and none of an earlier call's.
        if (!('parsers' in options)) expect(row.at).toEqual(unprepared.at);
        else expect(row.at).toBe(`${options.parsers === asText ? 'text' : 'other'} 2026-12-01 17:00:00+00`);
        expect(row.n).toBe(7);
        expect(row.b).toEqual(unprepared.b);
        expect(row.a).toEqual([1, 2]);
        expect(row.doc).toEqual({ k: 'v' });
      }
      // The call's other options still apply: rows as arrays, as Drizzle reads them.
      const asArray = await kept.run(text, [], { rowMode: 'array', parsers: asText }, false);
      expect(asArray.rows[0]).toEqual(['text 2026-12-01 17:00:00+00', 7, unprepared.b, [1, 2], { k: 'v' }]);
    } finally {
      await db.close();
    }
  });
});
