/**
 * npm run bench: the built server on PGlite and on PostgreSQL, seeded with 100,000 quote requests,
 * measured with autocannon against a bare node:http server (this machine's ceiling for Node).
 * Prints a table and writes bench/results.json. Figures, not pass/fail: see the targets in README.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { hashPassword } from '../src/server/lib/passwords';
import { openDatabase } from '../src/server/db/client';
import { projectRoot } from '../src/server/paths';
import { buildAll, isBuildStale } from '../scripts/build.mjs';
import { createTestDatabase } from '../tests/helpers/test-db';
import { freePort } from '../tests/helpers/server-process';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/helpers/chromium';
import { makeCraftedPng, makePhonePhoto } from '../tests/helpers/images';
import { SHRINK_MEASURE } from '../src/web/lib/shrink-photo';
import { seed, TIMELINE_REQUEST, TIMELINE_STEPS } from './seed';
import { encodeAuditCursor } from '#shared/schemas/audit';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';
import { jobPhotos } from '../src/server/db/schema';
import { insertJob, setWorkers } from '../src/server/jobs/repository';
import { insertUser } from '../src/server/users/repository';
import { zonedTimeToUtc } from '#shared/dates';
import type { InvoiceView } from '#shared/schemas/invoices';
import type { BusinessSettings } from '../src/server/lib/business';
import { renderInvoicePdf } from '../src/server/invoices/pdf';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/** BENCH_ONLY=regex runs only the scenarios whose label matches; BENCH_DATABASES=postgres skips PGlite. */
const ONLY = new RegExp(process.env.BENCH_ONLY ?? '.', 'i');
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
const CONNECTIONS = 20;
/** BENCH_PORT=n: the servers listen on n, n+1, … (a machine shared with others), else on any free port. */
let nextPort = Number(process.env.BENCH_PORT ?? 0);
const benchPort = async () => (nextPort ? nextPort++ : freePort());
const ADMIN = { username: 'bench-admin', password: 'bench-password-1' };

interface Row {
  database: string;
  scenario: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  vsBare: number;
  errors: number;
}

const rows: Row[] = [];
const facts: Record<string, unknown> = {};

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

async function measure(label: string, options: autocannon.Options) {
  // One unrecorded second first, so the figures are of a warmed-up server (JIT, pools, caches).
  await autocannon({ connections: CONNECTIONS, ...options, duration: 1 });
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    label,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function bareServer() {
  const port = await benchPort();
  const child = spawn(process.execPath, [
    '-e',
    `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"quoteStatus":"Pending"}'); }).listen(${port}, '127.0.0.1')`,
  ]);
  await new Promise((r) => setTimeout(r, 300));
  const result = await measure('bare node:http', { url: `http://127.0.0.1:${port}/` });
  child.kill();
  return result;
}

async function photos3mb(): Promise<string[]> {
  // Three noisy JPEGs just under 1 MB each: 3 MB of photos, the most a request may carry.
  const out: string[] = [];
  for (let i = 0; i < 3; i++) {
    const side = 560;
    const raw = Buffer.alloc(side * side * 3);
    for (let j = 0; j < raw.length; j++) raw[j] = ((j + i) * 2654435761) >>> 24;
    const jpeg = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 92 })
      .toBuffer();
    out.push(`data:image/jpeg;base64,${jpeg.toString('base64')}`);
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
}

/**
 * Issue 11: four hostile uploads in flight at all times (the costliest PNG the limits let through:
 * 2,800 × 2,800 px, 16-bit RGBA, interlaced, 73 KB on the wire, 63 MB once decoded) while another
 * visitor loads the home page and a staff member signs in. Reports that visitor's latency and the
 * server's peak memory.
 */
