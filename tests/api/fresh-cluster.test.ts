import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-cluster-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The number initdb gives a cluster: two databases share it only when one started from the other's files. */
async function systemIdentifier(database: Database): Promise<string> {
  const result = (await database.db.execute(sql`select system_identifier::text as id from pg_control_system()`)) as {
    rows: { id: string }[];
  };
  return result.rows[0]!.id;
}

// Decision 027 (session 15): a new embedded database starts from the cluster the first one kept, not from initdb.
describe('a new embedded database starts from the cluster the first one kept', () => {
  it('keeps the first cluster, starts the next from it on disk, and makes a new one when the copy is damaged', async () => {
    const clusterFile = path.join(tmp, 'cache', 'cluster.tar');
    const first = await openDatabase({ dataDir: 'memory://', clusterFile });
    const firstId = await systemIdentifier(first);
    await first.close();
    expect(fs.statSync(clusterFile).size).toBeGreaterThan(1_000_000);
    expect(fs.readdirSync(path.dirname(clusterFile))).toEqual(['cluster.tar']);

    // A new data directory on disk: the same cluster, migrated and kept across a restart.
    const dataDir = path.join(tmp, 'data');
    const second = await openDatabase({ dataDir, clusterFile });
    expect(await systemIdentifier(second)).toBe(firstId);
    await second.migrate();
    await second.db.execute(sql`insert into clients (id, name, email) values ('c1', 'Kept Client', 'kept@home.test')`);
    await second.close();
    const reopened = await openDatabase({ dataDir, clusterFile });
    const rows = (await reopened.db.execute(sql`select name from clients`)) as { rows: { name: string }[] };
    expect(rows.rows).toEqual([{ name: 'Kept Client' }]);
    await reopened.close();

    // A damaged copy is forgotten: the database is made by initdb, and its cluster kept instead.
    fs.writeFileSync(clusterFile, 'not a cluster');
    const third = await openDatabase({ dataDir: path.join(tmp, 'after-damage'), clusterFile });
    const thirdId = await systemIdentifier(third);
    expect(thirdId).not.toBe(firstId);
    await third.migrate();
    await third.close();
    expect(fs.statSync(clusterFile).size).toBeGreaterThan(1_000_000);
    const fourth = await openDatabase({ dataDir: 'memory://', clusterFile });
    expect(await systemIdentifier(fourth)).toBe(thirdId);
    await fourth.close();
  }, 120_000);
});
