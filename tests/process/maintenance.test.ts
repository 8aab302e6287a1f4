import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';
import { knownLastMigration, lastAppliedMigration } from '../../src/server/db/versions';
import { hashPassword } from '../../src/server/lib/passwords';
import { brokenRelease, previousRelease } from '../helpers/migration-folders';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from '../helpers/server-process';
import { dbKinds, withAdmin } from '../helpers/test-db';
import { CommandError, rollbackCommand } from '../../src/server/backups';
import type { Config } from '../../src/server/config';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-maintenance-'));
/** Both databases when CI gives PostgreSQL, the embedded one alone otherwise (or those TEST_DATABASES keeps). */
const kinds = dbKinds;
const PASSWORD = 'maintenance-window-7Qx';
const PHONE = '(916) 555-0177';
const dropped: string[] = [];
afterAll(async () => {
  fs.rmSync(tmp, { recursive: true, force: true });
  for (const name of dropped)
    await withAdmin(process.env.TEST_DATABASE_URL!, (c) => c.query(`drop database if exists ${name} with (force)`));
});

/** Answers once the server listens, whatever it says (maintenance answers 503). */
async function waitForListening(port: number, proc: ServerProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`server exited:\n${proc.output()}`);
    try {
      return await fetch(`http://127.0.0.1:${port}/api/health`);
    } catch {
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  throw new Error(`server did not listen:\n${proc.output()}`);
}

async function stop(proc: ServerProcess) {
  proc.child.kill('SIGTERM');
  return proc.exited;
}

/**
 * Issue 32's "done when", on both databases: the previous release's database with data, an upgrade
 * whose last migration fails on purpose. Nothing changes; the server serves maintenance mode (the "back
 * soon" page, the admin's sign-in, the error and the backup download) instead of stopping; the rollback
 * puts the snapshot back (on PostgreSQL it names the pg_restore line); the next good upgrade succeeds.
 */
