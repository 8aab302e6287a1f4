import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline, Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';

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

/** A clear refusal of a file that is not a backup this version can restore; nothing was touched. */
export class BadBackupError extends Error {}

/** What a backup's database folder holds, in the order it is written: folders before their files. */
interface FolderEntry {
  name: string;
  type: 'directory' | 'file';
  size: number;
  mode: number;
  mtime: Date;
}

function walk(root: string): FolderEntry[] {
  const out: FolderEntry[] = [];
  const visit = (relative: string) => {
    for (const name of fs.readdirSync(path.join(root, relative)).sort()) {
      const rel = relative ? `${relative}/${name}` : name;
      const stat = fs.lstatSync(path.join(root, rel));
      if (stat.isDirectory()) {
        out.push({ name: rel, type: 'directory', size: 0, mode: 0o700, mtime: stat.mtime });
        visit(rel);
      } else if (stat.isFile()) {
        out.push({ name: rel, type: 'file', size: stat.size, mode: 0o600, mtime: stat.mtime });
      }
    }
  };
  visit('');
  return out;
}

const BLOCK = 512;
const padded = (size: number) => Math.ceil(size / BLOCK) * BLOCK;

/** The exact length of the tar tar-stream writes for these entries (a header each, the data padded, the end). */
function tarLength(entries: FolderEntry[]): number {
  for (const e of entries) {
    // Longer names would take a pax header of their own; a database's files are far shorter.
    if (Buffer.byteLength(e.name) >= 100) throw new Error(`A file name in the database is too long: ${e.name}`);
  }
  return entries.reduce((sum, e) => sum + BLOCK + padded(e.size), 0) + 2 * BLOCK;
}

async function write(
  sink: NodeJS.WritableStream & { write(chunk: Buffer): boolean },
  chunk: Buffer,
  signal?: AbortSignal,
) {
  if (!sink.write(chunk)) await once(sink as never, 'drain', signal ? { signal } : {});
}

/** An entry of a pack with its bytes from `source`, finished when the pack has taken it all. */
async function addEntry(
  pack: tar.Pack,
  header: Partial<tar.Header> & { name: string },
  source: AsyncIterable<Buffer> | Buffer | null,
  signal?: AbortSignal,
): Promise<void> {
  let settle!: (error?: Error | null) => void;
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  const sized = Buffer.isBuffer(source) ? { ...header, size: source.length } : header;
  const entry = pack.entry(sized, (error) => settle(error)) as unknown as NodeJS.WritableStream & {
    write(chunk: Buffer): boolean;
  };
  entry.on('error', (error: Error) => settle(error));
  if (Buffer.isBuffer(source)) entry.write(source);
  else if (source) for await (const chunk of source) await write(entry, chunk, signal);
  entry.end();
  await finished;
}

const SMALL_FILE = 1_048_576;

/** The database folder as a tar, read from disk as it is sent (folders first, then each file). */
function folderTar(root: string, entries: FolderEntry[], signal: AbortSignal): tar.Pack {
  const pack = tar.pack();
  void (async () => {
    try {
      for (const e of entries) {
        const header = { name: e.name, type: e.type, size: e.size, mode: e.mode, mtime: e.mtime };
        signal.throwIfAborted();
        const file = path.join(root, e.name);
        // Most of a database's files are a few pages: read at once; big ones (photos' tables) streamed.
        const source =
          e.type !== 'file'
            ? null
            : e.size <= SMALL_FILE
              ? await fs.promises.readFile(file)
              : fs.createReadStream(file);
        if (Buffer.isBuffer(source) && source.length !== e.size) throw new Error(`${e.name} changed while it was read`);
        await addEntry(pack, header, source, signal);
      }
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
    }
  })();
  return pack;
}

/**
 * A backup as a stream: one .tar.gz holding manifest.json and database.tar (the database folder
 * `folder` as a tar), written as it is read, so a backup of any size takes little memory. Any tar
 * tool can open it. The signing key is not in it (decision 024): a backup is not a key to the site.
 */
