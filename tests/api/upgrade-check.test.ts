import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { CommandError, rollbackCommand, snapshotBeforeUpgrade, upgradeCheckCommand } from '../../src/server/backups';
import type { Config } from '../../src/server/config';
import { openDatabase, type Database } from '../../src/server/db/client';
import { checkUpgrade } from '../../src/server/db/upgrade-check';
import { knownLastMigration, lastAppliedMigration } from '../../src/server/db/versions';
import { brokenRelease, previousRelease } from '../helpers/migration-folders';
import { createTestDatabase, dbKinds, withAdmin } from '../helpers/test-db';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-upgrade-check-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What a schema is made of: every column and index, and the migrations applied. */
async function fingerprint(database: Database) {
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;
  return {
    columns: await rows(sql`select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public' order by 1, 2`),
    indexes: await rows(sql`select indexname from pg_indexes where schemaname = 'public' order by 1`),
    applied: await lastAppliedMigration(database.db as never),
  };
}

const kept = async (database: Database) =>
  (
    (await database.db.execute(sql`select full_name from users where id = 'kept-user'`)) as unknown as {
      rows: { full_name: string }[];
    }
  ).rows;

const previous = previousRelease(path.join(tmp, 'previous'));
const broken = brokenRelease(path.join(tmp, 'broken'));

// Issue 32 (decision 034): an upgrade tried and undone (npm run upgrade:check), a migration that fails
// leaves the database as it was, and the way back to the snapshot (npm run rollback).
describe.each(dbKinds)('upgrades that cannot break the business (%s)', (kind) => {
  const opened: { close(): Promise<unknown> }[] = [];
  afterAll(() => Promise.all(opened.map((d) => d.close())));

  /** A new, empty database (nothing migrated) of this kind; on PGlite, in `dataDir` when given. */
  async function emptyDatabase(dataDir = path.join(tmp, `${kind}-${randomBytes(4).toString('hex')}`)) {
    if (kind === 'pglite') {
      const database = await openDatabase({ dataDir });
      opened.push(database);
      return database;
    }
    const name = `hm_test_up_${randomBytes(6).toString('hex')}`;
    const adminUrl = process.env.TEST_DATABASE_URL!;
    await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    opened.push({
      close: async () => {
        await database.close();
        await withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
      },
    });
    return Object.assign(database, { url: url.toString() });
  }

  /** The previous release's database, with a staff account in it. */
  async function previousDatabase(dataDir?: string) {
    const database = await emptyDatabase(dataDir);
    await database.migrate(previous.folder);
    await database.db.execute(sql`insert into users (id, username, password_hash, full_name, team_role)
      values ('kept-user', 'kept', 'x', 'Kept Through Upgrades', 'owner')`);
    return database;
  }

  it('an up-to-date database: the check finds nothing to apply', async () => {
    const current = await createTestDatabase(kind);
    opened.push({ close: () => current.destroy() });
    const check = await checkUpgrade(current);
    expect(check).toMatchObject({ from: knownLastMigration(), to: knownLastMigration(), pending: [], failure: null });
  });

  it('the previous release’s database: the check tries the new migration and undoes it; a broken one fails the start and changes nothing; the good upgrade then succeeds', async () => {
    const database = await previousDatabase();
    const before = await fingerprint(database);

    const check = await checkUpgrade(database);
    expect(check.failure).toBeNull();
    expect(check.pending.map((m) => m.tag)).toEqual([previous.latest]);
    expect(check.pending[0]!.statements.length).toBeGreaterThan(0);
    expect(await fingerprint(database)).toEqual(before);

    // A release whose last migration fails: the check says where and why, and the start fails whole.
    const tried = await checkUpgrade(database, broken.folder);
    expect(tried.pending.map((m) => m.tag)).toEqual([previous.latest, broken.broken]);
    expect(tried.failure).toMatchObject({ tag: broken.broken });
    expect(tried.failure!.message).toContain('no_such_table');
    expect(await fingerprint(database)).toEqual(before);
    await expect(database.migrate(broken.folder)).rejects.toThrow();
    // Not even the good migration before it, nor the broken one's first statement: as it was.
    expect(await fingerprint(database)).toEqual(before);
    expect(await kept(database)).toEqual([{ full_name: 'Kept Through Upgrades' }]);

    await database.migrate();
    expect(await lastAppliedMigration(database.db as never)).toBe(knownLastMigration());
    expect(await kept(database)).toEqual([{ full_name: 'Kept Through Upgrades' }]);
    expect((await checkUpgrade(database)).pending).toEqual([]);
  }, 90_000);

  it('npm run upgrade:check and npm run rollback: a copy tried, the live database untouched; the snapshot put back; the next upgrade succeeds', async () => {
    const dataDir = path.join(tmp, `${kind}-install`);
    const database = await previousDatabase(path.join(dataDir, 'db'));
    const config = {
      DATA_DIR: dataDir,
      DATABASE_URL: kind === 'postgres' ? (database as Database & { url: string }).url : undefined,
    } as Config;
    const before = await fingerprint(database);
    if (kind === 'pglite') await database.close();

    const report = await upgradeCheckCommand(config);
    expect(report).toContain(`the next start would apply 1:`);
    expect(report).toContain(previous.latest);
    expect(report).toContain('nothing was changed');
    if (kind === 'pglite') {
      // Tried on a copy, which is gone; the live database is as it was.
      expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('upgrade-check-'))).toEqual([]);
    }

    // The upgrade: a snapshot first (as main.ts takes it), then the migrations.
    const live = kind === 'pglite' ? await openDatabase({ dataDir: path.join(dataDir, 'db') }) : database;
    if (kind === 'pglite') opened.push(live);
    if (kind === 'pglite') expect(await fingerprint(live)).toEqual(before);
    const snapshot = await snapshotBeforeUpgrade(live, {
      dataDir,
      databaseUrl: config.DATABASE_URL,
      required: false,
    });
    await live.migrate();
    expect(await lastAppliedMigration(live.db as never)).toBe(knownLastMigration());

    if (kind === 'postgres') {
      // PostgreSQL's own tools put it back: the exact lines, naming this snapshot (exit code 2).
      if (!snapshot || 'skipped' in snapshot) return; // no pg_dump on this machine: nothing to name
      const advice = await rollbackCommand(config, undefined).catch((error: unknown) => error);
      expect(advice).toBeInstanceOf(CommandError);
      expect((advice as CommandError).exitCode).toBe(2);
      expect((advice as CommandError).message).toContain(
        `pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" ${snapshot.file}`,
      );
      return;
    }
    await live.close();
    const said = await rollbackCommand(config, undefined);
    expect(said).toMatch(/^Rolled back: the database is as it was before handyman \S+ upgraded it on /);
    const back = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    opened.push(back);
    expect(await fingerprint(back)).toEqual(before);
    expect(await kept(back)).toEqual([{ full_name: 'Kept Through Upgrades' }]);
    await back.migrate();
    expect(await lastAppliedMigration(back.db as never)).toBe(knownLastMigration());
    await back.close();
    // Up to date now: the check says so.
    expect(await upgradeCheckCommand(config)).toContain('is up to date');
  }, 120_000);
});
