// Issue 25, items 4 and 5: sign-ins throttle guesses, not people; the owner is told once per window
// at most, only about accounts that exist, with nothing a guesser typed in the subject.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import type { CuttableProxy } from '../helpers/cuttable-proxy';
import { createProxiedPostgresApp } from '../helpers/proxied-postgres';
import { createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('guessing passwords (%s)', (kind) => {
  let t: TestApp & { smtp: TestSmtpServer };
  beforeAll(async () => {
    t = await createMailingTestApp(kind, { LOGIN_RATE_LIMIT_MAX: '10', LOGIN_USER_RATE_LIMIT_MAX: '25' });
  });
  afterAll(() => t.close());

  const signIn = (username: string, password: string, ip: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: ip,
      payload: { username, password },
      ...(cookie ? { headers: { cookie } } : {}),
    });
  /** The device cookie a successful sign-in leaves, as the browser sends it back. */
  const deviceCookie = (res: Awaited<ReturnType<typeof signIn>>) => {
    const header = String(res.headers['set-cookie'] ?? '');
    expect(header).toMatch(/^hm_device=[^;]+; Path=\/api\/login; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    return header.split(';')[0]!;
  };

  // First: the digest goes out once per window, and the other tests trip limits too.
  it('the owner is told once per window in all, only about accounts that exist, with no typed text in the subject', async () => {
    const before = t.smtp.to('owner@handyman.test').length;
    // Thirty addresses guessing a name nobody has: nobody is e-mailed.
    const junk = 'WIN A PRIZE at evil.example';
    for (let i = 0; i < 30; i++) await signIn(junk, 'guess', `10.40.${i}.1`);
    await new Promise((r) => setTimeout(r, 400));
    expect(t.smtp.to('owner@handyman.test')).toHaveLength(before);

    const first = await createUserAndSignIn(t, 'admin', { username: `first-${kind}` });
    const second = await createUserAndSignIn(t, 'admin', { username: `second-${kind}` });
    for (let i = 0; i < 26; i++) await signIn(first.user.username, 'guess', `10.41.${i}.1`);
    const alert = await waitFor(() => t.smtp.to('owner@handyman.test')[before], { what: 'the digest' });
    expect(alert.parsed.subject).toMatch(/^[^:]+: many failed sign-ins$/);
    expect(alert.parsed.text).toContain(`sign in as "${first.user.username}"`);
    for (let i = 0; i < 26; i++) await signIn(second.user.username, 'guess', `10.42.${i}.1`);
    await new Promise((r) => setTimeout(r, 400));
    const received = t.smtp.to('owner@handyman.test').slice(before);
    expect(received).toHaveLength(1);
    expect(JSON.stringify(received.map((m) => m.raw))).not.toContain('PRIZE');
  });

  it('a stranger cannot keep the owner out: clean addresses and a known browser get in, refusals do not count', async () => {
    const { user, password } = await createUserAndSignIn(t, 'admin', { username: `owner-${kind}` });
    const crew = await createUserAndSignIn(t, 'employee', { username: `crew-${kind}` });
    const home = await signIn(user.username, password, '192.0.2.1');
    expect(home.statusCode).toBe(200);
    const cookie = deviceCookie(home);
    const crewCookie = deviceCookie(await signIn(crew.user.username, crew.password, '192.0.2.2'));

    // One address: ten wrong passwords, then refusals, many of them.
    const codes: number[] = [];
    for (let i = 0; i < 70; i++) codes.push((await signIn(user.username, `guess-${i}`, '198.51.100.1')).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(codes.slice(10).every((c) => c === 429)).toBe(true);
    // The right password from that address, without the cookie, waits like a guess would.
    expect((await signIn(user.username, password, '198.51.100.1')).statusCode).toBe(429);
    // The refused 60 were not counted: another address is not held up by them ...
    expect((await signIn(user.username, 'guess-x', '198.51.100.2')).statusCode).toBe(401);
    // ... and the owner gets in from anywhere else, and from the guessing address with their browser.
    expect((await signIn(user.username, password, '203.0.113.1')).statusCode).toBe(200);
    expect((await signIn(user.username, password, '198.51.100.1', cookie)).statusCode).toBe(200);
    // Someone else's cookie or a made-up one does not open the way.
    expect((await signIn(user.username, password, '198.51.100.1', crewCookie)).statusCode).toBe(429);
    expect((await signIn(user.username, password, '198.51.100.1', 'hm_device=made.up.value')).statusCode).toBe(429);

    // Guesses spread over many addresses past the per-username limit (25): each failing address waits,
    // a clean address may try once, and the browser that signed in before is not held up at all.
    for (let i = 0; i < 30; i++) await signIn(user.username, `spread-${i}`, `10.30.${i}.1`);
    expect((await signIn(user.username, 'spread-again', '10.30.0.1')).statusCode).toBe(429);
    expect((await signIn(user.username, 'one-more', '10.31.0.1')).statusCode).toBe(429);
    expect((await signIn(user.username, password, '10.31.0.1')).statusCode).toBe(429);
    expect((await signIn(user.username, password, '10.30.5.1', cookie)).statusCode).toBe(200);
    expect((await signIn(user.username, password, '203.0.113.2')).statusCode).toBe(200);
  });

  it('a browser that signed in before has a limit of its own', async () => {
    const { user, password } = await createUserAndSignIn(t, 'employee', { username: `typo-${kind}` });
    const cookie = deviceCookie(await signIn(user.username, password, '192.0.2.20'));
    const codes: number[] = [];
    for (let i = 0; i < 11; i++)
      codes.push((await signIn(user.username, `typo-${i}`, '192.0.2.20', cookie)).statusCode);
    expect(codes).toEqual([...Array(10).fill(401), 429]);
    expect((await signIn(user.username, password, '192.0.2.20', cookie)).statusCode).toBe(429);
    // Its failures were its own: without the cookie, this address has none for the account.
    expect((await signIn(user.username, password, '192.0.2.20')).statusCode).toBe(200);
  });

  it('attempts that end in an error (the database gone) are not counted', async () => {
    const { user, password } = await createUserAndSignIn(t, 'employee', { username: `patient-${kind}` });
    const db = t.database.db;
    await db.execute(sql`alter table users rename to users_away`);
    const codes: number[] = [];
    try {
      for (let i = 0; i < 15; i++) codes.push((await signIn(user.username, password, '192.0.2.30')).statusCode);
    } finally {
      await db.execute(sql`alter table users_away rename to users`);
    }
    expect(codes.every((c) => c >= 500)).toBe(true);
    expect((await signIn(user.username, password, '192.0.2.30')).statusCode).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('sign-ins while the database is away (postgres)', () => {
  let proxied: Awaited<ReturnType<typeof createProxiedPostgresApp>>;
  let t: TestApp;
  let proxy: CuttableProxy;
  beforeAll(async () => {
    proxied = await createProxiedPostgresApp({ LOGIN_RATE_LIMIT_MAX: '10', LOGIN_USER_RATE_LIMIT_MAX: '25' });
    ({ t, proxy } = proxied);
  });
  afterAll(() => proxied.close());

  it('answers 503 and counts nothing: the owner signs in as soon as it is back', async () => {
    const { user, password } = await createUserAndSignIn(t, 'admin', { username: 'owner-outage' });
    const signIn = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '192.0.2.99',
        payload: { username: user.username, password },
      });
    await proxy.cut();
    const codes: number[] = [];
    for (let i = 0; i < 15; i++) codes.push((await signIn()).statusCode);
    expect(codes).toEqual(Array(15).fill(503));
    await proxy.open();
    await waitFor(async () => (await t.app.inject({ url: '/api/health' })).statusCode === 200, { what: 'recovery' });
    expect((await signIn()).statusCode).toBe(200);
  }, 60_000);
});
