// Issue 33 (decision 042): a Crew lead takes Crew along on the visits they are booked on.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobWorkers, users } from '../../src/server/db/schema';
import { insertJob } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** A Monday well ahead: the visits are still to come whenever the suite runs. */
const MONDAY = '2031-03-03';

describe.each(dbKinds)('a Crew lead’s helpers (%s)', (kind) => {
  let t: TestApp;
  let office: Record<string, string>;
  type Person = { id: string; auth: Record<string, string> };
  let lead: Person;
  let otherLead: Person;
  let alex: Person;
  let sam: Person;
  let desk: Person;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const person = async (role: 'crew' | 'crew_lead' | 'office', fullName: string) => {
      const signedIn = await createUserAndSignIn(t, role);
      await t.database.db.update(users).set({ fullName }).where(eq(users.id, signedIn.user.id));
      return { id: signedIn.user.id, auth: bearer(signedIn.token) };
    };
    desk = await person('office', 'Dana Desk');
    office = desk.auth;
    lead = await person('crew_lead', 'Lee Lead');
    otherLead = await person('crew_lead', 'Lou Lead');
    alex = await person('crew', 'Alex Rivera');
    sam = await person('crew', 'Sam Ortiz');
    // Alex works Tuesdays only: a Monday visit warns about him.
    await t.database.db
      .update(users)
      .set({ schedule: [{ day: 'Tuesday', start: '08:00', end: '17:00' }] })
      .where(eq(users.id, alex.id));
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  let n = 0;
  /** A job with a visit the office booked for these workers, 9–12 or at the given hours. */
  async function bookedVisit(workerIds: string[], start = '09:00', end = '12:00') {
    const jobId = await insertJob(t, { name: `Helper Client ${++n}`, status: 'Not Started' });
    const booked = await call('POST', `/api/jobs/${jobId}/visits`, office, {
      date: MONDAY,
      start,
      end,
      workerIds,
      confirm: true,
    });
    expect(booked.statusCode, booked.body).toBe(201);
    return { jobId, visitId: booked.json()._id as string };
  }
  const names = (view: { workers: { fullName: string }[] }) => view.workers.map((w) => w.fullName).sort();

  it('shows a lead their coming visits of a job and the Crew they may add; anyone else is refused', async () => {
    const { jobId } = await bookedVisit([lead.id]);
    const crew = await call('GET', `/api/my/jobs/${jobId}/crew`, lead.auth);
    expect(crew.statusCode, crew.body).toBe(200);
    const view = crew.json();
    expect(view.visits.map(names)).toEqual([['Lee Lead']]);
    const helpers = view.helpers.map((h: { fullName: string }) => h.fullName);
    expect(helpers).toEqual(expect.arrayContaining(['Alex Rivera', 'Sam Ortiz']));
    expect(helpers).not.toContain('Lou Lead');
    expect(helpers).not.toContain('Dana Desk');
    for (const who of [sam.auth, office]) {
      const refused = await call('GET', `/api/my/jobs/${jobId}/crew`, who);
      expect(refused.json()).toMatchObject({ statusCode: 403, message: 'Only a Crew lead adds helpers to a visit' });
    }
    // A lead who is not on the job's visits sees none of them.
    expect((await call('GET', `/api/my/jobs/${jobId}/crew`, otherLead.auth)).json().visits).toEqual([]);
  });

  it('adds and removes helpers: they join the job, the other leads stay, a busy helper is warned about', async () => {
    const { jobId, visitId } = await bookedVisit([lead.id, otherLead.id]);
    const set = (helperIds: string[], confirm = false, who = lead) =>
      call('PUT', `/api/my/visits/${visitId}/helpers`, who.auth, { helperIds, confirm });

    // Alex does not work Mondays: warned, then added when confirmed.
    const warned = await set([alex.id, sam.id]);
    expect(warned.json()).toMatchObject({ statusCode: 409, code: 'VISIT_CONFLICT' });
    expect(warned.json().message).toContain('Alex Rivera does not work on Mondays');
    const added = await set([alex.id, sam.id], true);
    expect(added.statusCode, added.body).toBe(200);
    expect(names(added.json())).toEqual(['Alex Rivera', 'Lee Lead', 'Lou Lead', 'Sam Ortiz']);
    const onJob = await t.database.db.select().from(jobWorkers).where(eq(jobWorkers.jobId, jobId));
    expect(onJob.map((w) => w.userId)).toEqual(expect.arrayContaining([alex.id, sam.id]));
    // Sam sees the visit among their own now.
    const mine = await call('GET', `/api/my/visits?from=${MONDAY}T00:00:00Z&to=2031-03-05T00:00:00Z`, sam.auth);
    expect(mine.json().visits.map((v: { _id: string }) => v._id)).toContain(visitId);

    // Down to Sam: Alex leaves the visit, the other lead stays.
    const fewer = await set([sam.id]);
    expect(names(fewer.json())).toEqual(['Lee Lead', 'Lou Lead', 'Sam Ortiz']);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'Changed the helpers on a visit'), eq(auditLog.userId, lead.id)));
    expect(entry).toMatchObject({ kind: 'visits', target: visitId });

    // Only Crew are helpers; a visit the lead is not on answers like a missing one.
    for (const outsider of [otherLead.id, desk.id, 'no-such-user']) {
      const refused = await set([outsider]);
      expect(refused.json()).toMatchObject({
        statusCode: 400,
        message: 'helperIds: each helper must be a member of the Crew',
      });
    }
    const elsewhere = await bookedVisit([otherLead.id]);
    const notTheirs = await call('PUT', `/api/my/visits/${elsewhere.visitId}/helpers`, lead.auth, { helperIds: [] });
    expect(notTheirs.statusCode).toBe(404);
    const crewTries = await call('PUT', `/api/my/visits/${visitId}/helpers`, sam.auth, { helperIds: [] });
    expect(crewTries.statusCode).toBe(403);
  });

  it('warns about a helper booked elsewhere then, and refuses a cancelled visit', async () => {
    await bookedVisit([sam.id], '10:00', '11:00');
    const { visitId } = await bookedVisit([lead.id], '10:30', '12:30');
    const busy = await call('PUT', `/api/my/visits/${visitId}/helpers`, lead.auth, { helperIds: [sam.id] });
    expect(busy.json()).toMatchObject({ statusCode: 409, code: 'VISIT_CONFLICT' });
    expect(busy.json().message).toMatch(/Sam Ortiz is booked 10:00–11:00 that day \(Helper Client \d+\)/);
    const cancelled = await call('POST', `/api/visits/${visitId}/cancel`, office, { reason: 'Client away' });
    expect(cancelled.statusCode).toBe(200);
    const late = await call('PUT', `/api/my/visits/${visitId}/helpers`, lead.auth, { helperIds: [], confirm: true });
    expect(late.json()).toMatchObject({ statusCode: 409, code: 'VISIT_CANCELLED' });
  });

  it('two leads changing the same visit’s helpers at once, 20 times: each answer stands whole, one after the other', async () => {
    const { visitId } = await bookedVisit([lead.id, otherLead.id]);
    for (let round = 0; round < 20; round++) {
      const [a, b] = await Promise.all([
        call('PUT', `/api/my/visits/${visitId}/helpers`, lead.auth, { helperIds: [alex.id], confirm: true }),
        call('PUT', `/api/my/visits/${visitId}/helpers`, otherLead.auth, { helperIds: [sam.id], confirm: true }),
      ]);
      expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200]);
      const final = names((await call('GET', `/api/my/jobs/${a.json().jobId}/crew`, lead.auth)).json().visits[0]);
      expect([
        ['Alex Rivera', 'Lee Lead', 'Lou Lead'],
        ['Lee Lead', 'Lou Lead', 'Sam Ortiz'],
      ]).toContainEqual(final);
    }
  });
});
