import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client';
import { openDatabase } from '../db/client';
import { knownLastMigration, lastAppliedMigration } from '../db/versions';
import { recordAudit } from '../audit';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BadBackupError,
  backupStream,
  unpackBackup,
  type BackupManifest,
} from './archive';
import { backupDue } from '#shared/backup-schedule';

/** The tables whose rows a backup's manifest counts, and a restore prints. */
const COUNTED = [
  'users',
  'clients',
  'quote_requests',
  'quote_request_images',
  'quotes',
  'jobs',
  'visits',
  'job_photos',
  'invoices',
  'payments',
  'mail_outbox',
  'audit_log',
] as const;

async function tableCounts(db: DbOrTx): Promise<Record<string, number>> {
  const parts = COUNTED.map((t) => `select '${t}' as t, count(*)::int as n from ${t}`).join(' union all ');
  const result = (await db.execute(sql.raw(parts))) as { rows: { t: string; n: number }[] };
  return Object.fromEntries(result.rows.map((r) => [r.t, Number(r.n)]));
}

/** Where a backup's copy of the database waits while it is sent: DATA_DIR/backups/.copy-PID-…. */
const COPY = /^\.copy-(\d+)-[0-9a-f]+$/;

/** Copies left by a process that died mid-backup (their process is gone) are removed. */
function removeStaleCopies(dir: string) {
  if (!fs.existsSync(dir)) return;
  for (const name of fs.readdirSync(dir)) {
    const pid = Number(COPY.exec(name)?.[1]);
    if (!pid) continue;
    let alive = pid === process.pid;
    try {
      if (!alive) process.kill(pid, 0);
      alive = true;
    } catch (error) {
      alive = (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * A whole backup of the embedded database as a .tar.gz stream (decision 024): the database's files
 * are copied on disk between transactions, then read as the stream is consumed, and the copy removed
 * when it ends (or fails, or the download is cut). Neither the signing key nor any session goes in.
 */
export async function takeBackup(database: Database, dataDir: string): Promise<Readable> {
  if (!database.copyDataDir) throw new Error('Backups are taken of the embedded database only; use pg_dump.');
  const counts = await tableCounts(database.db);
  const lastMigrationAt = await lastAppliedMigration(database.db as never);
  const dir = backupsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeStaleCopies(dir);
  const copy = path.join(dir, `.copy-${process.pid}-${randomBytes(6).toString('hex')}`);
  const removeCopy = () => fs.rmSync(copy, { recursive: true, force: true });
  try {
    await database.copyDataDir(copy);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      lastMigrationAt,
      counts,
    };
    const stream = backupStream(manifest, copy);
    stream.once('close', removeCopy);
    return stream;
  } catch (error) {
    removeCopy();
    throw error;
  }
}

/** A backup written to `file` whole or not at all; returns its size in bytes. */
export async function writeBackup(database: Database, dataDir: string, file: string): Promise<number> {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.partial-${process.pid}`;
  try {
    await pipeline(await takeBackup(database, dataDir), fs.createWriteStream(temporary, { mode: 0o600 }));
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return fs.statSync(file).size;
}

const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');
const NAME = /^backup-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\.tar\.gz$/;

/** The file name a backup taken at this moment gets: sortable, and safe on every file system. */
export const backupFileName = (at: Date) => `backup-${at.toISOString().slice(0, 19).replaceAll(':', '-')}Z.tar.gz`;

export interface BackupFile {
  name: string;
  size: number;
  createdAt: string;
}

/** The automatic backups in DATA_DIR/backups, newest first. */
export function listBackups(dataDir: string): BackupFile[] {
  const dir = backupsDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => NAME.test(name))
    .sort()
    .reverse()
    .map((name) => {
      const stamp = NAME.exec(name)![1]!;
      const createdAt = new Date(`${stamp.slice(0, 10)}T${stamp.slice(11).replaceAll('-', ':')}`).toISOString();
      return { name, size: fs.statSync(path.join(dir, name)).size, createdAt };
    });
}

/** Keeps the newest `keep` backups and removes the rest; returns what it removed. */
export function pruneBackups(dataDir: string, keep: number): string[] {
  const old = listBackups(dataDir).slice(keep);
  for (const file of old) fs.rmSync(path.join(backupsDir(dataDir), file.name), { force: true });
  return old.map((f) => f.name);
}

/**
 * The daily backup: taken when due (`backupDue`: in the business's night, or once `everyHours` have
 * passed), then the oldest beyond `keep` removed. Returns the file written, or null when none was due.
 */
export async function backupIfDue(
  database: Database,
  dataDir: string,
  options: { everyHours: number; keep: number; timeZone: string; now?: Date },
): Promise<string | null> {
  const now = options.now ?? new Date();
  const newest = listBackups(dataDir)[0];
  if (!backupDue(newest ? new Date(newest.createdAt) : null, now, options.everyHours, options.timeZone)) return null;
  const file = path.join(backupsDir(dataDir), backupFileName(now));
  await writeBackup(database, dataDir, file);
  pruneBackups(dataDir, options.keep);
  return file;
}

/** The server writes its process id here while it runs, so the commands refuse to work under it. */
const pidFile = (dataDir: string) => path.join(dataDir, 'server.pid');

export function markServerRunning(dataDir: string): () => void {
  fs.writeFileSync(pidFile(dataDir), String(process.pid), { mode: 0o600 });
  return () => fs.rmSync(pidFile(dataDir), { force: true });
}

/** The id of a server process still running on this DATA_DIR, if any (a stale file after a crash is not). */
export function runningServer(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export interface RestoreResult {
  counts: Record<string, number>;
  createdAt: string;
  /** Where the data folder that was there before now is (null when there was none). */
  previous: string | null;
}

/**
 * Restores a backup file into DATA_DIR: unpacks it (bounded: see unpackBackup) and opens the database
 * in a folder beside the live one before touching anything; then moves the live folder aside (kept)
 * and puts the restored one in its place. Every session in it is ended (staff sign in again), and the
 * signing key stays the install's own (decision 024): on the same install, links already e-mailed to
 * clients keep working; on a new one they do only if its key (DATA_DIR/secrets or JWT_SECRET) is the
 * old one, copied by hand.
 */
export async function restoreBackup(file: string, dataDir: string, now = new Date()): Promise<RestoreResult> {
  const stamp = now.toISOString().slice(0, 19).replaceAll(':', '-');
  const live = path.join(dataDir, 'db');
  const staged = path.join(dataDir, `db.restoring-${stamp}`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.rmSync(staged, { recursive: true, force: true });
  let counts: Record<string, number>;
  let manifest: BackupManifest;
  try {
    manifest = await unpackBackup(file, staged);
    if (manifest.lastMigrationAt > knownLastMigration()) {
      throw new BadBackupError(
        'This backup was made by a newer version of the product: update it first, then restore.',
      );
    }
    const database = await openDatabase({ dataDir: staged });
    try {
      counts = await tableCounts(database.db);
      // Sign-ins do not survive a restore: whoever held a session when the backup was taken signs in again.
      await database.db.execute(sql`delete from sessions`);
      // The restored trail says it was restored, by whom on this machine, and from which backup.
      await recordAudit(database.db, {
        userId: null,
        actorName: `${os.userInfo().username} (npm run restore)`,
        ip: os.hostname(),
        kind: 'data',
        action: 'Restored a backup',
        route: 'npm run restore',
        details: { backupTakenAt: manifest.createdAt },
      });
    } finally {
      await database.close();
    }
  } catch (error) {
    fs.rmSync(staged, { recursive: true, force: true });
    if (error instanceof BadBackupError) throw error;
    throw new BadBackupError('The database in this backup cannot be opened: the file is damaged or incomplete.');
  }
  let previous: string | null = null;
  if (fs.existsSync(live)) {
    previous = path.join(dataDir, `db.before-restore-${stamp}`);
    fs.renameSync(live, previous);
  }
  fs.renameSync(staged, live);
  return { counts, createdAt: manifest.createdAt, previous };
}

export { BadBackupError };

/** What the System page shows of the automatic backups (decision 039). */
export type BackupState =
  { kind: 'postgres' } | { kind: 'pglite'; everyHours: number; kept: number; last: { at: Date; size: number } | null };

export function backupState(kind: 'pglite' | 'postgres', dataDir: string, everyHours: number): BackupState {
  if (kind === 'postgres') return { kind };
  const kept = listBackups(dataDir);
  const newest = kept[0];
  return {
    kind,
    everyHours,
    kept: kept.length,
    last: newest ? { at: new Date(newest.createdAt), size: newest.size } : null,
  };
}
