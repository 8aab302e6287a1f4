/**
 * npm run lighthouse: Lighthouse (mobile) in Debian's Chromium against the built app, on the four
 * public pages and the three pages a client opens from an e-mail (their quote, their invoice, their
 * request's status), with real data seeded through the API; prints the four category scores, the
 * largest contentful paint per page (and its ratio to the home page's and to a minimal static page's,
 * one heading and one paragraph without script, served by the run itself from the same machine) and
 * the total blocking time, and writes bench/lighthouse.json.
 * Also reports the JavaScript and CSS each page fetched (as transferred) and the home page's HTML.
 * `LIGHTHOUSE_ONLY=regex` measures only the pages whose name matches (the home page always, for the ratio).
 * Each page is measured `LIGHTHOUSE_RUNS` times (3 unless set) and the median run is reported.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type RunnerResult } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';
import { projectRoot } from '../src/server/paths';
import { chromiumArgs, chromiumPath } from '../tests/helpers/chromium';
import { freePort } from '../tests/helpers/server-process';
import { TestSmtpServer, waitFor } from '../tests/helpers/smtp';
import { buildAll, isBuildStale } from './build.mjs';

const PUBLIC_PAGES = ['/', '/get-a-quote', '/contact', '/quote-request-status'];
/** Runs per page (`LIGHTHOUSE_RUNS`, 3 unless set): the median one is reported. */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3) || 3);
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/**
 * The yardstick for LCP (issue 34): what the same machine and network give a page with nothing to run.
 * Its icon is an empty data address, as the site's pages carry theirs inline: otherwise Chromium asks
 * for /favicon.ico as it paints, and Lighthouse counts a request that ends before the paint as one the
 * paint waited for (its LCP read 622 or 751 ms, run to run, by that request alone; decision 052).
 */
const STATIC_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<meta name="description" content="A minimal static page: the yardstick for the largest contentful paint.">
<title>Static page</title></head>
<body><h1>Handyman services in Sacramento</h1>
<p>Repairs, installations and upkeep for homes and businesses across Sacramento and the surrounding counties.</p>
</body></html>`;
const STATIC = 'static page';
const ADMIN = { username: 'owner', password: 'lighthouse-owner-password' };

/** The client's link in the first message to `to` whose subject matches (their links arrive by e-mail). */
function linkIn(smtp: TestSmtpServer, to: string, subject: RegExp, pattern: RegExp): Promise<URL> {
  return waitFor(
    () => {
      const mail = smtp.to(to).find((m) => subject.test(m.parsed.subject ?? ''));
      const found = mail ? pattern.exec(String(mail.parsed.text)) : null;
      return found ? new URL(found[0]) : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: `an e-mail to ${to} matching ${subject}` },
  );
}

/**
 * A client's three pages with real data, made through the API as the office and the client would:
 * a request, a quote with a deposit sent for it (the quote page, as the client first opens it), the
 * request's status, and the deposit's invoice (sent when the client accepts a second quote).
 */
async function seedClientPages(base: string, smtp: TestSmtpServer) {
  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const response = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const admin = (await call('POST', '/login', ADMIN)).token as string;
  const quoteFor = async (name: string) => {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}@home.test`;
    const created = await call('POST', '/quoterequest/create', {
      contactPerson: { name, email, phone: '916-555-0199' },
      address: { street: '42 Capitol Mall', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Replace two interior doors, touch up the trim and repaint the hallway.',
    });
    const request = created.quoteRequest as { _id: string; quoteNumber: string };
    await call('PUT', `/quoterequest/markAccepted/${request._id}`, undefined, admin);
    await call(
      'POST',
      '/quotes/sendQuote',
      {
        quoteRequestId: request._id,
        clientName: name,
        projectName: 'Doors and hallway',
        materials: [
          { name: 'Interior door, pre-hung', unitPrice: 189, quantity: 2 },
          { name: 'Paint and trim supplies', unitPrice: 64.5, quantity: 1 },
        ],
        labor: [{ name: 'Hang doors, paint hallway', hourlyRate: 85, hours: 6 }],
        deposit: { kind: 'percent', value: 20 },
      },
      admin,
    );
    const link = await linkIn(
      smtp,
      email,
      /^Your quote QT/,
      new RegExp(`https?://\\S+/quote/QT\\d{8}\\?token=[\\w.-]+`),
    );
    return { email, link };
  };
  const first = await quoteFor('Dana Whitfield');
  const quoteId = first.link.pathname.split('/').pop()!;
  const second = await quoteFor('Luis Ortega');
  await call('POST', `/client-quotes/${second.link.pathname.split('/').pop()}/answer`, {
    action: 'accept',
    token: second.link.searchParams.get('token'),
    signatureName: 'Luis Ortega',
  });
  const invoice = await linkIn(smtp, second.email, /^(Deposit invoice|Invoice) INV-/, /https?:\/\/\S+\/invoice\/\S+/);
  return {
    'client quote': `${base}${first.link.pathname}${first.link.search}`,
    'client invoice': `${base}${invoice.pathname}${invoice.search}`,
    status: `${base}/quote-request-status/${quoteId}`,
  };
}

