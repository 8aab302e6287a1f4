// Builds the web app (Vite) into dist/web, its page renderer into dist/render and the server (esbuild) into dist/server,
// then writes dist/.build-stamp so `npm start` knows the build is current.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const stamp = path.join(root, 'dist/.build-stamp');
const inputs = ['src', 'vite.config.ts', 'postcss.config.cjs', 'package-lock.json', 'scripts/build.mjs'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when there is no build, or a source file changed after it was made. */
export function isBuildStale() {
  const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  return Math.max(...inputs.map((p) => newestMtime(path.join(root, p)))) > builtAt;
}

export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  // Loaded here, not at the top: `npm start` reads this file to check staleness without paying for them.
  const { build: viteBuild } = await import('vite');
  const configFile = path.join(root, 'vite.config.ts');
  await viteBuild({ configFile, logLevel: quiet ? 'warn' : 'info' });
  // The server's page renderer: the same app, built for Node, which the server imports (plugins/web.ts).
  await viteBuild({
    configFile,
    logLevel: quiet ? 'warn' : 'info',
    // Bundled (tree-shaken) rather than importing Mantine and the icon set whole: 40 MB less memory.
    ssr: { noExternal: true },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      ssr: path.join(root, 'src/web/render-page.tsx'),
      outDir: path.join(root, 'dist/render'),
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
    },
  });
  await writeThemeStylesheet();
  await buildCrewApp();
  await precompressAssets();
  await bundleServer({ main: 'src/server/main.ts' }, path.join(root, 'dist/server'), quiet);
  fs.writeFileSync(stamp, new Date().toISOString());
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Bundles server entry points (paths from the project's root, by output name) into `outdir` for Node,
 * the packages left to node_modules; the PDF worker (decision 022) and the embedded database's (decision 053) always beside them, since the
 * server starts it from there. Also used by the process tests (tests/helpers/server-bundle.ts).
 */
export async function bundleServer(entries, outdir, quiet = true) {
  const { build: esbuild } = await import('esbuild');
  const entryPoints = {
    ...entries,
    'pdf-worker': 'src/server/pdf-worker.ts',
    'pglite-worker': 'src/server/pglite-worker.ts',
  };
  await esbuild({
    entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: quiet ? 'warning' : 'info',
  });
}

/**
 * The theme's CSS as a hashed stylesheet linked at the top of <head>, instead of Mantine's <style>
 * elements inside <body> (invalid HTML, and 10 KB on every page that a stylesheet lets the browser cache).
 */
async function writeThemeStylesheet() {
  const { themeCss } = await import(pathToFileURL(path.join(root, 'dist/render/render-page.js')).href);
  const css = themeCss();
  if (!css.includes('--mantine-')) throw new Error('The theme stylesheet came out empty');
  const name = `assets/theme-${createHash('sha256').update(css).digest('hex').slice(0, 10)}.css`;
  fs.writeFileSync(path.join(root, 'dist/web', name), css);
  const indexFile = path.join(root, 'dist/web/index.html');
  const html = fs.readFileSync(indexFile, 'utf8');
  // After the entry's stylesheet, whose Mantine defaults the theme's variables override.
  fs.writeFileSync(indexFile, html.replace('</head>', `  <link rel="stylesheet" href="/${name}">\n  </head>`));
}

/**
 * The modules of the crew's pages (src/web/app/router.tsx, the /employee routes) and the entry that
 * starts the app: the service worker keeps them, with what they import, so the crew area opens offline.
 */
const CREW_MODULES = [
  'index.html',
  'app/start.tsx',
  'app/layouts/staff-layout.tsx',
  'app/pages/employee-home-page.tsx',
  'features/employee/pages/employee-jobs-page.tsx',
  'app/pages/crew-job-page.tsx',
  'features/employee/pages/schedule-page.tsx',
  'features/visits/pages/calendar-page.tsx',
];

/** The built files the crew's pages need: their chunks, what those import statically, their styles and assets. */
function crewFiles(webDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8'));
  const files = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The crew app needs ${key}, which the build does not have (scripts/build.mjs)`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  CREW_MODULES.forEach(visit);
  const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  for (const [, file] of html.matchAll(/href="\/(assets\/theme-[\w-]+\.css)"/g)) files.add(file);
  return [...files, 'favicon.svg', 'crew-icon-192.png'];
}

/**
 * Every hashed asset also as .br (brotli at its best) and .gz, made once here rather than for each
 * request: the server sends them as they are (@fastify/static `preCompressed`), which is smaller than
 * what it could afford to squeeze on the fly and costs it nothing per page load. Files the server
 * sends unhashed (the crew app's worker, rewritten by a deploy) are compressed when sent, as before.
 */
async function precompressAssets() {
  const zlib = await import('node:zlib');
  const { promisify } = await import('node:util');
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  const dir = path.join(root, 'dist/web/assets');
  const files = fs.readdirSync(dir).filter((name) => /\.(js|css|svg|json)$/.test(name));
  await Promise.all(
    files.map(async (name) => {
      const file = path.join(dir, name);
      const bytes = fs.readFileSync(file);
      if (bytes.length < 1024) return;
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzip(bytes, { level: 9 }),
      ]);
      fs.writeFileSync(`${file}.br`, br);
      fs.writeFileSync(`${file}.gz`, gz);
    }),
  );
}

/**
 * The crew app (decision 030): its icons, and its service worker, bundled by esbuild, with the list of
 * the crew's files (and their hashes, so a new build is a new worker) written in by Workbox.
 */
async function buildCrewApp() {
  const webDir = path.join(root, 'dist/web');
  const { default: sharp } = await import('sharp');
  const icon = fs.readFileSync(path.join(root, 'src/web/public/favicon.svg'));
  for (const size of [192, 512])
    await sharp(icon, { density: 72 * (size / 64) })
      .resize(size, size)
      .flatten({ background: '#ffffff' })
      .png()
      .toFile(path.join(webDir, `crew-icon-${size}.png`));
  const { build: esbuild } = await import('esbuild');
  const { injectManifest } = await import('workbox-build');
  const swSrc = path.join(root, 'dist/.crew-sw.js');
  await esbuild({
    entryPoints: [path.join(root, 'src/web/crew-app/service-worker.ts')],
    outfile: swSrc,
    bundle: true,
    format: 'iife',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'warning',
  });
  const { warnings } = await injectManifest({
    swSrc,
    swDest: path.join(webDir, 'crew-sw.js'),
    globDirectory: webDir,
    globPatterns: crewFiles(webDir),
    // Hashed names change with their content: fetched as they are, not with a revision added.
    dontCacheBustURLsMatching: /^assets\//,
    maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
  });
  fs.rmSync(swSrc);
  if (warnings.length) throw new Error(`The crew app's service worker: ${warnings.join('; ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildAll({ quiet: process.argv.includes('--quiet') });
}
