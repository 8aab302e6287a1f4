import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/server/db/client';
import { selectKinds, type DbKind } from './test-databases';

export type { DbKind };

/**
 * The databases a test runs on: PGlite always, the real PostgreSQL server too when TEST_DATABASE_URL is
 * set. `TEST_DATABASES` (a comma list: `pglite`, `postgres`) keeps only those named: `.ci/run` runs the
 * PostgreSQL halves on Node.js 20 and the PGlite halves on Node.js 24, so each test meets each database
 * once (decision 027, session 40).
 */
export const dbKinds: DbKind[] = selectKinds(
  process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'],
  process.env.TEST_DATABASES,
);

/**
 * For a test about routes rather than databases: the first database this run meets (PGlite, unless
 * TEST_DATABASES leaves it out, as .ci/run's Node.js 20 pass does: there it runs on PostgreSQL).
 */
export const routeDbKind: DbKind = dbKinds[0]!;

export interface TestDatabase extends Database {
  /** postgres:// URL of this test's own database (postgres kind only). */
  url?: string;
  /** Closes and, for PostgreSQL, drops the database. */
  destroy(): Promise<void>;
}

/**
 * The migrated templates made once by Vitest's global setup (tests/helpers/db-template.ts), when
 * there is one: outside Vitest (the bench) every database is migrated from nothing.
 */
async function templates(): Promise<{ pglite?: string | undefined; postgres?: string | undefined }> {
  if (!process.env.VITEST) return {};
  const { inject } = await import('vitest');
  return { pglite: inject('pgliteTemplate'), postgres: inject('postgresTemplate') };
}

let pgliteTemplate: Buffer | undefined;

/**
 * A fresh, migrated database of its own: in-memory PGlite, or a new database on the server. With
 * `migrations`, a folder of an earlier release's migrations (tests/helpers/migration-folders.ts), it is
 * migrated from nothing with those only: the database as that release left it.
 */
export async function createTestDatabase(
  kind: DbKind,
  options: { dataDir?: string; migrations?: string } = {},
): Promise<TestDatabase> {
  const template = options.migrations ? {} : await templates();
  if (kind === 'pglite') {
    const dataDir = options.dataDir ?? 'memory://';
    // A data directory that already holds a database (a restart) opens as it is.
    const fresh = dataDir.startsWith('memory://') || !fs.existsSync(dataDir) || fs.readdirSync(dataDir).length === 0;
    if (template.pglite && fresh) pgliteTemplate ??= fs.readFileSync(template.pglite);
    const database = await openDatabase({
      dataDir,
      loadDataDir: template.pglite && fresh ? pgliteTemplate : undefined,
    });
    // Already migrated when loaded from the template (then this only reads the migrations table).
    await database.migrate(options.migrations);
    return { ...database, destroy: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `hm_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (c) =>
    c.query(template.postgres ? `create database ${name} template ${template.postgres}` : `create database ${name}`),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  await database.migrate(options.migrations);
  return {
    ...database,
    url: url.toString(),
    async destroy() {
      await database.close();
      await withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

export async function withAdmin(url: string, fn: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}