async function main() {
  if (isBuildStale()) await buildAll({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-lighthouse-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const smtp = await new TestSmtpServer().start();
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: base,
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '100',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const staticServer = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(STATIC_PAGE);
  });
  await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve));
  const staticUrl = `http://127.0.0.1:${(staticServer.address() as { port: number }).port}/`;
  const only = process.env.LIGHTHOUSE_ONLY ? new RegExp(process.env.LIGHTHOUSE_ONLY) : undefined;
  const clientPages = await seedClientPages(base, smtp).catch(async (error: unknown) => {
    server.kill('SIGTERM');
    await smtp.stop();
    throw error;
  });
  const PAGES: [string, string][] = [
    [STATIC, staticUrl],
    ...Object.entries({ ...Object.fromEntries(PUBLIC_PAGES.map((p) => [p, `${base}${p}`])), ...clientPages }).filter(
      ([name]) => name === '/' || !only || only.test(name),
    ),
  ];
  // The page as the server sends it: its entry script and stylesheets.
  const homeHtml = await (await fetch(`${base}/`)).text();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumArgs],
  });
  const results: Record<string, Record<string, number>> = {};
  try {
    for (const [name, page] of PAGES) {
      // Each page is measured RUNS times and the run Lighthouse's own helper calls the median (by first
      // contentful paint and time to interactive) is the one reported: one run of the same build read
      // 650 and 1,250 ms of LCP on a quiet host (session 34).
      const runs: RunnerResult['lhr'][] = [];
      let last: RunnerResult['lhr'] | undefined;
      // A trace that failed to record (a hiccup of a busy machine) is measured again, twice at most.
      for (let attempt = 0; runs.length < RUNS && attempt < RUNS + 2; attempt++) {
        const result = await lighthouse(page, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
        });
        if (!result) continue;
        last = result.lhr;
        if (!result.lhr.runtimeError) runs.push(result.lhr);
      }
      const valid: RunnerResult['lhr'][] = filterToValidRuns(runs);
      const lhr = valid.length ? (computeMedianRun(valid) as RunnerResult['lhr']) : last;
      if (!lhr) throw new Error(`Lighthouse gave no result for ${name}`);
      if (process.env.LIGHTHOUSE_SAVE_DIR)
        fs.writeFileSync(
          path.join(
            process.env.LIGHTHOUSE_SAVE_DIR,
            `${name.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}.json`,
          ),
          JSON.stringify(lhr),
        );
      const categories = lhr.categories;
      const audits = lhr.audits;
      results[name] = {
        ...Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)])),
        lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
        tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
        ...transferredKb(audits['network-requests']?.details),
      };
      if (name === STATIC) continue;
      // What keeps a category under 100: the audits that failed, and the main timings.
      const failing = CATEGORIES.flatMap((c) =>
        (categories[c]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${c}: ${ref.id} (${audits[ref.id]?.displayValue ?? audits[ref.id]?.score})`),
      );
      if (failing.length) console.log(`${name}\n  ${failing.join('\n  ')}`);
      if (lhr.runtimeError) console.log(`${name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const issues =
        (
          audits['inspector-issues']?.details as
            { items?: { issueType?: string; subItems?: { items?: unknown[] } }[] } | undefined
        )?.items ?? [];
      for (const issue of issues)
        console.log(`  issue: ${issue.issueType} ${JSON.stringify(issue.subItems?.items ?? []).slice(0, 300)}`);
      // Where the blocking time goes: the longest main-thread tasks and the script they ran.
      if ((audits['total-blocking-time']?.score ?? 1) < 1) {
        const tasks =
          (audits['long-tasks']?.details as { items?: { url?: string; startTime?: number; duration?: number }[] })
            ?.items ?? [];
        const breakdown =
          (audits['mainthread-work-breakdown']?.details as { items?: { groupLabel?: string; duration?: number }[] })
            ?.items ?? [];
        console.log(
          `  main thread: ${breakdown.map((b) => `${b.groupLabel} ${Math.round(b.duration ?? 0)} ms`).join(', ')}`,
        );
        for (const task of tasks.slice(0, 5))
          console.log(
            `  long task: ${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} ms, ${task.url ?? ''}`,
          );
      }
    }
  } finally {
    await chrome.kill();
    server.kill('SIGTERM');
    staticServer.close();
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const bundle = { ...homePageBundle(homeHtml), javascriptKb: results['/']?.javascriptKb, cssKb: results['/']?.cssKb };
  // Each page's largest contentful paint against the home page's (issue 24: within 1.3 ×).
  // And against the static page's (issue 34: within 1.2 ×).
  const homeLcp = results['/']?.lcpMs ?? 0;
  const staticLcp = results[STATIC]?.lcpMs ?? 0;
  const ratio = (lcp: number, to: number) => Math.round((lcp / to) * 100) / 100;
  for (const scores of Object.values(results)) {
    if (homeLcp) scores.lcpRatioToHome = ratio(scores.lcpMs!, homeLcp);
    if (staticLcp) scores.lcpRatioToStatic = ratio(scores.lcpMs!, staticLcp);
  }

  fs.mkdirSync(path.join(projectRoot, 'bench'), { recursive: true });
  fs.writeFileSync(
    path.join(projectRoot, 'bench/lighthouse.json'),
    `${JSON.stringify({ date: new Date().toISOString(), results, homePage: bundle }, null, 2)}\n`,
  );
  console.log(
    `\n| page | ${CATEGORIES.join(' | ')} | LCP | × static page | × home | TBT | JS transferred |\n|---|---|---|---|---|---|---|---|---|---|`,
  );
  for (const [name, scores] of Object.entries(results))
    console.log(
      `| ${name} | ${CATEGORIES.map((c) => (name === STATIC ? '–' : scores[c])).join(' | ')} | ${scores.lcpMs} ms | ${scores.lcpRatioToStatic ?? ''} | ${scores.lcpRatioToHome ?? ''} | ${name === STATIC ? '–' : `${scores.tbtMs} ms`} | ${scores.javascriptKb} KB |`,
    );
  console.log(
    `\nHome page: ${bundle.htmlGzipKb} KB of HTML (gzipped) with ${bundle.inlineCssGzipKb} KB of its first paint's CSS inline; it then fetched ${bundle.javascriptKb} KB of JavaScript and ${bundle.cssKb} KB of CSS (as transferred).\n`,
  );
}

/** The home page's HTML (gzipped) and the first paint's rules it carries inline (gzipped). */
function homePageBundle(html: string) {
  const inline = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('');
  return {
    inlineCssGzipKb: Math.round(gzipSync(inline).length / 1024),
    htmlGzipKb: Math.round(gzipSync(html).length / 1024),
  };
}

/** The JavaScript and CSS a page fetched, as Lighthouse saw them transferred (the issue's column). */
function transferredKb(details: unknown) {
  const items = (details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const kb = (type: string) =>
    Math.round(items.filter((i) => i.resourceType === type).reduce((sum, i) => sum + (i.transferSize ?? 0), 0) / 1024);
  return { javascriptKb: kb('Script'), cssKb: kb('Stylesheet') };
}

await main();
