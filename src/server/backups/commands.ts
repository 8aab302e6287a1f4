import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import { openDatabase } from '../db/client';
import { secureDataDir } from '../lib/data-dir';
import { BadBackupError, restoreBackup, runningServer, writeBackup } from './service';

/** What the commands print on PostgreSQL, where the database server's own tools do the job. */
export function postgresAdvice(command: 'backup' | 'restore'): string {
  return command === 'backup'
    ? [
        'This install keeps its data in PostgreSQL (DATABASE_URL is set), not in DATA_DIR: back it up with',
        "PostgreSQL's own tool, for example:",
        '  pg_dump --format=custom --file=handyman.dump "$DATABASE_URL"',
      ].join('\n')
    : [
        'This install keeps its data in PostgreSQL (DATABASE_URL is set), not in DATA_DIR: restore a pg_dump',
        "backup with PostgreSQL's own tool while the server is stopped, for example:",
        '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" handyman.dump',
      ].join('\n');
}

/** A failure the command reports in words, with exit code 1 (2 for "use PostgreSQL's tools"). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function refuseWhileRunning(config: Config, what: string) {
  const pid = runningServer(config.DATA_DIR);
  if (pid) {
    throw new CommandError(
      `The server is running on ${config.DATA_DIR} (process ${pid}): stop it first, then ${what}. ` +
        '(While it runs, the back office\'s "Download a backup now" makes a backup.)',
    );
  }
}

const countsLine = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');

/** npm run backup -- FILE: the embedded database into FILE (never the signing key: decision 024). */
export async function backupCommand(config: Config, target: string | undefined): Promise<string> {
  if (config.DATABASE_URL) throw new CommandError(postgresAdvice('backup'), 2);
  if (!target) throw new CommandError('Name the file to write: npm run backup -- FILE (e.g. handyman-backup.tar.gz)');
  refuseWhileRunning(config, 'back up');
  const dbDir = path.join(config.DATA_DIR, 'db');
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) {
    throw new CommandError(
      `There is no database in ${dbDir} to back up (has the server ever started with this DATA_DIR?).`,
    );
  }
  const database = await openDatabase({ dataDir: dbDir });
  try {
    const size = await writeBackup(database, config.DATA_DIR, path.resolve(target));
    return `Backup written to ${path.resolve(target)} (${(size / 1_048_576).toFixed(1)} MB).`;
  } finally {
    await database.close();
    secureDataDir(config.DATA_DIR);
  }
}

/** npm run restore -- FILE: checks FILE, then puts its database in DATA_DIR/db (the old one kept aside). */
export async function restoreCommand(config: Config, source: string | undefined): Promise<string> {
  if (config.DATABASE_URL) throw new CommandError(postgresAdvice('restore'), 2);
  if (!source) throw new CommandError('Name the backup file: npm run restore -- FILE');
  refuseWhileRunning(config, 'restore');
  const file = path.resolve(source);
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new CommandError(`Cannot read ${file}: check the file's name.`);
  }
  try {
    const result = await restoreBackup(file, config.DATA_DIR);
    secureDataDir(config.DATA_DIR);
    return [
      `Restored the backup of ${result.createdAt} into ${path.join(config.DATA_DIR, 'db')}: ${countsLine(result.counts)}.`,
      result.previous ? `The data that was there is kept in ${result.previous}.` : 'DATA_DIR had no database before.',
      'Staff sign in again: sessions are not restored.',
      'Start the server with npm start.',
    ].join('\n');
  } catch (error) {
    if (error instanceof BadBackupError) throw new CommandError(`${error.message} Nothing was changed.`);
    throw error;
  }
}
