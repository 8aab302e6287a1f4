import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { projectRoot } from '../paths';

/** The migrations this version of the code carries (drizzle's folder and journal). */
export const migrationsFolder = path.join(projectRoot, 'src/server/db/migrations');

type AnyDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** When the newest migration this version of the code knows was made (its journal's `when`). */
export function knownLastMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((e) => e.when));
}

/** Whether drizzle has ever migrated this database (its table of applied migrations exists). */
async function hasMigrationsTable(db: AnyDb): Promise<boolean> {
  const result = (await db.execute(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as yes`,
  )) as unknown as { rows: { yes: boolean }[] };
  return result.rows[0]?.yes === true;
}

/** When the newest migration applied to this database was made; 0 for a database never migrated. */
export async function lastAppliedMigration(db: AnyDb): Promise<number> {
  if (!(await hasMigrationsTable(db))) return 0;
  const result = (await db.execute(
    sql`select coalesce(max(created_at), 0)::text as at from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { at: string }[] };
  return Number(result.rows[0]?.at ?? 0);
}

/**
 * Migration 0024 was first written with a time one day after it was made (2026-11-25T15:41, after
 * 0025–0029). drizzle applies only the migrations made after the newest one a database has, so a
 * database that had 0024 would have skipped every later migration (and every new one until that
 * day). The journal now has its true time; a database that applied it under the old one is given it.
 */
const MISDATED = [{ was: 1795621275918, is: 1795538475918 }];

/** Puts right the times of migrations applied under a wrong one (see MISDATED), before migrating. */
export async function repairMigrationTimes(db: AnyDb): Promise<void> {
  if (!(await hasMigrationsTable(db))) return;
  for (const { was, is } of MISDATED)
    await db.execute(sql`update drizzle.__drizzle_migrations set created_at = ${is} where created_at = ${was}`);
}

/** The database was upgraded by a newer version of the product than this one. */
export class NewerDatabaseError extends Error {
  constructor(appliedAt: number) {
    super(
      `This database was upgraded by a newer version of the product (its last migration is from ` +
        `${new Date(appliedAt).toISOString().slice(0, 10)}, newer than any this version knows). Nothing was ` +
        `changed: start that version or a later one, or restore a backup made by this one.`,
    );
    this.name = 'NewerDatabaseError';
  }
}

/**
 * Refuses a database from a newer version before migrating it: drizzle would apply nothing and the
 * older code would run against tables it does not know (issue 32: no silent downgrade).
 */
export async function refuseNewerDatabase(db: AnyDb): Promise<void> {
  await repairMigrationTimes(db);
  const applied = await lastAppliedMigration(db);
  if (applied > knownLastMigration()) throw new NewerDatabaseError(applied);
}

/** How many migrations this database has applied, how many this code carries, and the newest applied's name. */
export async function migrationState(db: AnyDb): Promise<{ applied: number; known: number; newest: string | null }> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  if (!(await hasMigrationsTable(db))) return { applied: 0, known: journal.entries.length, newest: null };
  const result = (await db.execute(
    sql`select count(*)::int as applied, coalesce(max(created_at), 0)::text as at from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { applied: number; at: string }[] };
  const row = result.rows[0];
  const newest = journal.entries.find((entry) => entry.when === Number(row?.at ?? 0));
  return { applied: Number(row?.applied ?? 0), known: journal.entries.length, newest: newest?.tag ?? null };
}
