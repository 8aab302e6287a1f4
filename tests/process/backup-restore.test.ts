import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { SignJWT } from 'jose';
import tar from 'tar-stream';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/server/paths';
import { quoteRequestBody } from '../helpers/factories';
import { dataUrl, makeJpeg } from '../helpers/images';
import { entryArgs } from '../helpers/server-bundle';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from '../helpers/server-process';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-backup-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const PASSWORD = 'lantern-gravel-orchard-47';
const dirA = path.join(root, 'a');
const dirB = path.join(root, 'b');
const dirC = path.join(root, 'c');

/** npm run backup / npm run restore, as the README gives them (the same script, bundled: server-bundle.ts). */
function command(which: 'backup' | 'restore', file: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [...entryArgs('src/server/cli/backup.ts'), which, file], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
}

async function start(dataDir: string): Promise<{ proc: ServerProcess; base: string }> {
  const port = await freePort();
  const proc = startServerProcess({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_USERNAME: 'owner',
    ADMIN_PASSWORD: PASSWORD,
    // Nothing listens on port 9: the mail stays queued in the outbox, as it would on a bad day.
    SMTP_URL: 'smtp://127.0.0.1:9',
    MAIL_RETRY_BASE_MS: '600000',
    BACKUP_EVERY_HOURS: '0',
  });
  // A first start on a new DATA_DIR creates its database from source: over 30 s on a loaded 2-core host.
  await waitForHealth(port, proc, 90_000);
  return { proc, base: `http://127.0.0.1:${port}` };
}

