// Issue 11, item 4: only failed sign-ins count, per username and address; a looser per-username
// limit across addresses slows an attacker and tells the user once; nobody can lock the owner out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '#shared/messages';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { counterStores, freshRedisUrl } from '../helpers/redis';
import { routeDbKind } from '../helpers/test-db';
import { updateUserEmail } from './support';

describe.each(counterStores)('sign-in limits (counters in %s)', (store) => {
  let t: TestApp & { smtp: TestSmtpServer };
  beforeAll(async () => {
    const redis: Record<string, string> = store === 'redis' ? { REDIS_URL: await freshRedisUrl(3) } : {};
    t = await createMailingTestApp(routeDbKind, {
      LOGIN_RATE_LIMIT_MAX: '10',
      LOGIN_USER_RATE_LIMIT_MAX: '25',
      ...redis,
    });
  });
  afterAll(() => t.close());

  const signIn = (username: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: ip, payload: { username, password } });

  it('ten wrong passwords from one address do not lock the owner out from another', async () => {
    const { user, password } = await createUserAndSignIn(t, 'admin', { username: 'owner1' });
    const wrong: number[] = [];
    for (let i = 0; i < 11; i++)
      wrong.push((await signIn(user.username, 'not-the-password', '198.51.100.10')).statusCode);
    expect(wrong).toEqual([...Array(10).fill(401), 429]);
    const limited = await signIn(user.username, password, '198.51.100.10');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: messages.tooManyAttempts,
      code: 'RATE_LIMITED',
    });
    expect((await signIn(user.username, password, '203.0.113.10')).statusCode).toBe(200);
  });

  it('successful sign-ins do not count: a crew signing in all day from the shop Wi-Fi is never limited', async () => {
    const crew = await Promise.all([1, 2, 3].map((i) => createUserAndSignIn(t, 'employee', { username: `crew${i}` })));
    for (let round = 0; round < 8; round++) {
      for (const member of crew)
        expect((await signIn(member.user.username, member.password, '192.0.2.50')).statusCode).toBe(200);
    }
  });

  it('a successful sign-in clears its own failures', async () => {
    const { user, password } = await createUserAndSignIn(t, 'employee', { username: 'forgetful' });
    for (let i = 0; i < 9; i++) expect((await signIn(user.username, 'typo-typo', '192.0.2.60')).statusCode).toBe(401);
    expect((await signIn(user.username, password, '192.0.2.60')).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await signIn(user.username, 'typo-typo', '192.0.2.60')).statusCode).toBe(401);
    expect((await signIn(user.username, password, '192.0.2.60')).statusCode).toBe(200);
  });

  it('parallel guesses cannot slip past the limit', async () => {
    const { user } = await createUserAndSignIn(t, 'employee', { username: 'parallel' });
    const results = await Promise.all(
      Array.from({ length: 30 }, () => signIn(user.username, 'guess-guess', '198.51.100.20')),
    );
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(20);
  });

  it('guesses spread over many addresses trip the per-username limit, and the owner is e-mailed once', async () => {
    const { user, password } = await createUserAndSignIn(t, 'admin', { username: 'targeted' });
    await updateUserEmail(t, user.id, 'targeted@handyman.test');
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await signIn(user.username, `guess-${i}`, `10.20.${i}.1`)).statusCode);
    expect(codes.slice(0, 25).every((c) => c === 401)).toBe(true);
    expect(codes.slice(25).every((c) => c === 429)).toBe(true);
    // Issue 25, item 5: one digest per window in all, to the owner's notices, no typed text in the subject.
    const alert = await waitFor(() => t.smtp.to('owner@handyman.test')[0], { what: 'alert e-mail' });
    expect(alert.parsed.subject).toMatch(/: many failed sign-ins$/);
    expect(alert.parsed.subject).not.toContain('targeted');
    expect(alert.parsed.text).toContain('25 failed attempts to sign in as "targeted"');
    await new Promise((r) => setTimeout(r, 300));
    expect(t.smtp.to('owner@handyman.test')).toHaveLength(1);
    // Issue 25, item 4 changed this: the owner, from an address without failures, gets in with the
    // right password (it used to wait out the window).
    expect((await signIn(user.username, password, '203.0.113.30')).statusCode).toBe(200);
    // A guessing address that already failed is still refused.
    expect((await signIn(user.username, password, '10.20.3.1')).statusCode).toBe(429);
  });

  it('one address guessing many usernames is slowed down too', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 27; i++) codes.push((await signIn(`nobody${i}`, 'guess-guess', '198.51.100.99')).statusCode);
    expect(codes.slice(0, 25).every((c) => c === 401)).toBe(true);
    expect(codes.slice(25)).toEqual([429, 429]);
  });
});
