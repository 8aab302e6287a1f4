import { constants } from 'node:buffer';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import tar from 'tar-stream';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

export const BACKUP_FORMAT = 'handyman-backup';
export const BACKUP_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The last migration applied to the database in it (its journal time), to refuse a newer backup. */
  lastMigrationAt: number;
  /** Rows per table when it was taken: what the restore prints and checks. */
  counts: Record<string, number>;
}

export interface BackupContents {
  manifest: BackupManifest;
  /** PGlite's data directory as a tar (its dumpDataDir). */
  database: Buffer;
  /** The generated signing key, so links already e-mailed to clients keep working after a restore. */
  signingKey: Buffer | null;
}

/** A clear refusal of a file that is not a backup this version can restore; nothing was touched. */
export class BadBackupError extends Error {}

/**
 * One .tar.gz holding manifest.json, database.tar and, when the key was generated here,
 * secrets/jwt-secret. Any tar tool can open it.
 */
export async function packBackup(contents: BackupContents): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  const add = (name: string, data: Buffer) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name, size: data.length, mode: 0o600, mtime: new Date() }, data, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  await add('manifest.json', Buffer.from(JSON.stringify(contents.manifest, null, 2)));
  await add('database.tar', contents.database);
  if (contents.signingKey) await add('secrets/jwt-secret', contents.signingKey);
  pack.finalize();
  await ended;
  return gzip(Buffer.concat(chunks));
}

/** The largest uncompressed backup read: as much as a Buffer holds. */
const LIMIT_BYTES = constants.MAX_LENGTH;

/** Reads a backup file's parts and checks its manifest; a BadBackupError says what is wrong. */
export async function unpackBackup(file: Buffer): Promise<BackupContents> {
  if (file.length < 2 || file[0] !== 0x1f || file[1] !== 0x8b) {
    throw new BadBackupError('This is not a backup file (it is not a .tar.gz made by "npm run backup").');
  }
  let raw: Buffer;
  try {
    raw = await gunzip(file, { maxOutputLength: LIMIT_BYTES });
  } catch {
    throw new BadBackupError('This backup file is damaged: it cannot be uncompressed (was it copied completely?).');
  }
  const entries = new Map<string, Buffer>();
  try {
    const extract = tar.extract();
    const done = new Promise<void>((resolve, reject) => {
      extract.on('entry', (header, stream, next) => {
        const parts: Buffer[] = [];
        stream.on('data', (chunk) => parts.push(chunk as Buffer));
        stream.on('end', () => {
          entries.set(header.name, Buffer.concat(parts));
          next();
        });
        stream.resume();
      });
      extract.on('finish', resolve);
      extract.on('error', reject);
    });
    Readable.from([raw]).pipe(extract);
    await done;
  } catch {
    throw new BadBackupError('This backup file is damaged: its contents cannot be read.');
  }
  const manifestText = entries.get('manifest.json');
  const database = entries.get('database.tar');
  if (!manifestText || !database)
    throw new BadBackupError('This .tar.gz is not a backup of this product (no manifest.json or database.tar).');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText.toString('utf8')) as BackupManifest;
  } catch {
    throw new BadBackupError('This backup file is damaged: its manifest.json is not JSON.');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BadBackupError('This .tar.gz is not a backup of this product.');
  if (manifest.version !== BACKUP_VERSION) {
    throw new BadBackupError(
      `This backup has format version ${manifest.version}; this version reads ${BACKUP_VERSION}.`,
    );
  }
  return { manifest, database, signingKey: entries.get('secrets/jwt-secret') ?? null };
}
