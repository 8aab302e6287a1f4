import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '#shared/dates';
import type { TimeOffList, TimeOffView } from '#shared/schemas/time-off';
import { users } from '../../src/server/db/schema';
import { insertJob } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';

/** Issue 31: a worker's days off, which the office's booking warns of (booking windows skip them too). */
describe.each(dbKinds)('time off (%s)', (kind) => {
  let t: TestApp;
  let owner: Record<string, string>;
  let worker: { id: string; auth: Record<string, string> };
  let other: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = bearer((await createUserAndSignIn(t, 'admin')).token);
    const w = await createUserAndSignIn(t, 'employee');
    worker = { id: w.user.id, auth: bearer(w.token) };
    other = bearer((await createUserAndSignIn(t, 'employee')).token);
    await t.database.db.update(users).set({ fullName: 'Tia Timeoff' }).where(eq(users.id, w.user.id));
  });
  afterAll(() => t.close());

  const today = () => todayIn(ZONE);
  const add = (payload: object, headers = worker.auth) =>
    t.app.inject({ method: 'POST', url: '/api/my/time-off', headers, payload });
  const list = async (headers = worker.auth) =>
    (await t.app.inject({ method: 'GET', url: '/api/my/time-off', headers })).json<TimeOffList>().timeOff;

  it('adds days off, lists those to come, and refuses the past, a backwards stretch and more than a year', async () => {
    const from = addDays(today(), 10);
    const added = await add({ from, to: addDays(from, 2), reason: 'Family wedding' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<TimeOffView>()).toMatchObject({ from, to: addDays(from, 2), reason: 'Family wedding' });
    expect((await list()).map((o) => o.from)).toContain(from);
    expect(await list(other)).toEqual([]);

    const past = await add({ from: addDays(today(), -1), to: today() });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toContain('Time off starts today or later');
    const backwards = await add({ from, to: addDays(from, -1) });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('The last day must not be before the first');
    const long = await add({ from, to: addDays(from, 400) });
    expect(long.statusCode).toBe(400);
  });

  it('warns the office booking a worker on a day off, and a worker removes only their own', async () => {
    const day = addDays(today(), 20);
    const off = (await add({ from: day, to: day, reason: 'Dentist' })).json<TimeOffView>();
    const jobId = await insertJob(t);
    const book = (confirm: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/jobs/${jobId}/visits`,
        headers: owner,
        payload: { date: day, start: '09:00', end: '11:00', workerIds: [worker.id], confirm },
      });
    const warned = await book(false);
    expect(warned.statusCode).toBe(409);
    expect(warned.json()).toMatchObject({ code: 'VISIT_CONFLICT' });
    expect(warned.json().message).toMatch(/^Tia Timeoff is off .+ \(Dentist\)\. Book anyway\?$/);

    const theirs = await t.app.inject({ method: 'DELETE', url: `/api/my/time-off/${off._id}`, headers: other });
    expect(theirs.statusCode).toBe(404);
    const mine = await t.app.inject({ method: 'DELETE', url: `/api/my/time-off/${off._id}`, headers: worker.auth });
    expect(mine.statusCode).toBe(204);
    expect((await book(false)).statusCode).toBe(201);
  });
});
