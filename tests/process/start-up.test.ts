import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { knownLastMigration, lastAppliedMigration, migrationsFolder } from '../../src/server/db/versions';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';
import { freePort, startServerProcess, waitForHealth } from '../helpers/server-process';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-start-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('start-up with bad configuration', () => {
  it('stops with a list of what is wrong, not a stack trace', async () => {
    const proc = startServerProcess({ PORT: 'abc', OWNER_EMAIL: 'not-an-address', DATA_DIR: tmp });
    expect(await proc.exited).toBe(1);
    const out = proc.output();
    expect(out).toContain('Invalid configuration:');
    expect(out).toContain('PORT: must be a whole number from 1 to 65535');
    expect(out).toContain('OWNER_EMAIL: must be an e-mail address');
    expect(out).not.toMatch(/\n\s+at /);
  });

  it('stops with a clear message when DATABASE_URL cannot be reached', async () => {
    const port = await freePort();
    const proc = startServerProcess({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/nothing`,
      DATA_DIR: tmp,
      PORT: String(await freePort()),
    });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain(
      `Cannot open DATABASE_URL: Cannot connect to the database at postgres://postgres@127.0.0.1:${port}/nothing`,
    );
    expect(proc.output()).not.toMatch(/\n\s+at /);
  });
});

describe.runIf(dbKinds.includes('postgres'))('start-up on a database from a newer version (issue 32)', () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.destroy());

  it('stops with a clear message and changes nothing', async () => {
    database = await createTestDatabase('postgres');
    const newer = knownLastMigration() + 86_400_000;
    await database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', ${newer})`,
    );
    const proc = startServerProcess({ DATABASE_URL: database.url!, DATA_DIR: tmp, PORT: String(await freePort()) });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain('This database was upgraded by a newer version of the product');
    expect(proc.output()).not.toMatch(/\n\s+at /);
    // No first admin was made: the server stopped before touching anything.
    const users = (await database.db.execute(sql`select count(*)::int as n from users`)) as unknown as {
      rows: { n: number }[];
    };
    expect(users.rows[0]!.n).toBe(0);
  });
});

describe.runIf(dbKinds.includes('postgres'))('start-up on the previous release’s database (issue 32)', () => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.destroy());

  it('saves it with pg_dump, then applies the new migrations and serves', async () => {
    // An install migrated up to 0024 under its first, wrong time (one day late, after 0025–0029 were
    // made): drizzle alone would skip every later migration on it.
    database = await createTestDatabase('postgres');
    await database.db.execute(sql`drop schema public cascade`);
    await database.db.execute(sql`drop schema drizzle cascade`);
    await database.db.execute(sql`create schema public`);
    const previous = path.join(tmp, 'previous-migrations');
    fs.cpSync(migrationsFolder, previous, { recursive: true });
    const journalFile = path.join(previous, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string; when: number }[] };
    const upTo = journal.entries.findIndex((e) => e.tag === '0024_quote_number');
    journal.entries = journal.entries.slice(0, upTo + 1);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const pool = new pg.Pool({ connectionString: database.url! });
    try {
      await migrate(drizzle({ client: pool }), { migrationsFolder: previous });
    } finally {
      await pool.end();
    }
    await database.db.execute(
      sql`update drizzle.__drizzle_migrations set created_at = 1795621275918 where created_at = ${journal.entries[upTo]!.when}`,
    );

    const dataDir = path.join(tmp, 'upgrade');
    const port = await freePort();
    const proc = startServerProcess({ DATABASE_URL: database.url!, DATA_DIR: dataDir, PORT: String(port) });
    try {
      await waitForHealth(port, proc, 40_000);
      const [dump] = fs.readdirSync(path.join(dataDir, 'backups')).filter((f) => f.endsWith('.dump'));
      expect(dump).toMatch(/^before-upgrade-.*\.dump$/);
      expect(proc.output()).toContain(
        `Before the upgrade the database was saved to ${path.join(dataDir, 'backups', dump!)}`,
      );
      const record = JSON.parse(
        fs.readFileSync(path.join(dataDir, 'backups', dump!.replace(/\.dump$/, '.json')), 'utf8'),
      ) as { fromMigration: string; toMigration: string };
      expect(record.fromMigration).toBe(new Date(journal.entries[upTo]!.when).toISOString());
      expect(record.toMigration).toBe(new Date(knownLastMigration()).toISOString());
      // Every later migration was applied: 0029's columns are there.
      expect(await lastAppliedMigration(database.db as never)).toBe(knownLastMigration());
      const column = (await database.db.execute(
        sql`select count(*)::int as n from information_schema.columns where table_name = 'clients' and column_name = 'billing_street'`,
      )) as unknown as { rows: { n: number }[] };
      expect(column.rows[0]!.n).toBe(1);
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
  });
});

describe.each(dbKinds)('start, sign in, restart (%s)', (kind) => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.destroy());

  it('prints the first admin once, keeps data across a restart, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(tmp, kind);
    const env: Record<string, string> = { DATA_DIR: dataDir, HOST: '127.0.0.1' };
    if (kind === 'postgres') {
      database = await createTestDatabase('postgres');
      env.DATABASE_URL = database.url!;
    }
    const port = await freePort();
    const first = startServerProcess({ ...env, PORT: String(port) });
    // Started from source: tens of seconds on a loaded 2-core host.
    await waitForHealth(port, first, 40_000);
    const match = /username: (\S+)\s*│\s*\n│\s+password: (\S+)/.exec(first.output());
    expect(match, first.output()).not.toBeNull();
    const [, username, password] = match!;
    const login = () =>
      fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
    expect((await login()).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = startServerProcess({ ...env, PORT: String(port) });
    await waitForHealth(port, second, 40_000);
    expect(second.output()).not.toContain('password:');
    const res = await login();
    expect(res.status).toBe(200);
    expect((await res.json()).role).toBe('admin');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    // Two starts of the real server as processes (the first makes its embedded database): 28 s on a busy
    // 2-core host, so the default 30 s was no margin.
  }, 120_000);
});