async function hostileImages(url: string, pid: number, kind: string) {
  const label = 'hostile images: / and sign-in during 4 crafted uploads';
  if (!ONLY.test(label)) return;
  const png = makeCraftedPng({ width: 2800, height: 2800, bitDepth: 16, colorType: 6, interlaced: true });
  const body = JSON.stringify({
    contactPerson: { name: 'Crafted Upload', email: 'crafted@home.test' },
    address: { street: '1 Bench St', city: 'Sacramento', state: 'CA', zip: '95814' },
    notes: 'Crafted image',
    images: [`data:image/png;base64,${png.toString('base64')}`],
  });
  const deadline = Date.now() + Math.max(DURATION, 5) * 2000;
  let uploads = 0;
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  const attacker = async () => {
    while (Date.now() < deadline) {
      await fetch(`${url}/api/quoterequest/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then((r) => r.arrayBuffer());
      uploads++;
    }
  };
  const latencies: number[] = [];
  let errors = 0;
  const visitor = async () => {
    await new Promise((r) => setTimeout(r, 500));
    while (Date.now() < deadline) {
      for (const request of [
        () => fetch(`${url}/`),
        () =>
          fetch(`${url}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(ADMIN),
          }),
      ]) {
        const started = performance.now();
        const res = await request();
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (!res.ok) errors++;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await Promise.all([attacker(), attacker(), attacker(), attacker(), visitor()]);
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  rows.push({
    database: kind,
    scenario: label,
    connections: 5,
    requestsPerSecond: Math.round(latencies.length / (Math.max(DURATION, 5) * 2)),
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    vsBare: 0,
    errors,
  });
  facts[`${kind}HostileUploads`] = uploads;
  facts[`${kind}HostilePeakRssMb`] = peak;
  facts[`${kind}HostileVisitorP99Ms`] = Math.round(percentile(latencies, 99));
}

const CREW = { username: 'bench-crew', password: 'bench-crew-password-1' };
const COMPLETION_LABEL = 'complete a job with 60 phone photos: /api/health and / meanwhile';

/**
 * Issue 25.1: a job in progress with 60 phone photos as the crew's phones leave them (2560 px, about
 * 1–2.6 MB each, as stored after upload), its crew member able to sign in. Written before the server
 * starts; one photo is sent, the database copies it (PGlite takes minutes for 60 MB of parameters).
 */
async function seedPhotoJob(db: Db, passwordHash: string): Promise<string> {
  const crew = await insertUser(db, {
    username: CREW.username,
    passwordHash,
    teamRole: 'crew',
    fullName: 'Bench Crew',
  });
  const jobId = await insertJob(db, {
    quoteId: null,
    quoteRequestId: null,
    contactName: 'Photo Client',
    contactEmail: 'photos@home.test',
    contactPhone: '916-555-0199',
    street: '60 Photo Way',
    city: 'Sacramento',
    state: 'CA',
    zip: '95814',
    notes: 'Bench: 60 photos',
    status: 'In Progress',
  });
  await setWorkers(db, jobId, [crew.id]);
  const photo = await sharp(await makePhonePhoto(7))
    .resize(2560, 2560, { fit: 'inside' })
    .jpeg({ quality: 85 })
    .toBuffer();
  const thumbnail = await sharp(photo).resize(320, 320).webp().toBuffer();
  facts.completionPhotoKb = Math.round(photo.length / 1024);
  const first = `${jobId}-p0`;
  await db.insert(jobPhotos).values({
    id: first,
    jobId,
    stage: 'before',
    mimeType: 'image/jpeg',
    width: 2560,
    height: 1920,
    data: photo,
    thumbnail,
    takenBy: crew.id,
  });
  await db.execute(sql`
    insert into job_photos (id, job_id, stage, mime_type, width, height, data, thumbnail, taken_by, created_at)
    select ${jobId} || '-p' || n, job_id, case when n < 30 then 'before' else 'after' end, mime_type, width, height,
           data, thumbnail, taken_by, created_at + n * interval '1 second'
    from job_photos, generate_series(1, 59) as n where id = ${first}`);
  return jobId;
}

/**
 * Issue 25.1: the crew completes that job while another visitor loads / and /api/health again and
 * again. Reports how long "Complete job" took to answer, the visitor's p99 until the report is ready,
 * the time until it is, its size, and the server's peak memory meanwhile.
 */
