/**
 * npm run lighthouse: Lighthouse (mobile) in Debian's Chromium against the built app, on the four
 * public pages; prints the four category scores per page and writes bench/lighthouse.json.
 * Also reports the gzipped JavaScript and CSS the home page loads.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { projectRoot } from '../src/server/paths';
import { appModule } from '../src/shared/page-meta';
import { chromiumArgs, chromiumPath } from '../tests/helpers/chromium';
import { freePort } from '../tests/helpers/server-process';
import { buildAll, isBuildStale } from './build.mjs';

const PAGES = ['/', '/get-a-quote', '/contact', '/quote-request-status'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

async function main() {
  if (isBuildStale()) await buildAll({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-lighthouse-'));
  const port = await freePort();
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // The page as the server sends it: its entry script and stylesheets.
  const homeHtml = await (await fetch(`${base}/`)).text();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
  const results: Record<string, Record<string, number>> = {};
  try {
    for (const page of PAGES) {
      let run = await lighthouse(`${base}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      // A trace that failed to record (a hiccup of a busy machine) is measured again, up to twice.
      for (let retry = 0; retry < 2 && run?.lhr.runtimeError; retry++)
        run = await lighthouse(`${base}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
        });
      const categories = run!.lhr.categories;
      results[page] = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)]));
      // What keeps a category under 100: the audits that failed, and the main timings.
      const audits = run!.lhr.audits;
      const failing = CATEGORIES.flatMap((c) =>
        (categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c}: ${ref.id} (${audits[ref.id]?.displayValue ?? audits[ref.id]?.score})`),
      );
      if (failing.length) console.log(`${page}\n  ${failing.join('\n  ')}`);
      if (run!.lhr.runtimeError) console.log(`${page}: ${run!.lhr.runtimeError.code} ${run!.lhr.runtimeError.message}`);
      const issues =
        (
          audits['inspector-issues']?.details as
            { items?: { issueType?: string; subItems?: { items?: unknown[] } }[] } | undefined
        )?.items ?? [];
      for (const issue of issues)
        console.log(`  issue: ${issue.issueType} ${JSON.stringify(issue.subItems?.items ?? []).slice(0, 300)}`);
    }
  } finally {
    await chrome.kill();
    server.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const bundle = homePageBundle(homeHtml);

  fs.mkdirSync(path.join(projectRoot, 'bench'), { recursive: true });
  fs.writeFileSync(
    path.join(projectRoot, 'bench/lighthouse.json'),
    `${JSON.stringify({ date: new Date().toISOString(), results, homePage: bundle }, null, 2)}\n`,
  );
  console.log(`\n| page | ${CATEGORIES.join(' | ')} |\n|---|---|---|---|---|`);
  for (const [page, scores] of Object.entries(results))
    console.log(`| ${page} | ${CATEGORIES.map((c) => scores[c]).join(' | ')} |`);
  console.log(
    `\nHome page loads ${bundle.javascriptGzipKb} KB of JavaScript and ${bundle.cssGzipKb} KB of CSS (gzipped).\n`,
  );
}

/**
 * What the home page loads, gzipped: the entry script and stylesheets its HTML names, and the app
 * the entry loads once the page is painted (app/start.tsx and the chunks it imports; the home page
 * itself is not a lazy route).
 */
function homePageBundle(html: string) {
  const web = path.join(projectRoot, 'dist/web');
  const manifest: Record<string, { file: string; imports?: string[] }> = JSON.parse(
    fs.readFileSync(path.join(web, '.vite/manifest.json'), 'utf8'),
  );
  const files = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!));
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(appModule);
  const gz = (ext: string) =>
    [...files]
      .filter((f) => f.endsWith(ext))
      .reduce((sum, f) => sum + gzipSync(fs.readFileSync(path.join(web, f))).length, 0);
  return { javascriptGzipKb: Math.round(gz('.js') / 1024), cssGzipKb: Math.round(gz('.css') / 1024) };
}

await main();