describe.each(kinds)('an upgrade that fails, on %s', (kind) => {
  it('changes nothing and serves maintenance mode; rollback puts the snapshot back; the next good upgrade starts the site with the data kept', async () => {
    const previous = previousRelease(path.join(tmp, kind, 'previous'));
    const broken = brokenRelease(path.join(tmp, kind, 'broken'));
    const dataDir = path.join(tmp, kind, 'data');
    const env: Record<string, string> = { DATA_DIR: dataDir, BUSINESS_PHONE: PHONE, BACKUP_EVERY_HOURS: '0' };
    let database: Database;
    if (kind === 'postgres') {
      const name = `hm_test_mm_${randomBytes(6).toString('hex')}`;
      dropped.push(name);
      await withAdmin(process.env.TEST_DATABASE_URL!, (c) => c.query(`create database ${name}`));
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
      database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: '' });
    } else {
      database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
    }
    /** The install's database, opened again by the test while no server runs. */
    const reopen = () =>
      kind === 'postgres'
        ? openDatabase({ databaseUrl: env.DATABASE_URL!, dataDir: '' })
        : openDatabase({ dataDir: path.join(dataDir, 'db') });
    await database.migrate(previous.folder);
    await database.db.execute(sql`insert into users (id, username, password_hash, full_name, team_role)
      values ('owner-1', 'owner', ${await hashPassword(PASSWORD)}, 'Olive Owner', 'owner')`);
    const from = await lastAppliedMigration(database.db as never);
    await database.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const proc = startServerProcess({ ...env, PORT: String(port), MIGRATIONS_DIR: broken.folder });
    try {
      const health = await waitForListening(port, proc);
      expect(health.status).toBe(503);
      expect(proc.output()).toContain('The upgrade of the database failed');
      expect(proc.output()).toContain('no_such_table');

      // Every visitor: "back soon" with the business's phone; the API says so too.
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(503);
      const html = await home.text();
      expect(html).toContain('We’ll be back soon');
      expect(html).toContain(PHONE);
      expect(home.headers.get('content-security-policy')).toContain("default-src 'none'");
      const api = await fetch(`${base}/api/quoterequest/status/Q123`);
      expect(api.status).toBe(503);
      expect(await api.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

      // An admin signs in: a wrong password is refused, the right one opens the error and the backup.
      const signIn = (password: string) =>
        fetch(`${base}/maintenance/sign-in`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: 'Owner', password }).toString(),
        });
      expect((await signIn('not-the-password')).status).toBe(401);
      expect((await fetch(`${base}/maintenance/snapshot`, { redirect: 'manual' })).status).toBe(303);
      const signedIn = await signIn(PASSWORD);
      expect(signedIn.status).toBe(303);
      const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
      expect(signedIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
      const page = await (await fetch(`${base}/maintenance`, { headers: { cookie } })).text();
      expect(page).toContain('The upgrade did not finish');
      expect(page).toContain('no_such_table');
      expect(page).toContain('Download a backup');
      const snapshot = await fetch(`${base}/maintenance/snapshot`, { headers: { cookie } });
      expect(snapshot.status).toBe(200);
      const bytes = Buffer.from(await snapshot.arrayBuffer());
      const saved = fs
        .readdirSync(path.join(dataDir, 'backups'))
        .find((f) => /^before-upgrade-.+\.(tar\.gz|dump)$/.test(f));
      expect(bytes.length).toBe(fs.statSync(path.join(dataDir, 'backups', saved!)).size);
      expect(bytes.length).toBeGreaterThan(1000);
    } finally {
      expect(await stop(proc)).toBe(0);
    }

    // Nothing was changed: not the good migration before the broken one, not the broken one's first step.
    const after = await reopen();
    try {
      expect(await lastAppliedMigration(after.db as never)).toBe(from);
      const columns = (await after.db.execute(
        sql`select column_name from information_schema.columns where table_name = 'users' and column_name = 'half_way'`,
      )) as unknown as { rows: unknown[] };
      expect(columns.rows).toEqual([]);
    } finally {
      await after.close();
    }

    // npm run rollback, with the server stopped: the snapshot taken before the upgrade is put back (the
    // embedded database), or the exact pg_restore line is given (PostgreSQL, exit code 2).
    const config = { DATA_DIR: dataDir, DATABASE_URL: env.DATABASE_URL } as Config;
    if (kind === 'pglite') {
      expect(await rollbackCommand(config, undefined)).toMatch(/^Rolled back: the database is as it was before /);
      const back = await reopen();
      try {
        expect(await lastAppliedMigration(back.db as never)).toBe(from);
        const owner = (await back.db.execute(sql`select full_name from users where id = 'owner-1'`)) as unknown as {
          rows: { full_name: string }[];
        };
        expect(owner.rows).toEqual([{ full_name: 'Olive Owner' }]);
      } finally {
        await back.close();
      }
    } else {
      const advice = await rollbackCommand(config, undefined).catch((error: unknown) => error);
      if (advice instanceof CommandError) {
        expect(advice.exitCode).toBe(2);
        expect(advice.message).toContain('pg_restore');
      } else {
        // No pg_dump on this machine: no snapshot was taken, and the command says there is none.
        expect(String(advice)).toMatch(/snapshot/i);
      }
    }

    // The next good upgrade: the site is back, with the data.
    const again = startServerProcess({ ...env, PORT: String(port) });
    try {
      await waitForHealth(port, again, 90_000);
      const signed = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'owner', password: PASSWORD }),
      });
      expect(signed.status, await signed.clone().text()).toBe(200);
    } finally {
      expect(await stop(again)).toBe(0);
    }
    const upgraded = await reopen();
    try {
      expect(await lastAppliedMigration(upgraded.db as never)).toBe(knownLastMigration());
    } finally {
      await upgraded.close();
    }
  }, 240_000);
});
