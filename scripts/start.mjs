// `npm start`: builds when the build is missing or older than the sources, then serves it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist/.build-stamp');
const inputs = ['src', 'index.html', 'vite.config.ts', 'postcss.config.cjs', 'package-lock.json', 'scripts/build.mjs'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const changedAt = Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
if (changedAt > builtAt) {
  console.log(builtAt ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const { buildAll } = await import('./build.mjs');
  await buildAll({ quiet: true });
}
await import(path.join(root, 'dist/server/main.js'));