async function jobCompletion(url: string, pid: number, kind: string, jobId: string) {
  if (!ONLY.test(COMPLETION_LABEL)) return;
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(CREW),
  });
  const crew = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 25);
  let running = true;
  const latencies: number[] = [];
  let errors = 0;
  const visitor = async () => {
    while (running) {
      for (const path of ['/api/health', '/']) {
        const started = performance.now();
        const res = await fetch(`${url}${path}`);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (!res.ok) errors++;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const visiting = visitor();
  await new Promise((r) => setTimeout(r, 300));
  const started = performance.now();
  const done = await fetch(`${url}/api/my/jobs/${jobId}/complete`, { method: 'POST', headers: crew });
  const completeMs = Math.round(performance.now() - started);
  if (!done.ok) throw new Error(`complete: ${done.status} ${await done.text()}`);
  // The report's link waits for the drawing under way (it does not start a second one).
  const admin = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const auth = { authorization: `Bearer ${((await admin.json()) as { token: string }).token}` };
  const record = (await (await fetch(`${url}/api/jobs/${jobId}/record`, { headers: auth })).json()) as {
    report: { url: string } | null;
  };
  const report = await fetch(`${url}${record.report!.url}`);
  const bytes = Buffer.from(await report.arrayBuffer());
  const readyMs = Math.round(performance.now() - started);
  const retryStarted = performance.now();
  await fetch(`${url}/api/my/jobs/${jobId}/complete`, { method: 'POST', headers: crew });
  const retryMs = Math.round(performance.now() - retryStarted);
  running = false;
  await visiting;
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  rows.push({
    database: kind,
    scenario: COMPLETION_LABEL,
    connections: 1,
    requestsPerSecond: Math.round(latencies.length / (readyMs / 1000)),
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
    vsBare: 0,
    errors,
  });
  facts[`${kind}CompletionAnswerMs`] = completeMs;
  facts[`${kind}CompletionRetryMs`] = retryMs;
  facts[`${kind}CompletionReportReadyMs`] = readyMs;
  facts[`${kind}CompletionReportKb`] = Math.round(bytes.length / 1024);
  facts[`${kind}CompletionVisitorP99Ms`] = Math.round(percentile(latencies, 99));
  facts[`${kind}CompletionVisitorMaxMs`] = Math.round(latencies.at(-1) ?? 0);
  facts[`${kind}CompletionPeakRssMb`] = peak;
}

async function benchDatabase(kind: 'pglite' | 'postgres', bare: number, images: string[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hm-bench-${kind}-`));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '100000000',
    // The bench is one address asking as fast as it can: the per-address limits would answer 429.
    STATUS_RATE_LIMIT_MAX: '100000000',
    LOGIN_RATE_LIMIT_MAX: '100000000',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    // The daily backup is measured by itself (backupHold): on PGlite a fresh data directory has none, so
    // the server took one a minute after start, in the middle of the screens' scenarios, holding the
    // database for seconds and a core for a minute (decision 028, session 43).
    BACKUP_EVERY_HOURS: '0',
  };
  const started = Date.now();
  const passwordHash = await hashPassword('seeded-user-password');
  let cleanup = async () => {};
  let photoJob: string;
  if (kind === 'postgres') {
    const database = await createTestDatabase('postgres');
    await seed(database.db, passwordHash);
    photoJob = await seedPhotoJob(database.db, await hashPassword(CREW.password));
    env.DATABASE_URL = database.url!;
    await database.close();
    cleanup = () => database.destroy().catch(() => {});
  } else {
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    await database.migrate();
    await seed(database.db, passwordHash);
    photoJob = await seedPhotoJob(database.db, await hashPassword(CREW.password));
    await database.close();
  }
  facts[`${kind}SeedSeconds`] = Math.round((Date.now() - started) / 100) / 10;

  const port = await benchPort();
  env.PORT = String(port);
  const url = `http://127.0.0.1:${port}`;
  const startAt = Date.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  try {
    await waitHealthy(url, child, () => output);
    facts[`${kind}StartupMs`] = Date.now() - startAt;
    await new Promise((r) => setTimeout(r, 1000));
    facts[`${kind}IdleRssMb`] = rssMb(child.pid!);

    const token = (
      (await (
        await fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ADMIN),
        })
      ).json()) as {
        token: string;
      }
    ).token;
    const auth = { authorization: `Bearer ${token}` };
    const lastPage = Math.ceil(100_000 / 10) - 5;
    const body = (n: number, withImages: boolean) =>
      JSON.stringify({
        contactPerson: { name: `Bench Client ${n}`, email: `bench${n}@home.test` },
        address: { street: '1 Bench St', city: 'Sacramento', state: 'CA', zip: '95814' },
        notes: 'Benchmark request',
        ...(withImages ? { images } : {}),
      });
    // Seeded request n has the quote number "Q" + its 9-digit hex: 54321 → Q00000D431.
    const quoteNumberOf = (n: number) => `Q${n.toString(16).padStart(9, '0').toUpperCase()}`;
    let next = 0;
    const list = (query: string): autocannon.Options => ({
      url: `${url}/api/quoterequest/all?${query}`,
      headers: auth,
    });
    const clients = (query: string): autocannon.Options => ({ url: `${url}/api/clients?${query}`, headers: auth });
    const scenarios: [string, autocannon.Options][] = [
      // A client refreshing the status page: the same number again and again (the status cache's case).
      ['status: one quote number', { url: `${url}/api/quoterequest/status/${quoteNumberOf(54321)}` }],
      // Numbers spread over all 100,000 requests: nearly every lookup reads the database.
      [
        'status: spread numbers',
        {
          url,
          requests: [
            {
              method: 'GET',
              setupRequest: (req) => ({
                ...req,
                path: `/api/quoterequest/status/${quoteNumberOf(1 + ((next++ * 7919) % 100_000))}`,
              }),
            },
          ],
        },
      ],
      ['list: page 1', list('page=1&limit=10')],
      [`list: page ${lastPage}`, list(`page=${lastPage}&limit=10`)],
      ['list: name search "garcia 12"', list('page=1&limit=10&search=garcia%2012')],
      ['list: status Declined', list('page=1&limit=10&status=Declined')],
      // The same lists at an office's load: latency without the queue of 20 connections on 2 cores.
      ['list: page 1 (4 connections)', { ...list('page=1&limit=10'), connections: 4 }],
      [`list: page ${lastPage} (4 connections)`, { ...list(`page=${lastPage}&limit=10`), connections: 4 }],
      ['list: name search (4 connections)', { ...list('page=1&limit=10&search=garcia%2012'), connections: 4 }],
      ['list: status Declined (4 connections)', { ...list('page=1&limit=10&status=Declined'), connections: 4 }],
      // Online booking (issue 31): the estimate windows of 30 days for 10 workers, 10,000 visits booked.
      ['booking: estimate windows, 30 days × 10 workers', { url: `${url}/api/booking/windows` }],
      // The Calendar (issue 15): a month of visits out of 10,000 over two years.
      ['visits: a month (4 connections)', { url: `${url}/api/visits?${monthRange()}`, headers: auth, connections: 4 }],
      // The Clients page (issue 14): 100,000 clients, paged and searched by name, phone or address.
      ['clients: page 1 (4 connections)', { ...clients('page=1&limit=10'), connections: 4 }],
      [`clients: page ${lastPage} (4 connections)`, { ...clients(`page=${lastPage}&limit=10`), connections: 4 }],
      [
        'clients: name search "garcia 12" (4 connections)',
        { ...clients('page=1&limit=10&search=garcia%2012'), connections: 4 },
      ],
      ['clients: phone search (4 connections)', { ...clients('page=1&limit=10&search=916-555-4321'), connections: 4 }],
      [
        'clients: address search (4 connections)',
        { ...clients('page=1&limit=10&search=54321%20main'), connections: 4 },
      ],
      // The back office at a business's years (issue 27): 15,000 invoices, 25,000 payments, 200,000
      // audit entries, 20,000 quotes, 10,000 jobs.
      ['dashboard (4 connections)', { url: `${url}/api/dashboard`, headers: auth, connections: 4 }],
      // The dashboard's other half: the visits of today and tomorrow and the records waiting.
      [
        'dashboard: needs you today (4 connections)',
        { url: `${url}/api/dashboard/today`, headers: auth, connections: 4 },
      ],
      ['reports (4 connections)', { url: `${url}/api/reports`, headers: auth, connections: 4 }],
      ['activity: page 1 (4 connections)', { url: `${url}/api/audit?page=1&limit=50`, headers: auth, connections: 4 }],
      [
        'activity: one person, 90 days (4 connections)',
        {
          url: `${url}/api/audit?page=1&limit=50&userId=${seededUserId(7)}&${last90Days()}`,
          headers: auth,
          connections: 4,
        },
      ],
      [
        'activity: 190,000 back, by cursor (4 connections)',
        { url: `${url}/api/audit?limit=50&before=${auditCursorBack(190_000)}`, headers: auth, connections: 4 },
      ],
      [
        'invoices: page 1 (4 connections)',
        { url: `${url}/api/invoices?page=1&limit=10`, headers: auth, connections: 4 },
      ],
      [
        'invoices: page 1400 (4 connections)',
        { url: `${url}/api/invoices?page=1400&limit=10`, headers: auth, connections: 4 },
      ],
      [
        'invoices: Overdue (4 connections)',
        { url: `${url}/api/invoices?page=1&limit=10&status=Overdue`, headers: auth, connections: 4 },
      ],
      [
        'invoices: search "client 123" (4 connections)',
        { url: `${url}/api/invoices?page=1&limit=10&search=client%20123`, headers: auth, connections: 4 },
      ],
      // A request's timeline (issue 27): its newest steps, as the request page asks every 15 s.
      [
        `a request's timeline, ${TIMELINE_STEPS} events (4 connections)`,
        { url: `${url}/api/quoterequest/${TIMELINE_REQUEST}/timeline`, headers: auth, connections: 4 },
      ],
      ['jobs: page 1 (4 connections)', { url: `${url}/api/jobs?page=1&limit=10`, headers: auth, connections: 4 }],
      [
        'jobs: search "client 12" (4 connections)',
        { url: `${url}/api/jobs?page=1&limit=10&search=client%2012`, headers: auth, connections: 4 },
      ],
      // The same screens with 20 connections at once (the issue's second target: p99 under 50 ms).
      ['dashboard (20 connections)', { url: `${url}/api/dashboard`, headers: auth }],
      ['dashboard: needs you today (20 connections)', { url: `${url}/api/dashboard/today`, headers: auth }],
      ['reports (20 connections)', { url: `${url}/api/reports`, headers: auth }],
      ['activity: page 1 (20 connections)', { url: `${url}/api/audit?page=1&limit=50`, headers: auth }],
      ['invoices: page 1400 (20 connections)', { url: `${url}/api/invoices?page=1400&limit=10`, headers: auth }],
      [
        'invoices: Overdue (20 connections)',
        { url: `${url}/api/invoices?page=1&limit=10&status=Overdue`, headers: auth },
      ],
      [
        'create without photos',
        {
          url: `${url}/api/quoterequest/create`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(1, false),
        },
      ],
      [
        'create with 3 MB of photos (4 connections)',
        {
          url: `${url}/api/quoterequest/create`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(2, true),
          connections: 4,
        },
      ],
    ];
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(child.pid!))), 250);
    for (const [label, options] of scenarios.filter(([label]) => ONLY.test(label))) {
      const r = await measure(label, options);
      rows.push({
        database: kind,
        scenario: label,
        connections: options.connections ?? CONNECTIONS,
        requestsPerSecond: r.rps,
        p50Ms: r.p50,
        p99Ms: r.p99,
        vsBare: Math.round((r.rps / bare) * 100) / 100,
        errors: r.errors,
      });
    }
    clearInterval(sampler);
    facts[`${kind}PeakRssMb`] = peakRss;
    await jobCompletion(url, child.pid!, kind, photoJob);
    await hostileImages(url, child.pid!, kind);
    if (kind === 'pglite') await photoShrink(url);
    if (kind === 'pglite') await backupHold(url, auth);
    await monthView(url, token, kind);
    await clientsImport(url, auth, kind);
    await exportsAtSize(url, auth, child.pid!, kind);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Issue 27: every download of the seeded business, read as a browser would. For each: the first byte
 * (target < 200 ms), the whole file's time and speed (everything.json at least 50 MB/s), and the
 * server's memory: its peak over the download (target under +50 MB) and, for the clients CSV, when
 * 10,000 rows had arrived against the end (flat: the same whether 10,000 or 100,000 were sent).
 */
