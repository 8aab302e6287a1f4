// Builds the web app (Vite) into dist/web and the server (esbuild) into dist/server,
// then writes dist/.build-stamp so `npm start` knows the build is current.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as viteBuild } from 'vite';
import { build as esbuild } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  await esbuild({
    entryPoints: { main: path.join(root, 'src/server/main.ts') },
    outdir: path.join(root, 'dist/server'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: quiet ? 'warning' : 'info',
  });
  fs.writeFileSync(path.join(root, 'dist/.build-stamp'), new Date().toISOString());
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll();
}
