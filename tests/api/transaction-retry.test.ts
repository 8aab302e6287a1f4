import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { afterCommit, onCommitted, TRANSACTION_TRIES } from '../../src/server/db/client';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** Rolls the transaction it runs in back as PostgreSQL does when another transaction went first. */
const lose = (code: '40001' | '40P01') =>
  sql.raw(`do $$ begin raise exception 'lost to another transaction' using errcode = '${code}'; end $$`);

// A unit of work that PostgreSQL rolled back because another transaction went first (a deadlock, a
// serialization failure) runs again from its start (db/client.ts, decision 015): the client whose
// Accept met the office's change gets an answer, not a 500. The failures are raised on purpose on both
// databases; the deadlock is a real one on PostgreSQL (PGlite runs one transaction at a time).
describe.each(dbKinds)('a transaction that lost to another (%s)', (kind) => {
  let t: TestApp;
  const rows = async () =>
    (
      (await t.database.db.execute(sql`select id, n from retry_rows order by id`)) as unknown as {
        rows: { id: number; n: number }[];
      }
    ).rows;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.database.db.execute(sql`create table retry_rows (id integer primary key, n integer not null)`);
  });
  beforeEach(async () => {
    await t.database.db.execute(sql`delete from retry_rows`);
  });
  afterAll(() => t.close());

  it('runs again from its start: the lost try’s writes and after-commit asks are gone, the next one’s kept', async () => {
    const heard: number[] = [];
    const stop = onCommitted<number>(t.database.db, 'retry-test', (value) => heard.push(value));
    let runs = 0;
    try {
      const result = await t.database.db.transaction(async (tx) => {
        runs += 1;
        await tx.execute(sql`insert into retry_rows (id, n) values (1, ${runs})`);
        afterCommit(tx, 'retry-test', runs);
        if (runs === 1) await tx.execute(lose('40001'));
        return `done on try ${runs}`;
      });
      expect(result).toBe('done on try 2');
    } finally {
      stop();
    }
    expect(runs).toBe(2);
    expect(await rows()).toEqual([{ id: 1, n: 2 }]);
    expect(heard).toEqual([2]);
  });

  it(`gives up after ${TRANSACTION_TRIES} tries with the database's error, and never runs again for any other error`, async () => {
    let runs = 0;
    const lost = t.database.db.transaction(async (tx) => {
      runs += 1;
      await tx.execute(sql`insert into retry_rows (id, n) values (${runs}, ${runs})`);
      await tx.execute(lose('40P01'));
    });
    await expect(lost).rejects.toMatchObject({ cause: { code: '40P01' } });
    expect(runs).toBe(TRANSACTION_TRIES);
    expect(await rows()).toEqual([]);

    runs = 0;
    await t.database.db.execute(sql`insert into retry_rows (id, n) values (1, 0)`);
    const duplicate = t.database.db.transaction(async (tx) => {
      runs += 1;
      await tx.execute(sql`insert into retry_rows (id, n) values (1, 1)`);
    });
    await expect(duplicate).rejects.toMatchObject({ cause: { code: '23505' } });
    await expect(
      t.database.db.transaction(async () => {
        runs += 1;
        throw new Error('a rule of ours');
      }),
    ).rejects.toThrow('a rule of ours');
    expect(runs).toBe(2);
  });

  it('two transactions taking two rows in opposite orders both commit', async () => {
    const { db } = t.database;
    await db.execute(sql`insert into retry_rows (id, n) values (1, 0), (2, 0)`);
    const signal = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      // PGlite runs the second transaction only after the first: its signal never comes while the first waits.
      return { open, wait: () => Promise.race([opened, new Promise((r) => setTimeout(r, 1_000))]) };
    };
    const [aHasOne, bHasTwo] = [signal(), signal()];
    let runs = 0;
    const takeInOrder = (
      first: number,
      second: number,
      mine: ReturnType<typeof signal>,
      theirs: ReturnType<typeof signal>,
    ) =>
      db.transaction(async (tx) => {
        runs += 1;
        await tx.execute(sql`update retry_rows set n = n + 1 where id = ${first}`);
        mine.open();
        await theirs.wait();
        await tx.execute(sql`update retry_rows set n = n + 1 where id = ${second}`);
      });
    await Promise.all([takeInOrder(1, 2, aHasOne, bHasTwo), takeInOrder(2, 1, bHasTwo, aHasOne)]);
    // Each transaction's two changes, once.
    expect(await rows()).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
    // On PostgreSQL the two deadlocked and the one the server chose ran again; on PGlite one waited.
    expect(runs).toBe(kind === 'postgres' ? 3 : 2);
  });
});
