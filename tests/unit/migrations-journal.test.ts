import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/versions';

// drizzle applies only the migrations made after the newest one a database has (by the journal's
// `when`), so a migration dated after a later one makes every database that has it skip the rest.
describe('the migrations journal', () => {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string; when: number }[];
  };

  it('dates every migration after the one before it, and numbers them in order', () => {
    journal.entries.forEach((entry, i) => {
      expect(entry.idx, entry.tag).toBe(i);
      expect(entry.tag.startsWith(String(i).padStart(4, '0')), entry.tag).toBe(true);
      if (i > 0)
        expect(entry.when, `${entry.tag} is dated before ${journal.entries[i - 1]!.tag}`).toBeGreaterThan(
          journal.entries[i - 1]!.when,
        );
    });
  });

  it('has a SQL file for each entry and no SQL file without one', () => {
    const files = fs.readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql'));
    expect(files.sort()).toEqual(journal.entries.map((e) => `${e.tag}.sql`).sort());
  });
});
