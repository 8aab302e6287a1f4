import fs from 'node:fs';
import path from 'node:path';
import { bundleServer } from '../../scripts/build.mjs';
import { projectRoot } from '../../src/server/paths';

/** The entry points the process tests run as their own processes, by their source path. */
const entries = {
  main: 'src/server/main.ts',
  backup: 'src/server/cli/backup.ts',
  'user-add': 'src/server/cli/user-add.ts',
  'user-reset-2fa': 'src/server/cli/user-reset-2fa.ts',
};

/** Set by the global setup below for the test files: the folder holding this run's bundles. */
export const SERVER_BUNDLE_ENV = 'HM_TEST_SERVER_BUNDLE';

/**
 * The script a test runs for the source file `entry` (src/server/main.ts, src/server/cli/…): this
 * run's bundle of it when the global setup made one, else the source through tsx. Both are the same
 * source; the bundle starts in a third of the time (tsx transforms and resolves every module at each
 * start: about 2 s of CPU a process on this 2-core host, and the process tests start about 40).
 */
export function entryArgs(entry: string): string[] {
  const dir = process.env[SERVER_BUNDLE_ENV];
  const name = Object.entries(entries).find(([, source]) => source === entry)?.[0];
  if (dir && name) return [path.join(dir, `${name}.js`)];
  return ['--import', 'tsx', entry];
}

/**
 * Vitest global setup of the `api` project: bundles the server and its commands from the source, as
 * `npm run build` bundles the server (`bundleServer`), once per run. The folder is inside the project,
 * so the server finds the project's root, migrations and node_modules as it does from dist/server.
 */
export default async function setup() {
  fs.mkdirSync(path.join(projectRoot, 'dist'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(projectRoot, 'dist', '.test-server-'));
  await bundleServer(entries, dir);
  process.env[SERVER_BUNDLE_ENV] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
