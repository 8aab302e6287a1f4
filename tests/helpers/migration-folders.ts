import fs from 'node:fs';
import path from 'node:path';
import { migrationsFolder } from '../../src/server/db/versions';

// Sets of migrations for upgrade tests (issue 32, decision 034), made from the code's own folder.

interface Journal {
  entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
}
const readJournal = (folder: string) =>
  JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as Journal;
const writeJournal = (folder: string, journal: Journal) =>
  fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify(journal, null, 2));

/** The code's migrations less the newest, in `folder`: the schema of the release before this one. */
export function previousRelease(folder: string): { folder: string; latest: string } {
  fs.cpSync(migrationsFolder, folder, { recursive: true });
  const journal = readJournal(folder);
  const latest = journal.entries.pop()!;
  fs.rmSync(path.join(folder, `${latest.tag}.sql`));
  writeJournal(folder, journal);
  return { folder, latest: latest.tag };
}

/** The code's migrations and one more that adds a column to users and then fails, in `folder`. */
export function brokenRelease(folder: string): { folder: string; broken: string } {
  fs.cpSync(migrationsFolder, folder, { recursive: true });
  const journal = readJournal(folder);
  const last = journal.entries.at(-1)!;
  const broken = '9999_broken_on_purpose';
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 60_000, tag: broken });
  fs.writeFileSync(
    path.join(folder, `${broken}.sql`),
    'ALTER TABLE "users" ADD COLUMN "half_way" text;--> statement-breakpoint\nSELECT * FROM "no_such_table";',
  );
  writeJournal(folder, journal);
  return { folder, broken };
}

/** The code's migrations up to and including `lastTag`, in `folder`: the schema as that release left it. */
export function releaseUpTo(folder: string, lastTag: string): string {
  fs.cpSync(migrationsFolder, folder, { recursive: true });
  const journal = readJournal(folder);
  const at = journal.entries.findIndex((e) => e.tag === lastTag);
  if (at < 0) throw new Error(`No migration ${lastTag}`);
  for (const later of journal.entries.splice(at + 1)) fs.rmSync(path.join(folder, `${later.tag}.sql`));
  writeJournal(folder, journal);
  return folder;
}