async function exportsAtSize(url: string, auth: Record<string, string>, pid: number, kind: string) {
  if (!ONLY.test('exports')) return;
  const downloads = [
    'export/clients.csv',
    'export/requests.csv',
    'export/quotes.csv',
    'export/jobs.csv',
    'export/visits.csv',
    'invoices.csv',
    'payments.csv',
    'export/everything.json',
  ];
  for (const download of downloads) {
    await new Promise((r) => setTimeout(r, 500));
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
    const started = performance.now();
    const body = await browserDownload(`${url}/api/${download}`, auth);
    let firstByteMs = 0;
    let bytes = 0;
    let lines = 0;
    let rssAt10kRows: number | undefined;
    for await (const chunk of body) {
      if (!firstByteMs) firstByteMs = Math.round(performance.now() - started);
      bytes += chunk.length;
      if (rssAt10kRows === undefined) {
        for (const byte of chunk) if (byte === 10) lines++;
        if (lines > 10_000) rssAt10kRows = rssMb(pid) - before;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const name = download.replace(/^export\//, '');
    facts[`${kind}Export ${name}`] = {
      firstByteMs,
      seconds: Math.round(seconds * 10) / 10,
      mb: Math.round(bytes / 2 ** 20),
      mbPerSecond: Math.round(bytes / 2 ** 20 / seconds),
      peakRssDeltaMb: peak - before,
      ...(download === 'export/clients.csv'
        ? { rssDeltaAt10kRowsMb: rssAt10kRows, rssDeltaAtEndMb: rssMb(pid) - before }
        : {}),
    };
  }
}

/**
 * A download as Chromium asks for it (its Accept-Encoding: the server answers brotli) and unpacks it,
 * natively: the bytes read are the file's. (`fetch` asked for gzip and unpacked it in the same two
 * cores as the server, which made the client the slower half, decision 028 session 35.)
 */
function browserDownload(address: string, headers: Record<string, string>): Promise<AsyncIterable<Buffer>> {
  return new Promise((resolve, reject) => {
    http
      .get(address, { headers: { ...headers, 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
        if (res.statusCode !== 200) {
          let text = '';
          res
            .on('data', (d) => (text += d))
            .on('end', () => reject(new Error(`${address}: ${res.statusCode} ${text}`)));
          return;
        }
        const encoding = res.headers['content-encoding'] ?? 'identity';
        const unpackers: Record<string, (() => NodeJS.ReadWriteStream) | undefined> = {
          br: zlib.createBrotliDecompress,
          gzip: zlib.createGunzip,
          deflate: zlib.createInflate,
          // Node 24's zlib has zstd (and the server then prefers it); Node 20's has not.
          zstd: (zlib as unknown as { createZstdDecompress?: () => NodeJS.ReadWriteStream }).createZstdDecompress,
        };
        if (encoding === 'identity') return resolve(res);
        const unpack = unpackers[encoding];
        if (!unpack) return reject(new Error(`${address}: cannot unpack ${encoding}`));
        resolve(res.pipe(unpack()) as unknown as AsyncIterable<Buffer>);
      })
      .on('error', reject);
  });
}

/**
 * Issue 18: a clients CSV of 10,000 rows (Jobber's columns, each with an address) previewed and then
 * imported, through the API, into a database that already holds the seeded business (target: < 10 s).
 */
async function clientsImport(url: string, auth: Record<string, string>, kind: string) {
  if (!ONLY.test('clients import')) return;
  const header =
    'Display Name,First Name,Last Name,Company Name,E-mails,Main Phone #s,Service Street 1,Service City,Service State,Service Zip code';
  const lines = Array.from(
    { length: 10_000 },
    (_, i) =>
      `Import Client ${i},Import,Client ${i},,import${i}@bench.test,(916) 555-${String(i % 10_000).padStart(4, '0')},${i} Bench Ave,Sacramento,CA,95814`,
  );
  const file = `${header}\r\n${lines.join('\r\n')}\r\n`;
  const post = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${url}/api${path}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: file,
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return { ms: Math.round(performance.now() - started), body: (await res.json()) as Record<string, unknown> };
  };
  const preview = await post('/clients/import/preview');
  const imported = await post('/clients/import');
  facts[`${kind}ClientsImport10kFileKb`] = Math.round(file.length / 1024);
  facts[`${kind}ClientsImport10kPreviewMs`] = preview.ms;
  facts[`${kind}ClientsImport10kMs`] = imported.ms;
  facts[`${kind}ClientsImport10kCreated`] = imported.body.created as number;
}

/**
 * Issue 13.2: the time Chromium takes, on a phone-like CPU (4× slowdown), to shrink a 4032 × 3024
 * camera JPEG on the Get a Quote page before sending (target under 1.5 s a photo), and what it sends.
 */
async function photoShrink(url: string) {
  if (!ONLY.test('photo shrink')) return;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 } });
    await page.goto(`${url}/get-a-quote`);
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('button[type="submit"]')?.hasAttribute('disabled'));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const runs = 3;
    for (let i = 1; i <= runs; i++) {
      const buffer = await makePhonePhoto(i);
      await page.getByLabel('Upload Images').setInputFiles({ name: `IMG_${i}.jpg`, mimeType: 'image/jpeg', buffer });
      await page.getByRole('img', { name: new RegExp(`^Photo ${i}:`) }).waitFor();
      facts.photoShrinkOriginalKb ??= Math.round(buffer.length / 1024);
    }
    // The app measures each shrink itself (shrink-photo.ts): decode, scale and encode, not the file's trip in.
    const times = await page.evaluate(
      (name) => performance.getEntriesByName(name).map((entry) => entry.duration),
      SHRINK_MEASURE,
    );
    const summary = await page.getByText(/photos?, .* of 3 MB/).textContent();
    const kb = Number(/([\d.]+) (KB|MB) of/.exec(summary ?? '')?.[1] ?? NaN);
    const unitMb = /MB of/.test(summary ?? '');
    facts.photoShrinkMsPerPhoto4xSlowdown = Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!);
    facts.photoShrinkSentKbPerPhoto = Math.round(((unitMb ? kb * 1024 : kb) / runs) * 10) / 10;
  } finally {
    await browser.close();
  }
}

