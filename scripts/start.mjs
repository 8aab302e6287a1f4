// `npm start`: builds when the build is missing or older than the sources, then serves it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll, isBuildStale } from './build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (isBuildStale()) {
  console.log(
    fs.existsSync(path.join(root, 'dist/.build-stamp'))
      ? 'Sources changed since the last build: building…'
      : 'No build yet: building…',
  );
  await buildAll({ quiet: true });
}
await import(path.join(root, 'dist/server/main.js'));
