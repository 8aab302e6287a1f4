import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { calendarFeeds } from '../../src/server/db/schema';
import { createTokenService } from '../../src/server/lib/tokens';
import { sealLegacyFeedTokens } from '../../src/server/users';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

// Issue 25.7: a calendar feed's secret address carries client names, phones, addresses and gate codes,
// so it ends with the access behind it: a worker's on sign-out everywhere, a new password or role and
// deletion (or when an admin resets it); the company's when an admin is demoted or deleted.
describe.each(dbKinds)('calendar feeds end with access (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const status = async (url: string) => (await t.app.inject({ method: 'GET', url: new URL(url).pathname })).statusCode;
  const myFeed = async (headers: Record<string, string>) =>
    (await send('GET', '/api/my/calendar-feed', headers)).json().url as string;
  const companyFeed = async (headers: Record<string, string> = admin) =>
    (await send('GET', '/api/calendar-feeds/company', headers)).json().url as string;

  /** A worker signed in afresh, with their feed's address and a check that it answers. */
  async function worker(role: 'employee' | 'admin' = 'employee') {
    const w = await createUserAndSignIn(t, role);
    const url = await myFeed(bearer(w.token));
    expect(await status(url)).toBe(200);
    return { ...w, url };
  }
  const signIn = async (username: string, password: string) =>
    bearer((await t.app.inject({ method: 'POST', url: '/api/login', payload: { username, password } })).json().token);
  const updateBody = (w: Awaited<ReturnType<typeof worker>>, change: object) => ({
    _id: w.user.id,
    username: w.user.username,
    fullName: w.user.fullName,
    role: w.user.role,
    tags: [],
    ...change,
  });

  it("signing a worker out everywhere ends their feed's address; the next one works", async () => {
    const w = await worker();
    expect((await send('POST', `/api/users/${w.user.id}/end-sessions`, admin, {})).statusCode).toBe(200);
    expect(await status(w.url)).toBe(404);
    const renewed = await myFeed(await signIn(w.user.username, w.password));
    expect(renewed).not.toBe(w.url);
    expect(await status(renewed)).toBe(200);
  });

  it("a new password ends the worker's feed address", async () => {
    const w = await worker();
    const password = 'a brand new passphrase 42';
    const res = await send('POST', '/api/users/updateuser', admin, updateBody(w, { password }));
    expect(res.statusCode).toBe(200);
    expect(await status(w.url)).toBe(404);
    const renewed = await myFeed(await signIn(w.user.username, password));
    expect(await status(renewed)).toBe(200);
  });

  it('a change of name alone keeps the address', async () => {
    const w = await worker();
    const res = await send('POST', '/api/users/updateuser', admin, updateBody(w, { fullName: 'Renamed Person' }));
    expect(res.statusCode).toBe(200);
    expect(await status(w.url)).toBe(200);
  });

  it("demoting an admin ends their feed and the company feed's address they could copy", async () => {
    const other = await worker('admin');
    const company = await companyFeed(bearer(other.token));
    expect(await status(company)).toBe(200);
    const res = await send('POST', '/api/users/updateuser', admin, updateBody(other, { role: 'employee' }));
    expect(res.statusCode).toBe(200);
    expect(await status(company)).toBe(404);
    expect(await status(other.url)).toBe(404);
    const renewed = await companyFeed();
    expect(renewed).not.toBe(company);
    expect(await status(renewed)).toBe(200);
    // The demoted one, signed in again, has a feed of their own and no company feed.
    const demoted = await signIn(other.user.username, other.password);
    expect(await status(await myFeed(demoted))).toBe(200);
    expect((await send('GET', '/api/calendar-feeds/company', demoted)).statusCode).toBe(403);
  });

  it("deleting an admin ends the company feed's address; deleting a worker ends theirs", async () => {
    const other = await worker('admin');
    const company = await companyFeed(bearer(other.token));
    const w = await worker();
    expect((await send('DELETE', `/api/users/${other.user.id}`, admin)).statusCode).toBe(200);
    expect(await status(company)).toBe(404);
    expect(await status(other.url)).toBe(404);
    expect(await status(await companyFeed())).toBe(200);
    const stillCompany = await companyFeed();
    expect((await send('DELETE', `/api/users/${w.user.id}`, admin)).statusCode).toBe(200);
    expect(await status(w.url)).toBe(404);
    // An employee's deletion leaves the company feed alone.
    expect(await status(stillCompany)).toBe(200);
  });

  it("an admin resets a worker's feed: the old address answers 404, the worker's next one works", async () => {
    const w = await worker();
    const company = await companyFeed();
    expect((await send('POST', `/api/users/${w.user.id}/calendar-feed/reset`, admin, {})).json()).toEqual({
      reset: true,
    });
    expect(await status(w.url)).toBe(404);
    const renewed = await myFeed(bearer(w.token));
    expect(renewed).not.toBe(w.url);
    expect(await status(renewed)).toBe(200);
    expect(await status(company)).toBe(200);
    expect((await send('POST', '/api/users/nobody/calendar-feed/reset', admin, {})).statusCode).toBe(404);
    expect((await send('POST', `/api/users/${w.user.id}/calendar-feed/reset`, bearer(w.token), {})).statusCode).toBe(
      403,
    );
  });

  const sealedRow = (owner: string, token: string, keys = t.app.tokens) => ({
    owner,
    tokenDigest: keys.digest('calendar-feed', token),
    tokenSealed: keys.seal('calendar-feed', token),
  });

  it('a feed row left behind by an account deleted before this fix answers 404', async () => {
    await t.database.db.insert(calendarFeeds).values(sealedRow('user:gone-long-ago', 'left-behind-token-1234567890'));
    expect((await t.app.inject({ method: 'GET', url: '/api/feeds/left-behind-token-1234567890.ics' })).statusCode).toBe(
      404,
    );
  });

  // Issue 25.3: a backup is the database; the feeds' addresses must not be readable from it.
  it('the database holds no feed address: only a keyed fingerprint and a sealed copy', async () => {
    const w = await worker();
    const company = await companyFeed();
    const tokens = [w.url, company].map((url) => /feeds\/([\w-]+)\.ics$/.exec(url)![1]!);
    const rows = JSON.stringify(await t.database.db.select().from(calendarFeeds));
    for (const token of tokens) expect(rows).not.toContain(token);
    expect(await status(company)).toBe(200);
    // Asked again, the same address (read back from the sealed copy).
    expect(await companyFeed()).toBe(company);
  });

  it("a worker's first feed asked for ten times at once is one address", async () => {
    const w = await createUserAndSignIn(t, 'employee');
    const urls = await Promise.all(Array.from({ length: 10 }, () => myFeed(bearer(w.token))));
    expect(new Set(urls).size).toBe(1);
    expect(await status(urls[0]!)).toBe(200);
    const rows = await t.database.db
      .select()
      .from(calendarFeeds)
      .where(eq(calendarFeeds.owner, `user:${w.user.id}`));
    expect(rows).toHaveLength(1);
  });

  it('restored on an install with another key, the old addresses open nothing and new ones are made', async () => {
    const company = await companyFeed();
    const other = createTokenService(new TextEncoder().encode('another install key, 32 characters long!'), 1);
    await t.database.db
      .update(calendarFeeds)
      .set(sealedRow('company', 'token-of-the-other-install-0001', other))
      .where(eq(calendarFeeds.owner, 'company'));
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/feeds/token-of-the-other-install-0001.ics' })).statusCode,
    ).toBe(404);
    const renewed = await companyFeed();
    expect(renewed).not.toBe(company);
    expect(await status(renewed)).toBe(200);
  });

  it('a feed made before tokens were sealed keeps its address after the upgrade, sealed at start-up', async () => {
    const legacy = 'legacy-plain-token-from-0022-abcdef';
    await t.database.db.delete(calendarFeeds).where(eq(calendarFeeds.owner, 'company'));
    await t.database.db.insert(calendarFeeds).values({ owner: 'company', legacyToken: legacy });
    expect(await sealLegacyFeedTokens(t.database.db, t.app.tokens)).toBe(1);
    const [row] = await t.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.owner, 'company'));
    expect(row!.legacyToken).toBeNull();
    expect(JSON.stringify(row)).not.toContain(legacy);
    expect(await companyFeed()).toMatch(new RegExp(`/api/feeds/${legacy}\\.ics$`));
    expect((await t.app.inject({ method: 'GET', url: `/api/feeds/${legacy}.ics` })).statusCode).toBe(200);
  });
});