/**
 * The embedded database's backup at size, as the owner's download (and the nightly backup) takes it:
 * the files are copied while the database is held, so every request waits meanwhile. Reports the
 * longest answer of the request list, asked again and again during the backup, the backup's first
 * byte (the copy done), and its whole time and size.
 */
async function backupHold(url: string, auth: Record<string, string>) {
  if (!ONLY.test('backup')) return;
  let done = false;
  let longestMs = 0;
  const probes = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${url}/api/quoterequest/all?page=1`, { headers: auth })).arrayBuffer();
      longestMs = Math.max(longestMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  try {
    const res = await fetch(`${url}/api/backups/download`, { headers: auth });
    if (!res.ok) throw new Error(`backup: ${res.status} ${await res.text()}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      firstByteMs ||= Math.round(performance.now() - started);
      bytes += chunk.length;
    }
  } finally {
    done = true;
    await probes;
  }
  facts.pgliteBackup = {
    requestListLongestMs: Math.round(longestMs),
    firstByteMs,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    mb: Math.round(bytes / 2 ** 20),
  };
}

/** This month, as the calendar asks for it (Los Angeles midnight to midnight). */
function monthRange(): string {
  const now = new Date();
  const first = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
  const from = zonedTimeToUtc(first, '00:00', 'America/Los_Angeles').toISOString();
  const to = zonedTimeToUtc(next, '00:00', 'America/Los_Angeles').toISOString();
  return new URLSearchParams({ from, to }).toString();
}

