import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobChecklistItems, jobMaterials, jobRecords, jobTimeEntries } from '../../src/server/db/schema';
import { insertJob } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/**
 * Issue 25.8: the crew's record took the last write that arrived (a late start reopened a stopped timer,
 * an older note replaced a newer one), accepted five 24-hour entries on one day, and on PostgreSQL the
 * offline retry racing its first try answered 500. Decision 026: changes to one thing are ordered by
 * the phone's time and the change's id; a worker's day holds at most 24 hours.
 */
describe.each(dbKinds)('the order of the crew’s changes (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let worker: { id: string; auth: Record<string, string> };
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    const w = await createUserAndSignIn(t, 'employee');
    worker = { id: w.user.id, auth: bearer(w.token) };
  });
  afterAll(() => t.close());

  async function job() {
    const jobId = await insertJob(t);
    const assigned = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${jobId}/assign`,
      headers: admin,
      payload: { workers: [{ _id: worker.id }] },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    return jobId;
  }
  /** A change as the phone's queue sends it: its id and when it was made. */
  const change = (
    method: 'PUT' | 'DELETE',
    url: string,
    payload: object | undefined,
    made?: { id: string; at: Date },
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...worker.auth,
        ...(made ? { 'x-change-id': made.id, 'x-changed-at': made.at.toISOString() } : {}),
      },
      ...(payload ? { payload } : {}),
    });
  const made = (minutesAgo: number) => ({ id: randomUUID(), at: new Date(Date.now() - minutesAgo * 60_000) });
  const timeRows = (jobId: string) =>
    t.database.db.select().from(jobTimeEntries).where(eq(jobTimeEntries.jobId, jobId));

  it('answers 200 (never 500) to 30 copies of one change sent at once, and keeps one row', async () => {
    const jobId = await job();
    const base = `/api/my/jobs/${jobId}`;
    const cases = [
      { url: `${base}/checklist/${randomUUID()}`, body: { text: 'Prime the trim', done: true } },
      { url: `${base}/materials/${randomUUID()}`, body: { name: 'Caulk', quantity: 2 } },
      { url: `${base}/time/${randomUUID()}`, body: { kind: 'hours', workDate: '2026-11-20', hours: 2 } },
      {
        url: `${base}/time/${randomUUID()}`,
        body: { kind: 'timer', startedAt: new Date(Date.now() - 60_000).toISOString() },
      },
    ];
    for (const { url, body } of cases) {
      // The queue's retry carries the same change id; an older client sends none.
      for (const copy of [made(0), undefined]) {
        const target = copy ? url : url.replace(/[0-9a-f-]{36}$/, randomUUID());
        const answers = await Promise.all(Array.from({ length: 30 }, () => change('PUT', target, body, copy)));
        const codes = answers.map((a) => a.statusCode);
        expect(
          codes.every((c) => c === 200 || c === 409),
          `${target}: ${answers.find((a) => a.statusCode >= 500)?.body}`,
        ).toBe(true);
        expect(codes).toContain(200);
      }
    }
    const checklist = await t.database.db.select().from(jobChecklistItems).where(eq(jobChecklistItems.jobId, jobId));
    expect(checklist).toHaveLength(2);
    const materials = await t.database.db.select().from(jobMaterials).where(eq(jobMaterials.jobId, jobId));
    expect(materials).toHaveLength(2);
    const time = await timeRows(jobId);
    // Two hours entries and two timers (the second timer stopped the first).
    expect(time).toHaveLength(4);
    expect(time.filter((r) => r.minutes === 120)).toHaveLength(2);
  }, 120_000);

  it('a start that arrives after the stop does not run the timer again (with or without the phone’s time)', async () => {
    const jobId = await job();
    for (const withHeaders of [true, false]) {
      const id = randomUUID();
      const url = `/api/my/jobs/${jobId}/time/${id}`;
      const startedAt = new Date(Date.now() - 40 * 60_000).toISOString();
      const endedAt = new Date(Date.now() - 10 * 60_000).toISOString();
      const start = made(40);
      const stop = made(10);
      expect((await change('PUT', url, { kind: 'timer', startedAt }, withHeaders ? start : undefined)).statusCode).toBe(
        200,
      );
      expect(
        (await change('PUT', url, { kind: 'timer', startedAt, endedAt }, withHeaders ? stop : undefined)).statusCode,
      ).toBe(200);
      // The first try of the start, held up on the way, arrives last.
      const late = await change('PUT', url, { kind: 'timer', startedAt }, withHeaders ? start : undefined);
      expect(late.statusCode, late.body).toBe(200);
      const [row] = (await timeRows(jobId)).filter((r) => r.id === id);
      expect(row!.endedAt?.toISOString()).toBe(endedAt);
      expect(row!.minutes).toBe(30);
    }
  });

  it('an older note does not replace a newer one; the same change sent again lands once', async () => {
    const jobId = await job();
    const notes = (text: string, m: { id: string; at: Date }) =>
      change('PUT', `/api/my/jobs/${jobId}/notes`, { notes: text }, m);
    const older = made(5);
    const newer = made(1);
    expect((await notes('Gate hinge is rusted; bring a new one', newer)).statusCode).toBe(200);
    expect((await notes('Gate hinge', older)).statusCode).toBe(200);
    const stored = async () =>
      (await t.database.db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId)))[0]!.crewNotes;
    expect(await stored()).toBe('Gate hinge is rusted; bring a new one');
    // Same time, two phones: the change id decides, the same way on every server.
    const at = new Date(Date.now() - 30_000);
    const [low, high] = [randomUUID(), randomUUID()].sort();
    expect((await notes('from the high id', { id: high!, at })).statusCode).toBe(200);
    expect((await notes('from the low id', { id: low!, at })).statusCode).toBe(200);
    expect(await stored()).toBe('from the high id');
    const clientNote = (text: string, m: { id: string; at: Date }) =>
      change('PUT', `/api/my/jobs/${jobId}/client-note`, { note: text }, m);
    await clientNote('Thanks!', made(1));
    await clientNote('Thanks', made(3));
    const view = await t.app.inject({ method: 'GET', url: `/api/my/jobs/${jobId}/record`, headers: worker.auth });
    expect(view.json()).toMatchObject({ notes: 'from the high id', clientNote: 'Thanks!' });
  });

  it('an older edit does not bring back an item removed after it; a newer one changes it', async () => {
    const jobId = await job();
    const id = randomUUID();
    const url = `/api/my/jobs/${jobId}/checklist/${id}`;
    await change('PUT', url, { text: 'Patch the drywall', done: false }, made(10));
    expect((await change('DELETE', url, undefined, made(5))).statusCode).toBe(200);
    expect((await change('PUT', url, { text: 'Patch the drywall', done: true }, made(8))).statusCode).toBe(200);
    expect(await t.database.db.select().from(jobChecklistItems).where(eq(jobChecklistItems.id, id))).toHaveLength(0);
    const material = `/api/my/jobs/${jobId}/materials/${randomUUID()}`;
    await change('PUT', material, { name: 'Screws', quantity: 3 }, made(4));
    await change('PUT', material, { name: 'Screws', quantity: 1 }, made(6));
    const [row] = await t.database.db.select().from(jobMaterials).where(eq(jobMaterials.jobId, jobId));
    expect(Number(row!.quantity)).toBe(3);
  });

  it('refuses a change made in the future by more than a phone’s clock may be off', async () => {
    const jobId = await job();
    const res = await change('PUT', `/api/my/jobs/${jobId}/notes`, { notes: 'x' }, made(-60));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("x-changed-at: a change cannot be made in the future (check the phone's clock)");
    const ancient = await change(
      'PUT',
      `/api/my/jobs/${jobId}/notes`,
      { notes: 'x' },
      {
        id: randomUUID(),
        at: new Date('0000-01-01T00:00:00Z'),
      },
    );
    expect(ancient.statusCode, ancient.body).toBe(400);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/api/my/jobs/${jobId}/notes`,
      headers: { ...worker.auth, 'x-changed-at': 'yesterday', 'x-change-id': 'not-a-uuid' },
      payload: { notes: 'x' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('holds at most 24 hours of a worker’s time on one day, on all jobs together', async () => {
    const [first, second] = [await job(), await job()];
    const day = '2026-11-18';
    const hours = (jobId: string, h: number, workDate = day) =>
      change('PUT', `/api/my/jobs/${jobId}/time/${randomUUID()}`, { kind: 'hours', workDate, hours: h });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await hours(first, 24));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 409, 409, 409, 409]);
    expect(answers[1]!.json()).toMatchObject({
      code: 'DAY_FULL',
      message: `A day has at most 24 hours: ${day} already has 24 h of your time, so 24 h more is too much`,
    });
    const rows = await t.database.db.select().from(jobTimeEntries).where(eq(jobTimeEntries.workDate, day));
    expect(rows.reduce((sum, r) => sum + (r.minutes ?? 0), 0)).toBe(1440);
    // Changing an entry counts it once (not on top of itself); another day is free.
    const id = randomUUID();
    const other = '2026-11-19';
    const put = (h: number) =>
      change('PUT', `/api/my/jobs/${second}/time/${id}`, { kind: 'hours', workDate: other, hours: h });
    expect((await put(20)).statusCode).toBe(200);
    expect((await put(22)).statusCode).toBe(200);
    expect((await hours(second, 1, other)).statusCode).toBe(200);
    expect((await hours(first, 1.25, other)).statusCode).toBe(409);
    expect((await hours(first, 1, other)).statusCode).toBe(200);
    // At once, from two jobs: one gets the day.
    const third = '2026-11-17';
    const both = await Promise.all(
      [first, second].map((jobId) =>
        change('PUT', `/api/my/jobs/${jobId}/time/${randomUUID()}`, { kind: 'hours', workDate: third, hours: 16 }),
      ),
    );
    expect(both.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });
});
