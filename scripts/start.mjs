// `npm start`: builds when the build is missing or older than the sources, then serves it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildStale } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (isBuildStale()) {
  console.log(
    fs.existsSync(path.join(root, 'dist/.build-stamp'))
      ? 'Sources changed since the last build: building…'
      : 'No build yet: building…',
  );
  // In a process of its own: the server would keep the build's memory (Vite, Rollup, esbuild) for as
  // long as it runs, about 700 MB more than a server started on a current build.
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--quiet'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
await import(path.join(root, 'dist/server/main.js'));