/**
 * Issue 15: the Calendar's month view in Chromium (1280 px) with this month's seeded visits: from the
 * click on "Month" to every visit drawn, the visits' request included (target under 500 ms for 300).
 */
async function monthView(url: string, token: string, kind: string) {
  if (!ONLY.test('calendar month view')) return;
  const auth = { authorization: `Bearer ${token}` };
  const monthVisits = async () =>
    (
      (await (await fetch(`${url}/api/visits?${monthRange()}`, { headers: auth })).json()) as {
        visits: { _id: string }[];
      }
    ).visits;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript((t) => localStorage.setItem('jwt', t), token);
    /** Median of three: from the click on Month to `count` visits drawn. */
    const measureView = async (count: number) => {
      const times: number[] = [];
      for (let run = 0; run < 3; run++) {
        await page.goto(`${url}/admin/calendar`);
        await page.getByRole('button', { name: 'Week' }).waitFor();
        await page.locator('.fc-timegrid-event, .fc-timegrid-col-events').first().waitFor({ state: 'attached' });
        const started = await page.evaluate(() => performance.now());
        await page.getByRole('button', { name: 'Month' }).click();
        await page.waitForFunction((n) => document.querySelectorAll('.fc-daygrid-event-harness').length >= n, count, {
          timeout: 30_000,
        });
        times.push((await page.evaluate(() => performance.now())) - started);
      }
      return Math.round([...times].sort((a, b) => a - b)[1]!);
    };
    const visits = await monthVisits();
    facts[`${kind}MonthViewVisits`] = visits.length;
    facts[`${kind}MonthViewMs`] = await measureView(visits.length);
    // The target's size: cancel visits (through the API, as the office would) until 300 are left.
    if (visits.length > 300) {
      for (const visit of visits.slice(300))
        await fetch(`${url}/api/visits/${visit._id}/cancel`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ reason: 'bench' }),
        });
      const left = (await monthVisits()).length;
      facts[`${kind}MonthView${left}Ms`] = await measureView(left);
    }
  } finally {
    await browser.close();
  }
}

