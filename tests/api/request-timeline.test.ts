import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordActivity } from '../../src/server/activity';
import { activityTimeline, TIMELINE_EARLIER_CAP, type ActivityTimeline } from '#shared/schemas/activity';
import { createQuoteRequest } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('a request’s timeline answers its newest steps (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
  const timeline = async (requestId: string, query = ''): Promise<ActivityTimeline> => {
    const res = await get(`/api/quoterequest/${requestId}/timeline${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return activityTimeline.parse(res.json());
  };
  /** A step's name as the test writes it: the request, "Step n" (a question), or the job. */
  const names = (timeline: ActivityTimeline) => timeline.events.map((e) => e.message ?? e.kind);

  /**
   * A request with `steps` questions between its creation a day ago and a job created now (the newest
   * step), written by the database; questions come two to a second, so pairs share a time and only
   * the order they were written in tells them apart.
   */
  async function requestWithSteps(steps: number) {
    const request = await createQuoteRequest(t);
    const db = t.database.db;
    await db.execute(sql`
      update quote_request_events set created_at = now() - interval '1 day' where quote_request_id = ${request._id}`);
    await db.execute(sql`
      insert into quote_request_events (id, quote_request_id, kind, actor, message, created_at)
      select ${request._id} || '-s' || n, ${request._id}, 'question', 'client', 'Step ' || n,
             date_trunc('second', now()) - interval '12 hours' + make_interval(secs => n / 2)
      from generate_series(1, ${steps}) n`);
    await recordActivity(db, { quoteRequestId: request._id, kind: 'job-created', actor: 'staff' });
    const all = ['request-created', ...Array.from({ length: steps }, (_, i) => `Step ${i + 1}`), 'job-created'];
    return { id: request._id, all };
  }

  let big: Awaited<ReturnType<typeof requestWithSteps>>;
  beforeAll(async () => {
    big = await requestWithSteps(618);
    expect(big.all).toHaveLength(620);
  });

  it('answers the newest 50 steps, oldest first, with the newest step and how many come earlier', async () => {
    const newest = await timeline(big.id);
    expect(newest.events).toHaveLength(50);
    expect(names(newest)).toEqual(big.all.slice(-50));
    expect(names(newest).at(-1)).toBe('job-created');
    expect(newest.earlier).toBe(570);
    const times = newest.events.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('answers the whole history with limit=1000, from the request on', async () => {
    const whole = await timeline(big.id, '?limit=1000');
    expect(names(whole)).toEqual(big.all);
    expect(whole.earlier).toBe(0);
    expect(names(await timeline(big.id, '?limit=620'))).toEqual(big.all);
    expect((await timeline(big.id, '?limit=619')).earlier).toBe(1);
  });

  it('goes back a page at a time from the oldest step shown, without a gap or a repeat where steps share a time', async () => {
    let page = await timeline(big.id);
    const seen = [names(page)];
    while (page.earlier > 0) {
      const before = page.events[0]!._id;
      const next = await timeline(big.id, `?limit=100&before=${encodeURIComponent(before)}`);
      expect(next.events.length).toBe(Math.min(100, page.earlier));
      expect(next.earlier).toBe(page.earlier - next.events.length);
      seen.unshift(names(next));
      page = next;
    }
    expect(seen.flat()).toEqual(big.all);
    expect(seen).toHaveLength(7); // 50, then 100 × 5, then the last 70
    expect(names(page)[0]).toBe('request-created');
  });

  it('answers nothing before a step of another request, or an unknown one', async () => {
    const other = await createQuoteRequest(t);
    const [own] = (await timeline(other._id)).events;
    expect(await timeline(big.id, `?before=${own!._id}`)).toEqual({ events: [], earlier: 0, canText: false });
    expect(await timeline(big.id, '?before=no-such-step')).toEqual({ events: [], earlier: 0, canText: false });
  });

  it('refuses a limit out of bounds or not a whole number, and a cursor too long', async () => {
    for (const query of ['?limit=0', '?limit=1001', '?limit=-5', '?limit=2.5', '?limit=abc', '?limit=', '?before=']) {
      const res = await get(`/api/quoterequest/${big.id}/timeline${query}`);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
    }
    const res = await get(`/api/quoterequest/${big.id}/timeline?before=${'x'.repeat(65)}`);
    expect(res.statusCode).toBe(400);
  });

  it(`counts earlier steps up to ${TIMELINE_EARLIER_CAP.toLocaleString('en-US')}`, async () => {
    const long = await requestWithSteps(TIMELINE_EARLIER_CAP + 100);
    const newest = await timeline(long.id);
    expect(names(newest)).toEqual(long.all.slice(-50));
    expect(newest.earlier).toBe(TIMELINE_EARLIER_CAP);
    const further = await timeline(long.id, `?limit=1000&before=${newest.events[0]!._id}`);
    expect(names(further)).toEqual(long.all.slice(-1050, -50));
    expect(further.earlier).toBe(long.all.length - 1050);
  });
});
