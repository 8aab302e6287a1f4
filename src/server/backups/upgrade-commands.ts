import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { openDatabase } from '../db/client';
import { checkUpgrade, describeUpgradeCheck } from '../db/upgrade-check';
import { secureDataDir } from '../lib/data-dir';
import { CommandError, restoreCommand } from './commands';
import { runningServer } from './service';

// npm run upgrade:check and npm run rollback (issue 32, decision 034): what the next start would do to
// the database, tried and undone; and the way back to the snapshot taken before the last upgrade.

/** The record written beside a snapshot before an upgrade (before-upgrade.ts). */
interface SnapshotRecord {
  snapshot: string;
  database: 'pglite' | 'postgres';
  upgradedBy: string;
  fromMigration: string;
  toMigration: string;
  takenAt: string;
}

/**
 * npm run upgrade:check: the migrations this version would apply at its next start, applied in a
 * transaction and undone. The embedded database is tried on a copy (the server stopped, as for a
 * backup); PostgreSQL in a transaction on the database itself, rolled back (its locks are held while
 * it runs: a quiet hour is best). Throws a CommandError with the report when a migration fails.
 */
export async function upgradeCheckCommand(config: Config): Promise<string> {
  if (config.DATABASE_URL) {
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: '' });
    try {
      return report(await checkUpgrade(database), 'The PostgreSQL database (DATABASE_URL)');
    } finally {
      await database.close();
    }
  }
  const live = path.join(config.DATA_DIR, 'db');
  if (!fs.existsSync(path.join(live, 'PG_VERSION')))
    return `There is no database in ${live} yet: the first start creates it.`;
  const pid = runningServer(config.DATA_DIR);
  if (pid)
    throw new CommandError(
      `The server is running on ${config.DATA_DIR} (process ${pid}): stop it first, then check the upgrade (it tries the migrations on a copy of the database).`,
    );
  const copy = fs.mkdtempSync(path.join(config.DATA_DIR, 'upgrade-check-'));
  try {
    fs.cpSync(live, copy, { recursive: true });
    const database = await openDatabase({ dataDir: copy });
    try {
      return report(await checkUpgrade(database), `The embedded database in ${live}`);
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
    secureDataDir(config.DATA_DIR);
  }
}

function report(check: Awaited<ReturnType<typeof checkUpgrade>>, where: string): string {
  const text = describeUpgradeCheck(check, where);
  if (check.failure) throw new CommandError(text);
  return text;
}

/** The snapshots taken before upgrades, newest first (their records' names carry the time). */
function snapshotRecords(dataDir: string): string[] {
  const dir = path.join(dataDir, 'backups');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /^before-upgrade-.+\.json$/.test(name))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name));
}

/** The record of the snapshot named (its record, its file, or its name without ending), or of the newest. */
function findSnapshot(config: Config, which: string | undefined): { record: SnapshotRecord; file: string } {
  const records = snapshotRecords(config.DATA_DIR);
  let recordFile: string | undefined;
  if (which) {
    const base = path.resolve(which).replace(/\.(json|tar\.gz|dump)$/, '');
    recordFile = `${base}.json`;
    if (!fs.existsSync(recordFile))
      throw new CommandError(`There is no snapshot record ${recordFile}. The snapshots here: ${listed(records)}`);
  } else {
    recordFile = records[0];
    if (!recordFile)
      throw new CommandError(
        `No snapshot was taken before an upgrade in ${path.join(config.DATA_DIR, 'backups')}: there is nothing to roll back to.`,
      );
  }
  const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as SnapshotRecord;
  const file = path.join(path.dirname(recordFile), record.snapshot);
  if (!fs.existsSync(file)) throw new CommandError(`The snapshot ${file} that ${recordFile} names is missing.`);
  return { record, file };
}

const listed = (records: string[]) => (records.length ? records.map((r) => path.basename(r)).join(', ') : 'none');

/**
 * npm run rollback -- [SNAPSHOT]: the database as it was before the last upgrade (or the one named),
 * with the server stopped. The embedded database is restored from the snapshot as `npm run restore`
 * does (the upgraded one kept aside); on PostgreSQL the exact commands are printed (exit code 2), as
 * for restore: PostgreSQL's own tools do it.
 */
export async function rollbackCommand(config: Config, which: string | undefined): Promise<string> {
  const { record, file } = findSnapshot(config, which);
  const kind = config.DATABASE_URL ? 'postgres' : 'pglite';
  if (record.database !== kind)
    throw new CommandError(
      `${path.basename(file)} is a snapshot of ${record.database === 'pglite' ? 'the embedded database' : 'PostgreSQL'}, and this install now runs on ${kind === 'pglite' ? 'the embedded database' : 'PostgreSQL (DATABASE_URL)'}: nothing was changed.`,
    );
  const when = `before ${record.upgradedBy} upgraded it on ${record.takenAt.slice(0, 16).replace('T', ' ')} UTC`;
  if (kind === 'postgres')
    throw new CommandError(
      [
        `To put the PostgreSQL database back as it was ${when}, with the server stopped:`,
        '  1. keep what is there now:',
        '     pg_dump --format=custom --file=after-upgrade.dump "$DATABASE_URL"',
        '  2. empty the database (its tables, and the record of its migrations):',
        `     psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -c 'drop schema if exists drizzle cascade' -c 'drop schema public cascade' -c 'create schema public'`,
        '  3. restore the snapshot:',
        `     pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" ${file}`,
        'Then start the version that ran before the upgrade, or this one once what stopped the upgrade is fixed.',
      ].join('\n'),
      2,
    );
  const restored = await restoreCommand(config, file);
  return [
    `Rolled back: the database is as it was ${when}.`,
    restored,
    'Starting this version again upgrades it again: start the version that ran before, or this one once what stopped the upgrade is fixed.',
  ].join('\n');
}
