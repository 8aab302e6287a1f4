import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { knownLastMigration, lastAppliedMigration, NewerDatabaseError } from '../../src/server/db/versions';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

// Issue 32: an older version of the code refuses a database a newer one upgraded, instead of running
// against tables it does not know (drizzle alone would apply nothing and carry on).
describe.each(dbKinds)('a database from a newer version (%s)', (kind) => {
  const made: TestDatabase[] = [];
  afterAll(() => Promise.all(made.map((d) => d.destroy())));

  it('is refused before anything is changed, with words that say what to do', async () => {
    const database = await createTestDatabase(kind);
    made.push(database);
    const known = knownLastMigration();
    expect(await lastAppliedMigration(database.db as never)).toBe(known);
    // A newer version's migration, applied by that version.
    const newer = known + 86_400_000;
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', ${newer})`,
    );
    const tables = async () =>
      (
        (await database.db.execute(
          sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;
    const before = await tables();

    const refused = await database.migrate().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(NewerDatabaseError);
    expect(String((refused as Error).message)).toBe(
      `This database was upgraded by a newer version of the product (its last migration is from ${new Date(newer)
        .toISOString()
        .slice(
          0,
          10,
        )}, newer than any this version knows). Nothing was changed: start that version or a later one, or restore a backup made by this one.`,
    );
    expect(await tables()).toBe(before);
    expect(await lastAppliedMigration(database.db as never)).toBe(newer);
  });

  it('is migrated as before when it is this version’s or older', async () => {
    const database = await createTestDatabase(kind);
    made.push(database);
    await expect(database.migrate()).resolves.toBeUndefined();
    expect(await lastAppliedMigration(database.db as never)).toBe(knownLastMigration());
  });
});
