import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectRoot } from '../paths';

/**
 * A new embedded database begins with initdb: PostgreSQL making its system catalogs, in WebAssembly,
 * which takes 5 to 20 seconds on a small machine. What initdb makes is the same every time for one PGlite
 * version and one set of settings, so the first new database on a machine keeps a copy of its cluster as
 * initdb left it (before any migration), and every later new data directory starts from that copy in
 * under a second: a restore test, a second install, each test server. Kept in node_modules/.cache, named
 * by the PGlite version and the settings: an upgrade of PGlite makes a new one. See decision 027 (session 15).
 */
export function freshClusterFile(settings: readonly string[]): string {
  const require = createRequire(import.meta.url);
  const packageFile = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { version: string };
  const key = createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 12);
  return path.join(projectRoot, 'node_modules', '.cache', 'handyman', `pglite-${version}-${key}.tar`);
}

/** The kept cluster, or undefined when there is none (or it cannot be read). */
export function readFreshCluster(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Keeps `client`'s cluster, just made by initdb, for the next new database. Written whole under another
 * name, then renamed: two processes starting at once never read half a file. A folder that cannot be
 * written (a read-only install) only means the next new database runs initdb too.
 */
export async function keepFreshCluster(client: { dump(): Promise<Buffer> }, file: string): Promise<void> {
  try {
    // Taken after a checkpoint (the worker's `dump`).
    const dump = await client.dump();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${randomBytes(4).toString('hex')}.partial`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, file);
  } catch {
    // Not kept: nothing is lost but time.
  }
}

/** Forgets a kept cluster that PGlite could not start from (damaged): the next new database runs initdb. */
export function forgetFreshCluster(file: string): void {
  fs.rmSync(file, { force: true });
}

/** True when `dataDir` holds no database yet: in memory, missing or an empty folder. */
export function isNewDataDir(dataDir: string): boolean {
  return dataDir.startsWith('memory://') || !fs.existsSync(dataDir) || fs.readdirSync(dataDir).length === 0;
}