export function backupStream(manifest: BackupManifest, folder: string): Readable {
  const entries = walk(folder);
  const databaseLength = tarLength(entries);
  const pack = tar.pack();
  // A download cut half-way stops the reading (and closes the files) rather than waiting forever.
  const abort = new AbortController();
  void (async () => {
    try {
      await addEntry(
        pack,
        { name: 'manifest.json', mode: 0o600, mtime: new Date() },
        Buffer.from(JSON.stringify(manifest, null, 2)),
      );
      await addEntry(
        pack,
        { name: 'database.tar', size: databaseLength, mode: 0o600, mtime: new Date() },
        folderTar(folder, entries, abort.signal) as unknown as AsyncIterable<Buffer>,
        abort.signal,
      );
      pack.finalize();
    } catch (error) {
      pack.destroy(error as Error);
    }
  })();
  const source = Readable.from(pack as unknown as AsyncIterable<Buffer>);
  const out = source.pipe(zlib.createGzip());
  source.on('error', (error) => out.destroy(error));
  out.once('close', () => {
    abort.abort();
    source.destroy();
  });
  return out;
}

/** What a restore lets a backup unpack to: a PostgreSQL folder has a few thousand files. */
export const RESTORE_LIMITS = {
  /** Files and folders in the database. */
  entries: 20_000,
  /** Unpacked bytes per packed byte, beyond the floor: photos do not compress, zeros do (1,000 to 1). */
  ratio: 50,
  /** Any backup may unpack to this much, whatever its size. */
  floorBytes: 1024 ** 3,
} as const;

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

/** A database folder entry's path inside `root`, or null when it is not a plain relative path. */
function safePath(root: string, name: string): string | null {
  const clean = name.replace(/^(\.?\/)+/, '').replace(/\/+$/, '');
  if (!clean || clean.includes('\0') || clean.split('/').some((part) => part === '..' || part === '')) return null;
  const target = path.resolve(root, clean);
  return target.startsWith(path.resolve(root) + path.sep) ? target : null;
}

/**
 * Unpacks a backup file into `folder` (a new folder) and returns its manifest; a BadBackupError says
 * what is wrong. It reads the file as a stream and stops, with a clear refusal, as soon as the
 * unpacked bytes pass what a backup of this size can hold (or the disk's free space), or the files
 * pass RESTORE_LIMITS.entries: a small crafted file can neither fill the memory nor the disk.
 */