/**
 * Drawing a long invoice's PDF, as the PDF worker does (`BENCH_ONLY=pdf BENCH_DATABASES=none`): 200 lines
 * of wrapping text, five times, the first (fonts read and parsed) apart. Finding each character's font
 * anew was nine tenths of it: 4.2 s a draw before, about 0.2 s after (2-core AMD EPYC, 2026-11-30).
 */
async function pdfDrawing() {
  const lines = Array.from({ length: 200 }, (_, i) => ({
    description: `Line ${i + 1}: ${'trim and caulk the window frames, '.repeat(8)}`,
    quantity: 1 + (i % 5),
    unitPrice: 12.5,
    amount: 12.5 * (1 + (i % 5)),
    taxable: true,
  }));
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const invoice: InvoiceView = {
    _id: 'bench',
    number: 'INV-2026-0001',
    jobId: null,
    kind: 'final',
    status: 'Sent',
    clientId: null,
    clientName: 'Dana Whitfield',
    clientEmail: 'dana@home.test',
    address: '1 Main St, Sacramento, CA 95814',
    billingAddress: '',
    companyName: '',
    poNumber: '',
    lines,
    taxRateBasisPoints: 775,
    subtotal,
    taxable: subtotal,
    tax: Math.round(subtotal * 7.75) / 100,
    total: subtotal + Math.round(subtotal * 7.75) / 100,
    credit: 0,
    creditedNumber: null,
    creditedDeposit: null,
    paid: 0,
    balance: subtotal + Math.round(subtotal * 7.75) / 100,
    dueDays: 14,
    issueDate: '2026-11-30',
    dueDate: '2026-12-14',
    notes: '',
    voidReason: null,
    payments: [],
    pdfUrl: null,
  };
  // What the invoice PDF reads of the business (the rest of Settings plays no part in drawing it).
  const business = {
    name: 'Sac Handyman Services',
    email: 'office@handyman.test',
    phone: '916-555-0100',
    address: '1 Bench St, Sacramento, CA 95814',
    licenseNumber: 'CSLB 1000001',
    howClientsPay: { checkPayee: '', checkAddress: '', bankTransfer: '', cardByPhone: false, cardPhone: '' },
  } as unknown as BusinessSettings;
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const started = performance.now();
    await renderInvoicePdf(invoice, business);
    times.push(Math.round(performance.now() - started));
  }
  facts.pdfInvoice200LinesFirstMs = times[0];
  facts.pdfInvoice200LinesMedianMs = times.slice(1).sort((a, b) => a - b)[2];
}

