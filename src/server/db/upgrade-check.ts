import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { describeError } from '../lib/safe-error';
import type { Database } from './client';
import {
  lastAppliedMigration,
  migrationsFolder as codeMigrations,
  NewerDatabaseError,
  repairMigrationTimes,
} from './versions';

type AnyDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** One migration an upgrade would apply: its name, what it does (each statement's first line), how long it took. */
export interface PendingMigration {
  tag: string;
  statements: string[];
  ms: number;
}

/** What `npm run upgrade:check` found: the migrations the next start would apply, tried and undone. */
export interface UpgradeCheck {
  /** The newest migration the database has (0: a new database). */
  from: number;
  /** The newest this code carries. */
  to: number;
  pending: PendingMigration[];
  totalMs: number;
  /** The migration that failed and why (the database is left as it was either way). */
  failure: { tag: string; message: string } | null;
}

/** Thrown inside the transaction to undo it once every migration was tried. */
class Undo extends Error {}

/** The journal's names of the migrations, by the time drizzle orders them by. */
function tagsOf(folder: string): Map<number, string> {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}

/** A statement as a person reads it in a report: its first line, without drizzle's breakpoint marks. */
const firstLine = (statement: string) => {
  const line = statement.trim().split('\n')[0]!.trim();
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
};

/**
 * Applies the migrations the next start would apply, inside one transaction that is then rolled back
 * (issue 32, decision 034): what they do, how long they take, and whether one fails, with nothing
 * changed. drizzle applies an upgrade's migrations in one transaction too, so a migration that fails
 * at start-up leaves the database as it was, as it does here.
 */
export async function checkUpgrade(database: Database, folder = codeMigrations): Promise<UpgradeCheck> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const tags = tagsOf(folder);
  const to = Math.max(...migrations.map((m) => m.folderMillis));
  const result: UpgradeCheck = { from: 0, to, pending: [], totalMs: 0, failure: null };
  const started = performance.now();
  try {
    await (database.db as unknown as AnyDb).transaction(async (tx) => {
      // The same repair the start makes, undone with the rest.
      await repairMigrationTimes(tx as never);
      result.from = await lastAppliedMigration(tx as never);
      if (result.from > to) throw new NewerDatabaseError(result.from);
      for (const migration of migrations) {
        if (migration.folderMillis <= result.from) continue;
        const tag = tags.get(migration.folderMillis) ?? String(migration.folderMillis);
        const at = performance.now();
        const step: PendingMigration = { tag, statements: migration.sql.map(firstLine).filter(Boolean), ms: 0 };
        result.pending.push(step);
        try {
          for (const statement of migration.sql) await tx.execute(sql.raw(statement));
        } catch (error) {
          result.failure = { tag, message: describeError(error) };
          throw new Undo();
        }
        step.ms = Math.round(performance.now() - at);
      }
      throw new Undo();
    });
  } catch (error) {
    if (!(error instanceof Undo)) throw error;
  }
  result.totalMs = Math.round(performance.now() - started);
  return result;
}

/** The report `npm run upgrade:check` prints. */
export function describeUpgradeCheck(check: UpgradeCheck, where: string): string {
  const day = (at: number) => (at ? new Date(at).toISOString().slice(0, 10) : 'none');
  if (check.pending.length === 0)
    return `${where} is up to date (its newest migration is from ${day(check.from)}): the next start changes nothing.`;
  const lines = [
    check.from === 0
      ? `${where} is new: the next start would create it with ${check.pending.length} migrations.`
      : `${where} has migrations up to ${day(check.from)}; the next start would apply ${check.pending.length}:`,
  ];
  for (const m of check.pending) {
    const failed = check.failure?.tag === m.tag;
    lines.push(`  ${m.tag}${failed ? ' FAILED' : ` (${m.ms} ms)`}`);
    for (const statement of m.statements) lines.push(`    ${statement}`);
  }
  lines.push(
    check.failure
      ? `The upgrade would fail at ${check.failure.tag}: ${check.failure.message}\nIt was tried in a transaction and undone: nothing was changed. Do not start this version on this database; keep the one it runs now and report the error.`
      : `All of it was tried in ${check.totalMs} ms, in a transaction that was then undone: nothing was changed.`,
  );
  return lines.join('\n');
}
