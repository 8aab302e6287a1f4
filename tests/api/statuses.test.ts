// Issue 12, item 6: the status lists live in src/shared/statuses.ts, and the database refuses any other value.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREW_JOB_MOVES, JOB_TRANSITIONS, nextCrewMove, QUOTE_REQUEST_TRANSITIONS } from '#shared/statuses';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe('status rules', () => {
  it('give the crew its next move, never a cancellation', () => {
    expect(nextCrewMove('Not Started')).toBe('In Progress');
    expect(nextCrewMove('In Progress')).toBe('Completed');
    expect(nextCrewMove('Completed')).toBeNull();
    expect(nextCrewMove('Cancelled')).toBeNull();
    for (const move of CREW_JOB_MOVES) expect(Object.values(JOB_TRANSITIONS).flat()).toContain(move);
    expect(QUOTE_REQUEST_TRANSITIONS.Pending).toEqual(['Accepted', 'Declined']);
  });
});

describe.each(dbKinds)('status columns (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const codeOf = (error: unknown) => {
    for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
      if (e.code) return e.code;
    return undefined;
  };

  it('refuse a value outside the lists (CHECK constraints)', async () => {
    const request = await createQuoteRequest(t);
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id });
    await createUserAndSignIn(t, 'employee');
    for (const statement of [
      sql`update jobs set status = 'Finished' where id = ${jobId}`,
      sql`update quote_requests set status = 'Maybe'`,
      sql`update quotes set status = 'Sure'`,
      sql`update users set team_role = 'boss'`,
    ]) {
      const error = await t.database.db.execute(statement).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(codeOf(error), String(statement.queryChunks[0])).toBe('23514');
    }
  });
});
