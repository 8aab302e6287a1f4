/**
 * npm run bench:memory (issue 25.8): the server's peak memory, and how long it stops answering, for
 * three big jobs on the embedded database, each in a server process of its own:
 *
 * - import: a CSV of 20,000 clients imported through the API while /api/health is asked every 50 ms
 *   (the slowest answer is how long the site was blocked);
 * - backup: "Download a backup now" of a business with MEMORY_PHOTOS (300) MB of photos (MEMORY_SEED=1 adds the bench's
 *   100,000 seeded requests);
 * - crafted restore: `npm run restore` of a small .tar.gz that unpacks to MEMORY_BOMB_GB of zeros.
 *
 * Peak RSS is the kernel's high-water mark (VmHWM) of that process. Prints the figures and writes
 * bench/memory.json. MEMORY_ONLY=import|backup|restore runs one.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import tar from 'tar-stream';
import { openDatabase } from '../src/server/db/client';
import { hashPassword } from '../src/server/lib/passwords';
import { projectRoot } from '../src/server/paths';
import { startServerProcess, waitForHealth, type ServerProcess } from '../tests/helpers/server-process';
import { seed } from './seed';

const ONLY = new RegExp(process.env.MEMORY_ONLY ?? '.', 'i');
const BOMB_GB = Number(process.env.MEMORY_BOMB_GB ?? 2);
const PHOTOS = Number(process.env.MEMORY_PHOTOS ?? 300);
const PORT = Number(process.env.MEMORY_PORT ?? 42210);
const ADMIN = { username: 'bench-admin', password: 'bench-password-1' };
const facts: Record<string, number | string> = {};
const note = (key: string, value: number | string) => {
  facts[key] = value;
  console.log(`${key}: ${value}`);
};

function statusOf(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024);
  } catch {
    return 0;
  }
}

/** The process's peak RSS, read until it exits (the last value read is its peak). */
function watchPeak(pid: number): () => number {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, statusOf(pid, 'VmHWM'))), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, statusOf(pid, 'VmHWM'));
  };
}

async function serve(dataDir: string): Promise<{ proc: ServerProcess; base: string; token: string }> {
  const proc = startServerProcess({
    DATA_DIR: dataDir,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    BACKUP_EVERY_HOURS: '0',
    SMTP_URL: 'smtp://127.0.0.1:9',
  });
  await waitForHealth(PORT, proc, 120_000);
  const base = `http://127.0.0.1:${PORT}`;
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const token = ((await res.json()) as { token: string }).token;
  return { proc, base, token };
}

async function stop(proc: ServerProcess) {
  proc.child.kill('SIGTERM');
  await proc.exited;
}

