/**
 * npm run budget (part of npm run check): the JavaScript each public page loads before a visitor can
 * use it, gzipped, against its budget (issue 34), and no code of the staff's or crew's areas in it.
 * Builds first when the build is stale. A failure names the modules that grew since the budget last
 * passed on this machine (kept in node_modules/.cache), or the page's largest ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { appModule, routeMeta } from '#shared/page-meta';
import { paths } from '#shared/paths';
import { projectRoot } from '../src/server/paths';
import { buildAll, isBuildStale } from './build.mjs';
import { budgetFailures, judgePages, kb, type ChunkModules, type Manifest, type PageBudget } from './js-budget-rules';

const KB = 1024;
/**
 * Gzipped bytes per public page: the targets, 150 KB for the home page and 180 KB for the
 * form pages (decision 033).
 */
const BUDGETS: Record<string, number> = {
  [paths.home]: 150 * KB,
  [paths.getAQuote]: 180 * KB,
  [paths.contact]: 180 * KB,
  [paths.quoteRequestStatus]: 180 * KB,
};

/** What the entry runs on a page without the app (main.tsx). */
const HERO_SCRIPT = 'features/home/components/hero-slides.ts';
const web = path.join(projectRoot, 'dist/web');
const lastPassedFile = path.join(projectRoot, 'node_modules/.cache/js-budget.json');

if (isBuildStale()) await buildAll({ quiet: true });
const manifest = JSON.parse(fs.readFileSync(path.join(web, '.vite/manifest.json'), 'utf8')) as Manifest;
const chunks = JSON.parse(fs.readFileSync(path.join(web, '.vite/chunks.json'), 'utf8')) as ChunkModules;

const pages: PageBudget[] = Object.entries(BUDGETS).map(([page, maxBytes]) => {
  const meta = routeMeta.find(([pattern]) => pattern === page)?.[1];
  if (!meta) throw new Error(`${page} is not a route`);
  // The entry script (which also makes zod jitless), the app, and the page's own module; a page the
  // app does not take over, the entry and the hero's script (decision 050).
  const entries = meta.withoutApp
    ? ['index.html', HERO_SCRIPT]
    : ['index.html', appModule, ...(meta.module ? [meta.module] : [])];
  return { path: page, entries, maxBytes };
});
const gzipped = (file: string) => gzipSync(fs.readFileSync(path.join(web, file))).length;
const verdicts = judgePages(pages, manifest, chunks, gzipped);

for (const v of verdicts)
  console.log(`${v.path.padEnd(24)} ${kb(v.bytes).padStart(9)} of ${kb(v.maxBytes)} (${v.files.length} files)`);

const lastPassed = fs.existsSync(lastPassedFile)
  ? (JSON.parse(fs.readFileSync(lastPassedFile, 'utf8')) as Record<string, Record<string, number>>)
  : {};
const failures = budgetFailures(verdicts, lastPassed);
if (failures.length > 0) {
  for (const failure of failures) console.error(`✗ ${failure}`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(lastPassedFile), { recursive: true });
fs.writeFileSync(lastPassedFile, JSON.stringify(Object.fromEntries(verdicts.map((v) => [v.path, v.modules]))));
console.log('Every public page is within its JavaScript budget.');
