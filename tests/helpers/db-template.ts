import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client';
import { withAdmin } from './test-db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory as a tar file (its dumpDataDir), for every test file to load. */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database that each test's database is created from (TEST_DATABASE_URL only). */
    postgresTemplate: string;
  }
}

/**
 * Vitest global setup for the files that use databases: migrates a database once, before any file
 * runs, and hands it to them. Booting PGlite from nothing runs initdb (seconds of WebAssembly) and
 * then every migration, in every file; loading a migrated data directory skips both. On PostgreSQL,
 * each test's database is a copy of a migrated template (`create database … template …`).
 * See docs/decisions/027-a-suite-that-answers-in-minutes.md.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-db-template-'));
  const file = path.join(dir, 'migrated.tar');
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    fs.writeFileSync(file, await database.dumpDataDir!());
  } finally {
    await database.close();
  }
  project.provide('pgliteTemplate', file);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let template = '';
  if (adminUrl) {
    template = `hm_template_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await withAdmin(adminUrl, (c) => c.query(`create database ${template}`));
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const migrated = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    try {
      await migrated.migrate();
    } finally {
      // A template must have no connections while databases are copied from it.
      await migrated.close();
    }
    project.provide('postgresTemplate', template);
  }

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (adminUrl && template)
      await withAdmin(adminUrl, (c) => c.query(`drop database if exists ${template} with (force)`));
  };
}