async function importScenario() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-memory-import-'));
  const { proc, base, token } = await serve(dataDir);
  try {
    const header = 'Name,Email,Phone,Street,City,State,Zip,Notes';
    const lines = Array.from(
      { length: 20_000 },
      (_, i) =>
        `Import Client ${i},import${i}@bench.test,(916) 555-${String(i % 10_000).padStart(4, '0')},${i} Bench Ave,Sacramento,CA,95814,Client number ${i}`,
    );
    const file = `${header}\r\n${lines.join('\r\n')}\r\n`;
    const idle = statusOf(proc.child.pid!, 'VmRSS');
    const peak = watchPeak(proc.child.pid!);
    let done = false;
    let slowestHealth = 0;
    const prober = (async () => {
      while (!done) {
        const started = performance.now();
        // A kept-alive connection the server closed meanwhile is reset: asked again, counted as waiting.
        await fetch(`${base}/api/health`)
          .then((r) => r.arrayBuffer())
          .catch(() => fetch(`${base}/api/health`).then((r) => r.arrayBuffer()));
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const res = await fetch(`${base}/api/clients/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: file,
    });
    const body = (await res.json()) as { created?: number };
    const ms = Math.round(performance.now() - started);
    done = true;
    await prober;
    note('import20kStatus', res.status);
    note('import20kCreated', body.created ?? -1);
    note('import20kMs', ms);
    note('import20kSlowestHealthMs', Math.round(slowestHealth));
    note('import20kIdleRssMb', idle);
    note('import20kPeakRssMb', peak());
  } finally {
    await stop(proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function backupScenario() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-memory-backup-'));
  try {
    const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    await database.migrate();
    if (process.env.MEMORY_SEED === '1') await seed(database.db, await hashPassword('seeded-user-password'));
    // 300 photos of 1 MB that do not compress (as JPEGs do not), on one request.
    const requestId = 'photos-request';
    await database.db.execute(sql`insert into quote_requests (id, quote_number, contact_name, contact_email, street,
      city, state, zip, notes) values (${requestId}, 'QPHOTOS001', 'Photos', 'photos@home.test', '1 A St', 'Davis',
      'CA', '95616', '')`);
    for (let i = 0; i < PHOTOS; i++) {
      await database.db
        .execute(sql`insert into quote_request_images (id, quote_request_id, position, mime_type, width, height, data, thumbnail)
        values (${`photo${String(i).padStart(5, '0')}`}, ${requestId}, ${i}, 'image/jpeg', 1600, 1200, ${randomBytes(1_048_576)}, ${randomBytes(8192)})`);
    }
    await database.close();
    const { proc, base, token } = await serve(dataDir);
    try {
      const idle = statusOf(proc.child.pid!, 'VmRSS');
      const peak = watchPeak(proc.child.pid!);
      const started = performance.now();
      const res = await fetch(`${base}/api/backups/download`, { headers: { authorization: `Bearer ${token}` } });
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      note('backupStatus', res.status);
      note('backupMb', Math.round(bytes / 1_048_576));
      note('backupMs', Math.round(performance.now() - started));
      note('backupIdleRssMb', idle);
      note('backupPeakRssMb', peak());
    } finally {
      await stop(proc);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A backup whose database.tar is BOMB_GB of zeros: a few MB on disk. */
async function craftedBackup(file: string) {
  const size = Math.round(BOMB_GB * 1024 ** 3);
  const pack = tar.pack();
  const manifest = JSON.stringify({
    format: 'handyman-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    lastMigrationAt: 0,
    counts: {},
  });
  pack.entry({ name: 'manifest.json' }, manifest);
  const entry = pack.entry({ name: 'database.tar', size }, () => pack.finalize());
  const writing = pipeline(pack, zlib.createGzip({ level: 9 }), fs.createWriteStream(file));
  const zeros = Buffer.alloc(1_048_576);
  await pipeline(
    Readable.from(
      (function* () {
        for (let left = size; left > 0; left -= zeros.length)
          yield left >= zeros.length ? zeros : zeros.subarray(0, left);
      })(),
    ),
    entry,
  );
  await writing;
}

async function restoreScenario() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-memory-restore-'));
  try {
    const file = path.join(dir, 'crafted.tar.gz');
    await craftedBackup(file);
    note('craftedRestoreFileMb', Math.round((fs.statSync(file).size / 1_048_576) * 10) / 10);
    note('craftedRestoreUnpacksToGb', BOMB_GB);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli/backup.ts', 'restore', file], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: path.join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const peak = watchPeak(child.pid!);
    const started = performance.now();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    note('craftedRestorePeakRssMb', peak());
    note('craftedRestoreMs', Math.round(performance.now() - started));
    note('craftedRestoreExit', code ?? -1);
    note('craftedRestoreSays', output.trim().split('\n').at(-1) ?? '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (ONLY.test('import')) await importScenario();
if (ONLY.test('backup')) await backupScenario();
if (ONLY.test('restore')) await restoreScenario();
fs.writeFileSync(
  path.join(projectRoot, 'bench/memory.json'),
  `${JSON.stringify({ date: new Date().toISOString(), facts }, null, 2)}\n`,
);