export async function unpackBackup(file: string, folder: string): Promise<BackupManifest> {
  const handle = fs.openSync(file, 'r');
  const magic = Buffer.alloc(2);
  const read = fs.readSync(handle, magic, 0, 2, 0);
  const packedBytes = fs.fstatSync(handle).size;
  fs.closeSync(handle);
  if (read < 2 || magic[0] !== 0x1f || magic[1] !== 0x8b) {
    throw new BadBackupError('This is not a backup file (it is not a .tar.gz made by "npm run backup").');
  }
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const free = (() => {
    try {
      const s = fs.statfsSync(folder);
      return s.bavail * s.bsize;
    } catch {
      return Infinity;
    }
  })();
  const limit = Math.min(Math.max(RESTORE_LIMITS.floorBytes, packedBytes * RESTORE_LIMITS.ratio), free);
  let unpacked = 0;
  let refusal: BadBackupError | null = null;
  const refuse = (error: BadBackupError) => {
    refusal ??= error;
    return error;
  };
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      unpacked += chunk.length;
      if (unpacked > limit) {
        callback(
          refuse(
            new BadBackupError(
              limit === free
                ? `This backup unpacks to more than the ${gb(free)} free on this disk: free some space, then restore.`
                : `This backup unpacks to more than ${gb(limit)}, more than a backup file of ${(packedBytes / 1_048_576).toFixed(1)} MB can hold: it is damaged or was made to harm. Refused.`,
            ),
          ),
        );
      } else callback(null, chunk);
    },
  });

  let manifestText: string | null = null;
  let sawDatabase = false;
  let files = 0;
  const writeDatabase = (stream: Readable) =>
    new Promise<void>((resolve, reject) => {
      const inner = tar.extract();
      inner.on('entry', (header, entry, next) => {
        void (async () => {
          if (++files > RESTORE_LIMITS.entries) {
            throw refuse(
              new BadBackupError(
                `This backup holds more than ${RESTORE_LIMITS.entries.toLocaleString('en-US')} files: it is not a backup of this product. Refused.`,
              ),
            );
          }
          const target = safePath(folder, header.name);
          if (!target || (header.type !== 'file' && header.type !== 'directory')) {
            throw refuse(new BadBackupError('This backup is damaged: its database holds a file it may not write.'));
          }
          if (header.type === 'directory') {
            fs.mkdirSync(target, { recursive: true, mode: 0o700 });
            entry.resume();
            await once(entry, 'end');
          } else {
            fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
            const out = fs.createWriteStream(target, { mode: 0o600 });
            for await (const chunk of entry as AsyncIterable<Buffer>) await write(out, chunk);
            out.end();
            await once(out, 'close');
          }
        })().then(
          () => next(),
          (error: unknown) => next(error as Error),
        );
      });
      inner.on('finish', resolve);
      inner.on('error', reject);
      stream.on('error', reject);
      stream.pipe(inner as never);
    });

  let source: Transform | undefined;
  try {
    const outer = tar.extract();
    const done = new Promise<void>((resolve, reject) => {
      let entries = 0;
      outer.on('entry', (header, stream, next) => {
        void (async () => {
          if (++entries > 16) throw refuse(new BadBackupError('This .tar.gz is not a backup of this product.'));
          if (header.name === 'manifest.json' && (header.size ?? 0) <= 1_048_576) {
            const parts: Buffer[] = [];
            for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(chunk);
            manifestText = Buffer.concat(parts).toString('utf8');
            checkManifest(manifestText);
          } else if (header.name === 'database.tar' && !sawDatabase) {
            if (manifestText === null)
              throw refuse(new BadBackupError('This .tar.gz is not a backup of this product.'));
            sawDatabase = true;
            await writeDatabase(stream as unknown as Readable);
          } else {
            // Anything else (the signing key older versions put in) is read past, never written.
            stream.resume();
            await once(stream, 'end');
          }
        })().then(
          () => next(),
          (error: unknown) => next(error as Error),
        );
      });
      outer.on('finish', resolve);
      outer.on('error', reject);
    });
    source = pipeline(fs.createReadStream(file), zlib.createGunzip(), counter, (error) => {
      if (error) outer.destroy(error);
    });
    source.pipe(outer as never);
    await done;
  } catch (error) {
    source?.destroy();
    if (refusal) throw refusal;
    if (error instanceof BadBackupError) throw error;
    const text = String((error as Error).message ?? '');
    throw new BadBackupError(
      /unexpected end|incorrect header|invalid|zlib|gzip/i.test(text) && !sawDatabase
        ? 'This backup file is damaged: it cannot be uncompressed (was it copied completely?).'
        : 'This backup file is damaged: its contents cannot be read (was it copied completely?).',
    );
  }
  if (manifestText === null || !sawDatabase)
    throw new BadBackupError('This .tar.gz is not a backup of this product (no manifest.json or database.tar).');
  return checkManifest(manifestText);
}

function checkManifest(text: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BadBackupError('This backup file is damaged: its manifest.json is not JSON.');
  }
  if (manifest?.format !== BACKUP_FORMAT) throw new BadBackupError('This .tar.gz is not a backup of this product.');
  if (manifest.version !== BACKUP_VERSION) {
    throw new BadBackupError(
      `This backup has format version ${manifest.version}; this version reads ${BACKUP_VERSION}.`,
    );
  }
  return manifest;
}
