import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/client';
import { knownLastMigration, lastAppliedMigration, repairMigrationTimes } from '../db/versions';
import { projectRoot } from '../paths';
import { writeBackup } from './service';

/** What an upgrade starts from and goes to: the newest migration applied, and the newest the code knows. */
export interface PendingUpgrade {
  from: number;
  to: number;
}

/** The upgrade this start would apply, or null when there is none (or the database is new and empty). */
export async function pendingUpgrade(database: Database): Promise<PendingUpgrade | null> {
  await repairMigrationTimes(database.db as never);
  const from = await lastAppliedMigration(database.db as never);
  const to = knownLastMigration();
  return from > 0 && from < to ? { from, to } : null;
}

export interface Snapshot {
  /** The file the database was saved to (a backup of the embedded database, or a pg_dump archive). */
  file: string;
  /** Beside it: which version it came from and went to, for a person and for a rollback. */
  record: string;
}

export class SnapshotError extends Error {}

const stamp = (at: Date) => at.toISOString().slice(0, 19).replaceAll(':', '-');
const appVersion = () =>
  (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** `pg_dump --format=custom` of the database at `url` into `file`; rejects with what pg_dump said. */
function pgDump(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${url}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new SnapshotError(`pg_dump stopped with code ${code}: ${said.trim()}`)),
    );
  });
}

/**
 * Saves the database before its migrations are applied (issue 32), into DATA_DIR/backups as
 * `before-upgrade-<time>`: the embedded database as the backup it already knows how to make, PostgreSQL
 * with `pg_dump --format=custom`. Without pg_dump on the PATH it says so and goes on, unless `required`.
 * Returns null when there is nothing to upgrade.
 */
export async function snapshotBeforeUpgrade(
  database: Database,
  options: { dataDir: string; databaseUrl?: string | undefined; required: boolean; now?: Date },
): Promise<(Snapshot & PendingUpgrade) | { skipped: string } | null> {
  const upgrade = await pendingUpgrade(database);
  if (!upgrade) return null;
  const dir = path.join(options.dataDir, 'backups');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const base = path.join(dir, `before-upgrade-${stamp(options.now ?? new Date())}`);
  let file: string;
  if (database.kind === 'pglite') {
    file = `${base}.tar.gz`;
    await writeBackup(database, options.dataDir, file);
  } else {
    file = `${base}.dump`;
    // Made for the server's account only before pg_dump writes into it (it keeps the file's mode).
    fs.writeFileSync(file, '', { mode: 0o600 });
    try {
      await pgDump(options.databaseUrl!, file);
    } catch (error) {
      fs.rmSync(file, { force: true });
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      const why = missing ? 'pg_dump is not on the PATH' : (error as Error).message;
      if (options.required)
        throw new SnapshotError(
          `No snapshot could be taken before the upgrade (${why}), and UPGRADE_SNAPSHOT_REQUIRED is set: nothing was changed. Install PostgreSQL's client tools or take a backup by hand, then unset it.`,
        );
      return { skipped: why };
    }
  }
  const record = `${base}.json`;
  fs.writeFileSync(
    record,
    JSON.stringify(
      {
        snapshot: path.basename(file),
        database: database.kind,
        upgradedBy: `handyman ${appVersion()}`,
        fromMigration: new Date(upgrade.from).toISOString(),
        toMigration: new Date(upgrade.to).toISOString(),
        takenAt: (options.now ?? new Date()).toISOString(),
      },
      null,
      2,
    ),
    { mode: 0o600 },
  );
  return { file, record, ...upgrade };
}
