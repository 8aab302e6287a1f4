// Issue 27: the Activity page pages by time all the way back. `before` (the nextBefore of the page
// above) gives the entries strictly older than that page's last, in the list's order (at desc, seq
// desc), with the same filters: walking from the newest to the oldest shows every entry once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, zonedTimeToUtc } from '#shared/dates';
import { encodeAuditCursor } from '#shared/schemas/audit';
import { auditLog } from '../../src/server/db/schema';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

interface Page {
  entries: { _id: string; at: string }[];
  nextBefore: string | null;
  total: number;
  capped: boolean;
}

describe.each(dbKinds)('the trail paged by time (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let timeZone: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    timeZone = (await get('/api/settings')).json().timeZone;
    // 300 entries over six days of March 2001, by three people, of two kinds: every three hours six
    // entries, two at each of three instants a microsecond apart (one millisecond, as JavaScript
    // sees it), so pages end inside runs of equal times.
    await t.database.db.execute(sql`
      insert into ${auditLog} (id, at, user_id, actor_name, ip, kind, action, route)
      select 'keyset-' || g,
             timestamptz '2001-03-20 12:00:00+00' - make_interval(hours => (g / 6) * 3)
               + make_interval(secs => (g % 3) * 0.000001),
             'keyset-p' || (1 + (g / 2) % 3), 'Person ' || (1 + (g / 2) % 3), '203.0.113.5',
             (array['jobs', 'quotes'])[1 + (g / 3) % 2], 'Keyset action ' || g, 'PUT /api/seeded'
      from generate_series(1, 300) g`);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });

  /** From the first page (numbered) to the last by nextBefore: the ids in the order shown. */
  async function walk(query: Record<string, string>, limit: number): Promise<{ ids: string[]; pages: Page[] }> {
    const pages: Page[] = [];
    let before: string | null = null;
    do {
      const params = new URLSearchParams({ ...query, limit: String(limit), ...(before ? { before } : {}) });
      const res = await get(`/api/audit?${params.toString()}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Page;
      // A cursor is given only when something older matches: no empty page at the end.
      expect(page.entries.length).toBe(page.nextBefore ? limit : page.entries.length);
      expect(page.entries.length).toBeGreaterThan(0);
      pages.push(page);
      before = page.nextBefore;
      if (pages.length > 2000) throw new Error('the walk does not end');
    } while (before);
    return { ids: pages.flatMap((p) => p.entries.map((e) => e._id)), pages };
  }

  /** What the database holds for the same filters, in the list's order. */
  async function expected(where = sql`true`): Promise<string[]> {
    const result = (await t.database.db.execute(
      sql`select id from ${auditLog} where ${where} order by at desc, seq desc`,
    )) as unknown as { rows: { id: string }[] };
    return result.rows.map((r) => r.id);
  }

  const onceEach = (ids: string[]) => expect(new Set(ids).size).toBe(ids.length);

  it('walks the whole trail from the newest to the oldest, every entry once, in order', async () => {
    const all = await expected();
    expect(all.length).toBeGreaterThan(300);
    for (const limit of [1, 7, 50, 200]) {
      const { ids, pages } = await walk({}, limit);
      onceEach(ids);
      expect(ids, `limit ${limit}`).toEqual(all);
      expect(pages.at(-1)!.nextBefore).toBeNull();
    }
  });

  it('keeps the filters: a person, a kind, days, and all three', async () => {
    const person = await walk({ userId: 'keyset-p2' }, 4);
    expect(person.ids).toEqual(await expected(sql`user_id = 'keyset-p2'`));
    expect(person.ids).toHaveLength(100);

    const quotes = await walk({ kind: 'quotes' }, 9);
    expect(quotes.ids).toEqual(await expected(sql`kind = 'quotes'`));
    expect(quotes.ids.length).toBeGreaterThan(100);

    // Days in the business's time zone, both included, as the route reads them.
    const [from, to] = ['2001-03-16', '2001-03-18'];
    const start = zonedTimeToUtc(from, '00:00', timeZone).toISOString();
    const end = zonedTimeToUtc(addDays(to, 1), '00:00', timeZone).toISOString();
    const days = await walk({ from, to }, 8);
    expect(days.ids).toEqual(await expected(sql`at >= ${start}::timestamptz and at < ${end}::timestamptz`));
    expect(days.ids.length).toBeGreaterThan(20);

    const all = await walk({ userId: 'keyset-p1', kind: 'jobs', from, to }, 3);
    const wanted = await expected(
      sql`user_id = 'keyset-p1' and kind = 'jobs' and at >= ${start}::timestamptz and at < ${end}::timestamptz`,
    );
    expect(all.ids).toEqual(wanted);
    expect(wanted.length).toBeGreaterThan(5);
    onceEach(all.ids);
  });

  it('entries written at the same instant, or a microsecond apart, are neither skipped nor repeated', async () => {
    // Five at one instant, two a microsecond before it: the same millisecond to a JavaScript date.
    await t.database.db.execute(sql`
      insert into ${auditLog} (id, at, user_id, actor_name, ip, kind, action, route)
      select 'tie-' || g,
             timestamptz '2001-01-05 08:00:00.123456+00' - make_interval(secs => (g / 6) * 0.000001),
             'keyset-ties', 'Tied Person', '203.0.113.6', 'jobs', 'Tied action ' || g, 'PUT /api/seeded'
      from generate_series(1, 7) g`);
    const tied = await expected(sql`user_id = 'keyset-ties'`);
    // The newest first: the five at .123456 (the last written first), then the two at .123455.
    expect(tied).toEqual(['tie-5', 'tie-4', 'tie-3', 'tie-2', 'tie-1', 'tie-7', 'tie-6']);
    for (const limit of [1, 2, 3]) {
      const { ids, pages } = await walk({ userId: 'keyset-ties' }, limit);
      expect(ids, `limit ${limit}`).toEqual(tied);
      // Whole pages share one millisecond: the cursor is no coarser than the database.
      expect(new Set(pages[1]!.entries.map((e) => e.at)).size).toBe(1);
    }
  });

  it('a numbered page gives the cursor of the page after it; the last gives none', async () => {
    const page = (n: number) => get(`/api/audit?userId=keyset-p3&limit=10&page=${n}`).then((r) => r.json() as Page);
    const [second, third] = [await page(2), await page(3)];
    const after = (await get(`/api/audit?userId=keyset-p3&limit=10&before=${second.nextBefore}`)).json() as Page;
    expect(after.entries).toEqual(third.entries);
    expect(after).toMatchObject({ total: 100, capped: false });
    expect((await page(10)).nextBefore).toBeNull();
    // `page=1` beside a cursor is the default, and stays allowed.
    expect((await get(`/api/audit?userId=keyset-p3&limit=10&page=1&before=${second.nextBefore}`)).json()).toEqual(
      after,
    );
  });

  it('goes on past the 10,000 the numbered pages reach, to the oldest entry', async () => {
    await t.database.db.execute(sql`
      insert into ${auditLog} (id, at, user_id, actor_name, ip, kind, action, route)
      select 'many-' || g, timestamptz '2000-06-01 00:00:00+00' - make_interval(secs => g * 60),
             'keyset-many', 'Busy Person', '203.0.113.7', 'jobs', 'Many action ' || g, 'PUT /api/seeded'
      from generate_series(1, 10120) g`);
    const { ids, pages } = await walk({ userId: 'keyset-many' }, 200);
    expect(pages[0]).toMatchObject({ total: 10_000, capped: true });
    expect(pages.at(-1)).toMatchObject({ total: 10_000, capped: true, nextBefore: null });
    expect(ids).toHaveLength(10_120);
    onceEach(ids);
    expect(ids.at(-1)).toBe('many-10120');
    expect(ids).toEqual(await expected(sql`user_id = 'keyset-many'`));
  });

  it('a cursor that is not one the list gave is a 400 that says so', async () => {
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    const tampered = [
      'not a cursor',
      '%%%',
      cursor('2001-03-20T12:00:00.000000Z'),
      cursor('2001-03-20T12:00:00.000Z~12'), // milliseconds only
      cursor('2001-02-30T12:00:00.000000Z~12'), // no such day
      cursor('2001-03-20T25:00:00.000000Z~12'),
      cursor('0000-01-01T00:00:00.000000Z~12'),
      cursor('2001-03-20T12:00:00.000000Z~1234567890123456'), // past a safe integer's digits
      cursor('2001-03-20T12:00:00.000000Z~-1'),
      cursor("2001-03-20T12:00:00.000000Z~1' or 1=1 --"),
      `${encodeAuditCursor({ at: '2001-03-20T12:00:00.000000Z', seq: 12 })}x`,
      'A'.repeat(101),
    ];
    for (const before of tampered) {
      const res = await get(`/api/audit?before=${encodeURIComponent(before)}`);
      expect(res.statusCode, before).toBe(400);
      expect(res.json(), before).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/^before: Must be the nextBefore of an earlier page/),
      });
    }
    const good = encodeAuditCursor({ at: '2001-03-20T12:00:00.000000Z', seq: 12 });
    expect((await get(`/api/audit?before=${good}`)).statusCode).toBe(200);
    // A cursor is a place by time, not by position: with a page number too, which would it be?
    const both = await get(`/api/audit?before=${good}&page=2`);
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe('page: Give a page or a cursor (before), not both');
  });
});