async function main() {
  if (ONLY.test('pdf: a 200-line invoice')) await pdfDrawing();
  if (isBuildStale()) await buildAll({ quiet: true });
  const bare = await bareServer();
  rows.push({
    database: '-',
    scenario: bare.label,
    connections: CONNECTIONS,
    requestsPerSecond: bare.rps,
    p50Ms: bare.p50,
    p99Ms: bare.p99,
    vsBare: 1,
    errors: bare.errors,
  });
  const images = await photos3mb();
  if (DATABASES.includes('pglite')) await benchDatabase('pglite', bare.rps, images);
  if (!DATABASES.includes('postgres')) {
    // skipped on request
  } else if (process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL) {
    process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL;
    await benchDatabase('postgres', bare.rps, images);
  } else {
    console.log(
      '(No TEST_DATABASE_URL: PostgreSQL skipped. Try TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench)',
    );
  }
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  // A run of some scenarios (BENCH_ONLY, BENCH_DATABASES) replaces only what it measured: the rows and
  // facts of the rest stay as the last run left them (each fact carries its database in its name).
  const file = path.join(projectRoot, 'bench/results.json');
  const partial = Boolean(process.env.BENCH_ONLY || process.env.BENCH_DATABASES);
  const earlier =
    partial && fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Row[]; facts: Record<string, unknown> })
      : null;
  const measured = new Set(rows.map((r) => `${r.database}|${r.scenario}`));
  const result = {
    date: new Date().toISOString(),
    machine,
    durationSeconds: DURATION,
    connections: CONNECTIONS,
    rows: [...(earlier?.rows.filter((r) => !measured.has(`${r.database}|${r.scenario}`)) ?? []), ...rows],
    facts: { ...earlier?.facts, ...facts },
  };
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

  const header = '| database | scenario | connections | req/s | p50 ms | p99 ms | × bare | errors |';
  const lines = rows.map(
    (r) =>
      `| ${r.database} | ${r.scenario} | ${r.connections} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.vsBare} | ${r.errors} |`,
  );
  console.log(`\nBenchmark on ${machine}, ${DURATION} s per scenario\n`);
  console.log([header, '|---|---|---|---|---|---|---|---|', ...lines].join('\n'));
  console.log(
    `\n${Object.entries(facts)
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join('\n')}\n`,
  );
}

await main();

/** The id seed.ts gives its n-th crew member. */
function seededUserId(n: number): string {
  return (1_400_000_000 + n).toString(16).padStart(8, '0') + n.toString(16).padStart(16, '0');
}

/** A cursor (`before`) about n entries back in the seeded trail, one every 315 s (seed.ts). */
function auditCursorBack(n: number): string {
  const at = new Date(Date.now() - n * 315_000).toISOString().replace('Z', '000Z');
  return encodeAuditCursor({ at, seq: 0 });
}

/** The audit filter's last 90 days, as the Activity page sends them (dates in the business's zone). */
function last90Days(): string {
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
  return new URLSearchParams({ from, to }).toString();
}