async function stop(proc: ServerProcess) {
  proc.child.kill('SIGTERM');
  expect(await proc.exited).toBe(0);
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'owner', password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Every entry of a backup file, by name. */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (chunk) => parts.push(chunk as Buffer));
      stream.on('end', () => {
        entries.set(header.name, Buffer.concat(parts));
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  fs.createReadStream(file)
    .pipe(zlib.createGunzip())
    .pipe(extract as never);
  await done;
  return entries;
}

/** A staff token for this user and session, signed with `key`: what a thief of the key would make. */
const forge = (key: Buffer, claims: { sub: string; ver: number; sid: string }) =>
  new SignJWT({ ver: claims.ver, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setAudience('staff')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key.toString('utf8').trim()));

interface Seen {
  request: { _id: string; contactPerson: { name: string }; images: { url: string }[] };
  photo: Buffer;
  mail: { subject: string; state: string }[];
}

async function look(base: string, token: string, id: string): Promise<Seen> {
  const auth = { authorization: `Bearer ${token}` };
  const detail = await fetch(`${base}/api/quoterequest/${id}`, { headers: auth });
  expect(detail.status).toBe(200);
  const request = (await detail.json()) as Seen['request'];
  const photo = Buffer.from(await (await fetch(`${base}${request.images[0]!.url}`)).arrayBuffer());
  const timeline = (await (await fetch(`${base}/api/quoterequest/${id}/timeline`, { headers: auth })).json()) as {
    events: { mail: { subject: string; state: string } | null }[];
  };
  const mail = timeline.events.flatMap((e) => (e.mail ? [{ subject: e.mail.subject, state: e.mail.state }] : []));
  return { request, photo, mail };
}

describe('backups of the embedded database (issue 18)', () => {
  it('backs up with photos and queued mail, restores into an empty DATA_DIR, and the server finds it all', async () => {
    // 1. A business with a request, its photo, and mail still waiting in the outbox.
    let server = await start(dirA);
    const created = await fetch(`${server.base}/api/quoterequest/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...quoteRequestBody({ name: 'Backup Client' }), images: [dataUrl(await makeJpeg())] }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { quoteRequest: { _id: string } }).quoteRequest._id;
    const token = await signIn(server.base);
    const before = await look(server.base, token, id);
    expect(before.photo.length).toBeGreaterThan(1000);
    expect(before.mail.length).toBeGreaterThan(0);
    expect(before.mail.every((m) => m.state !== 'sent')).toBe(true);

    // 2. While the server runs the commands refuse; the back office's download works.
    const refused = command('backup', path.join(root, 'refused.tar.gz'), { DATA_DIR: dirA });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('stop it first');
    expect(command('restore', path.join(root, 'x.tar.gz'), { DATA_DIR: dirA }).stderr).toContain('stop it first');
    const download = await fetch(`${server.base}/api/backups/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/attachment; filename="backup-.*\.tar\.gz"/);
    // Sent as it is made (issue 25.8): a stream, not a file built whole in memory first.
    expect(download.headers.get('content-length')).toBeNull();
    fs.writeFileSync(path.join(root, 'downloaded.tar.gz'), Buffer.from(await download.arrayBuffer()));

    // A backup is not a key to the site (issue 25.3): whatever it holds, a staff token forged with it
    // is refused. The claims of a live session are no secret to whoever has the backup's database.
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      ver: number;
      sid: string;
    };
    const entries = await entriesOf(path.join(root, 'downloaded.tar.gz'));
    expect([...entries.keys()].sort()).toEqual(['database.tar', 'manifest.json']);
    for (const [name, bytes] of entries) {
      if (name === 'database.tar') continue;
      const forged = await forge(bytes, claims);
      const users = await fetch(`${server.base}/api/users`, { headers: { authorization: `Bearer ${forged}` } });
      expect(users.status, `a token signed with the backup's ${name}`).toBe(401);
    }
    // The key the install signs with is not in the database the backup carries either.
    const key = fs.readFileSync(path.join(dirA, 'secrets', 'jwt-secret'));
    expect(entries.get('database.tar')!.includes(key)).toBe(false);
    expect(
      (await fetch(`${server.base}/api/users`, { headers: { authorization: `Bearer ${await forge(key, claims)}` } }))
        .status,
    ).toBe(200);
    await stop(server.proc);

    // 3. The server stopped: npm run backup -- FILE.
    const file = path.join(root, 'handyman.tar.gz');
    const backedUp = command('backup', file, { DATA_DIR: dirA });
    expect(backedUp.stderr).toBe('');
    expect(backedUp.stdout).toContain(`Backup written to ${file}`);

    // 4. A file that is not a backup changes nothing.
    fs.writeFileSync(path.join(root, 'junk.tar.gz'), 'not a backup at all');
    const junk = command('restore', path.join(root, 'junk.tar.gz'), { DATA_DIR: dirA });
    expect(junk.status).toBe(1);
    expect(junk.stderr).toContain('not a backup file');
    expect(junk.stderr).toContain('Nothing was changed');
    expect(fs.readdirSync(dirA).filter((f) => f.startsWith('db.'))).toEqual([]);

    // 5. Restore into an empty DATA_DIR, start, sign in: the same rows, photo and queued mail.
    const restored = command('restore', file, { DATA_DIR: dirB });
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toContain('Restored the backup');
    expect(restored.stdout).toMatch(/quote_requests 1, quote_request_images 1/);
    server = await start(dirB);
    const token2 = await signIn(server.base);
    const after = await look(server.base, token2, id);
    expect(after.request.contactPerson.name).toBe('Backup Client');
    expect(after.photo.equals(before.photo)).toBe(true);
    expect(after.mail.map((m) => m.subject)).toEqual(before.mail.map((m) => m.subject));
    expect(after.mail.every((m) => m.state !== 'sent')).toBe(true);
    // The trail says the data was restored, and from when.
    const trail = (await (
      await fetch(`${server.base}/api/audit?kind=data`, { headers: { authorization: `Bearer ${token2}` } })
    ).json()) as { entries: { action: string; actorName: string }[] };
    expect(trail.entries[0]).toMatchObject({
      action: 'Restored a backup',
      actorName: expect.stringContaining('npm run restore'),
    });
    // Neither the signing key nor the sessions came along (issue 25.3, decision 024): the token issued
    // before the backup, and a staff file link signed then, do not open this new install.
    const role = await fetch(`${server.base}/api/login/user-role`, { headers: { authorization: `Bearer ${token}` } });
    expect(await role.json()).toMatchObject({ valid: false });
    expect((await fetch(`${server.base}${before.request.images[0]!.url}`)).status).toBe(401);
    await stop(server.proc);

    // 6. Restored onto the install that made it, links signed before still open (its key stayed), and
    // sessions do not: staff sign in again.
    expect(command('restore', file, { DATA_DIR: dirA }).stdout).toContain('Staff sign in again');
    server = await start(dirA);
    expect((await fetch(`${server.base}${before.request.images[0]!.url}`)).status).toBe(200);
    const stale = await fetch(`${server.base}/api/login/user-role`, { headers: { authorization: `Bearer ${token}` } });
    expect(await stale.json()).toMatchObject({ valid: false });
    await stop(server.proc);

    // 7. Restoring over existing data keeps the old folder aside; the downloaded backup restores too.
    const over = command('restore', path.join(root, 'downloaded.tar.gz'), { DATA_DIR: dirB });
    expect(over.stdout).toContain('The data that was there is kept in');
    expect(fs.readdirSync(dirB).filter((f) => f.startsWith('db.before-restore-'))).toHaveLength(1);
    expect(command('restore', path.join(root, 'downloaded.tar.gz'), { DATA_DIR: dirC }).status).toBe(0);
  }, 240_000);

  it('on PostgreSQL the commands point to pg_dump and pg_restore instead of pretending', () => {
    const env = { DATA_DIR: dirC, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' };
    const backup = command('backup', path.join(root, 'pg.tar.gz'), env);
    expect(backup.status).toBe(2);
    expect(backup.stderr).toContain('pg_dump');
    const restore = command('restore', path.join(root, 'pg.tar.gz'), env);
    expect(restore.status).toBe(2);
    expect(restore.stderr).toContain('pg_restore');
  });
});
