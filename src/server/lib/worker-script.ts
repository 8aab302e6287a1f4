import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The server's worker threads, each an entry of its own (src/server/<name>.ts, bundled beside the server). */
export type WorkerEntry = 'pdf-worker' | 'pglite-worker';

const building = new Map<WorkerEntry, Promise<string>>();

/**
 * A worker thread running `entry`: the built `<entry>.js` beside the bundled server; when the server runs
 * from its TypeScript (tests, `npm run dev`, the bench, the commands), the source bundled once per process
 * by esbuild into dist/ (one file loads in a fraction of the time tsx takes to compile each module in a
 * cold worker).
 */
export async function startWorker(entry: WorkerEntry, options: WorkerOptions = {}): Promise<Worker> {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, import.meta.url), options);
  return new Worker(await bundled(entry), options);
}

function bundled(entry: WorkerEntry): Promise<string> {
  let file = building.get(entry);
  if (!file) {
    file = bundle(entry);
    building.set(entry, file);
    file.catch(() => building.delete(entry));
  }
  return file;
}

async function bundle(entry: WorkerEntry): Promise<string> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const outfile = path.join(root, 'dist', `.${entry}`, `${entry}-${process.pid}.mjs`);
  if (!fs.existsSync(outfile)) {
    const { build } = await import('esbuild');
    await build({
      entryPoints: [fileURLToPath(new URL(`../${entry}.ts`, import.meta.url))],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    process.once('exit', () => fs.rmSync(outfile, { force: true }));
  }
  return outfile;
}
