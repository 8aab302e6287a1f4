import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshotBeforeUpgrade, SnapshotError } from '../../src/server/backups';
import { restoreBackup } from '../../src/server/backups/service';
import { openDatabase } from '../../src/server/db/client';
import { knownLastMigration, lastAppliedMigration } from '../../src/server/db/versions';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-upgrade-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A database as the previous release left it, as far as the snapshot can tell: its newest migration not yet applied. */
async function olderDatabase(database: TestDatabase): Promise<number> {
  await database.db.execute(
    sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
  );
  return lastAppliedMigration(database.db as never);
}

// Issue 32: before the migrations of an upgrade are applied, the database is saved beside DATA_DIR's
// backups with a record of the version it came from.
describe.each(dbKinds)('a snapshot before an upgrade (%s)', (kind) => {
  const made: TestDatabase[] = [];
  afterAll(() => Promise.all(made.map((d) => d.destroy())));
  const database = async () => {
    const d = await createTestDatabase(kind, kind === 'pglite' ? { dataDir: path.join(tmp, `db-${made.length}`) } : {});
    made.push(d);
    return d;
  };

  it('is not taken when there is nothing to upgrade', async () => {
    const current = await database();
    const dataDir = path.join(tmp, `${kind}-none`);
    expect(await snapshotBeforeUpgrade(current, { dataDir, databaseUrl: current.url, required: true })).toBeNull();
    expect(fs.existsSync(path.join(dataDir, 'backups'))).toBe(false);
  });

  it('saves the database and which version it came from, in DATA_DIR/backups', async () => {
    const older = await database();
    await older.db.execute(sql`insert into users (id, username, password_hash, full_name, team_role)
      values ('kept-user', 'kept', 'x', 'Kept Before The Upgrade', 'owner')`);
    const from = await olderDatabase(older);
    const dataDir = path.join(tmp, `${kind}-upgrade`);
    const now = new Date('2026-11-25T17:30:00Z');
    const snapshot = await snapshotBeforeUpgrade(older, { dataDir, databaseUrl: older.url, required: true, now });
    expect(snapshot).not.toBeNull();
    expect('skipped' in snapshot!).toBe(false);
    const taken = snapshot as { file: string; record: string };
    expect(taken.file).toBe(
      path.join(dataDir, 'backups', `before-upgrade-2026-11-25T17-30-00.${kind === 'pglite' ? 'tar.gz' : 'dump'}`),
    );
    expect(JSON.parse(fs.readFileSync(taken.record, 'utf8'))).toMatchObject({
      snapshot: path.basename(taken.file),
      database: kind,
      fromMigration: new Date(from).toISOString(),
      toMigration: new Date(knownLastMigration()).toISOString(),
      takenAt: now.toISOString(),
    });
    expect(fs.statSync(taken.file).mode & 0o077).toBe(0);

    // The snapshot holds the database as it was: its data, and the version it came from.
    if (kind === 'pglite') {
      const restored = await restoreBackup(taken.file, path.join(tmp, 'restored'));
      expect(restored.counts.users).toBeGreaterThanOrEqual(1);
      const reopened = await openDatabase({ dataDir: path.join(tmp, 'restored', 'db') });
      try {
        expect(await lastAppliedMigration(reopened.db as never)).toBe(from);
        const users = (await reopened.db.execute(
          sql`select full_name from users where id = 'kept-user'`,
        )) as unknown as {
          rows: { full_name: string }[];
        };
        expect(users.rows).toEqual([{ full_name: 'Kept Before The Upgrade' }]);
      } finally {
        await reopened.close();
      }
    } else {
      const listed = spawnSync('pg_restore', ['--list', taken.file], { encoding: 'utf8' });
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/TABLE DATA public users/);
      expect(listed.stdout).toMatch(/TABLE DATA drizzle __drizzle_migrations/);
    }
  });

  it.runIf(kind === 'postgres')(
    'without pg_dump on the PATH: goes on with a warning, or refuses when a snapshot is required',
    async () => {
      const older = await database();
      await olderDatabase(older);
      const dataDir = path.join(tmp, 'no-pg-dump');
      const path_ = process.env.PATH;
      process.env.PATH = path.join(tmp, 'nothing-here');
      try {
        expect(await snapshotBeforeUpgrade(older, { dataDir, databaseUrl: older.url, required: false })).toEqual({
          skipped: 'pg_dump is not on the PATH',
        });
        const refused = await snapshotBeforeUpgrade(older, { dataDir, databaseUrl: older.url, required: true }).catch(
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(SnapshotError);
        expect((refused as Error).message).toContain('pg_dump is not on the PATH');
        expect((refused as Error).message).toContain('nothing was changed');
      } finally {
        process.env.PATH = path_;
      }
      expect(fs.readdirSync(path.join(dataDir, 'backups'))).toEqual([]);
    },
  );
});
