import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../src/server/users/repository';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The calendar's and the figures' version rows are bumped once per transaction at its commit
// (migrations 0016, 0027). Two transactions that changed a calendar table and a figures table in
// opposite orders took the two rows in opposite orders, and deadlocked: a client's Accept answered 500
// in CI. Migration 0059 makes every transaction take them in one order. `SET CONSTRAINTS ALL IMMEDIATE`
// runs the deferred bumps at once, so the commits' order is played out step by step.
describe.each(dbKinds)('the version rows (%s)', (kind) => {
  let t: TestApp;
  afterEach(() => t.close());

  it('are taken in one order: figures-then-calendar and calendar-then-figures commit side by side', async () => {
    // The app seeds the settings row, which the figures' bump follows.
    t = await createTestApp(kind);
    const { db } = t.database;
    await insertUser(db, { username: 'crew-a', passwordHash: 'x', teamRole: 'crew' });
    await insertUser(db, { username: 'crew-b', passwordHash: 'x', teamRole: 'crew' });
    const touchFigures = sql`UPDATE settings SET business_name = business_name`;
    // Each its own person: the two wait for nothing of each other's but the version rows (and settings').
    const touchCalendar = (username: string) => sql`UPDATE users SET username = username WHERE username = ${username}`;
    const immediate = sql`SET CONSTRAINTS ALL IMMEDIATE`;
    const read = async () => {
      const result = (await db.execute(
        sql`SELECT (SELECT v FROM calendar_version) AS calendar, (SELECT v FROM figures_version) AS figures`,
      )) as unknown as { rows: { calendar: string | number; figures: string | number }[] };
      return result.rows[0]!;
    };
    const before = await read();

    let second: Promise<unknown> | undefined;
    // Each runs once: a deadlock would now be run again (db/client.ts), and pass unseen but for these.
    let runs = 0;
    const first = db.transaction(async (tx) => {
      runs += 1;
      await tx.execute(touchFigures);
      await tx.execute(immediate);
      // The other transaction changes the calendar first, then the figures.
      second = db.transaction(async (other) => {
        runs += 1;
        await other.execute(touchCalendar('crew-b'));
        await other.execute(immediate);
        await other.execute(touchFigures);
        await other.execute(immediate);
      });
      await pause(500);
      await tx.execute(touchCalendar('crew-a'));
      await tx.execute(immediate);
    });
    await first;
    await second;
    expect(runs).toBe(2);

    const after = await read();
    expect(Number(after.calendar) - Number(before.calendar)).toBe(2);
    expect(Number(after.figures) - Number(before.figures)).toBe(2);
  });
});
