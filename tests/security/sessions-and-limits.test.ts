// Issue 11, item 7: sessions end on the server, weak passwords are refused, slow clients are cut
// off, and the status lookup has a per-address limit.
import net from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import { WEAK_PASSWORD } from '../../src/server/lib/password-policy';
import { messages } from '#shared/messages';
import { bearer, createTestApp, createUserAndSignIn, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app';
import { dbKinds, routeDbKind } from '../helpers/test-db';

describe.each(dbKinds)('sessions (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const role = (token: string) => t.app.inject({ method: 'GET', url: '/api/login/user-role', headers: bearer(token) });
  const myJobs = (token: string) => t.app.inject({ method: 'GET', url: '/api/my/jobs', headers: bearer(token) });

  it('signing out ends the session on the server: the same token is refused afterwards', async () => {
    const { token, user, password } = await createUserAndSignIn(t, 'employee');
    // A second sign-in (another device) is a session of its own.
    const other = (
      await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: user.username, password } })
    ).json().token as string;
    expect((await myJobs(token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    expect((await myJobs(token)).statusCode).toBe(401);
    expect((await role(token)).statusCode).toBe(401);
    expect((await myJobs(other)).statusCode).toBe(200);
  });

  it('an admin ends all of a user’s sessions at once', async () => {
    const admin = await createUserAndSignIn(t, 'admin');
    const crew = await createUserAndSignIn(t, 'employee');
    const second = (
      await t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: crew.user.username, password: crew.password },
      })
    ).json().token as string;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/users/${crew.user.id}/end-sessions`,
      headers: bearer(admin.token),
    });
    expect(res.json()).toEqual({ ended: 2 });
    expect((await myJobs(crew.token)).statusCode).toBe(401);
    expect((await myJobs(second)).statusCode).toBe(401);
    expect((await myJobs(admin.token)).statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: crew.user.username, password: crew.password },
    });
    expect((await myJobs(again.json().token)).statusCode).toBe(200);
  });

  it('refuses a correctly signed token that has no expiry', async () => {
    const { token, user } = await createUserAndSignIn(t, 'admin');
    const { sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
    const forever = await new SignJWT({ ver: user.tokenVersion, sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setAudience('staff')
      .setIssuedAt()
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect((await myJobs(forever)).statusCode).toBe(401);
    expect((await myJobs(token)).statusCode).toBe(200);
  });
});

describe('weak passwords', () => {
  let t: TestApp;
  let admin: { token: string };
  beforeAll(async () => {
    t = await createTestApp(routeDbKind);
    admin = await createUserAndSignIn(t, 'admin');
  });
  afterAll(() => t.close());

  const add = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/adduser',
      headers: bearer(admin.token),
      payload: { username, password, role: 'admin', fullName: 'Maria Lopez', email: '', phone: '', tags: [] },
    });

  it('refuses common and trivially guessable passwords in the users form, naming the field', async () => {
    for (const weak of ['12345678', 'password', '        ', 'qwertyuiop', 'maria.lopez2', 'lopezmaria']) {
      const res = await add('maria.lopez', weak);
      expect(res.statusCode, weak).toBe(400);
      expect(res.json().message, weak).toBe(`password: ${WEAK_PASSWORD}`);
    }
    expect((await add('maria.lopez', 'paint-the-fence-blue')).statusCode).toBe(201);
  });

  it('refuses them when a password is changed too', async () => {
    const created = (await add('sam.smith', 'lantern-orchard-quiet')).json();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/updateuser',
      headers: bearer(admin.token),
      payload: { ...created, password: 'password1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`password: ${WEAK_PASSWORD}`);
  });

  it('refuses a weak ADMIN_PASSWORD at start-up', () => {
    expect(() => loadConfig({ ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: '12345678' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: 'password' })).toThrow(
      /ADMIN_PASSWORD: is too easy to guess/,
    );
    expect(loadConfig({ ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: 'river-stone-lantern' }).ADMIN_PASSWORD).toBe(
      'river-stone-lantern',
    );
  });
});

describe('slow clients and the status lookup', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp(routeDbKind, {
      env: { REQUEST_TIMEOUT_SECONDS: '3', HEADERS_TIMEOUT_SECONDS: '2', STATUS_RATE_LIMIT_MAX: '30' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Sends `head`, then one byte of `trickle` every 250 ms; resolves with what the server said and when it hung up. */
  const trickle = (head: string, body: string) =>
    new Promise<{ answer: string; seconds: number }>((resolve) => {
      const started = Date.now();
      let answer = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
      let i = 0;
      const timer = setInterval(() => {
        if (i < body.length && !socket.destroyed) socket.write(body[i++]!);
      }, 250);
      socket.on('data', (d) => (answer += d.toString()));
      const done = () => {
        clearInterval(timer);
        resolve({ answer, seconds: (Date.now() - started) / 1000 });
      };
      socket.on('close', done);
      socket.on('error', () => {});
      setTimeout(() => socket.destroy(), 15_000);
    });

  it('cuts off a body trickled slowly once the request time is up', async () => {
    const { answer, seconds } = await trickle(
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"firstName":"'.padEnd(1000, 'a'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(seconds).toBeLessThan(10);
  });

  it('cuts off headers trickled slowly', async () => {
    const { seconds } = await trickle('GET /api/health HTTP/1.1\r\n', 'X-Slow: '.padEnd(200, 'b'));
    expect(seconds).toBeLessThan(10);
  });

  it('limits status lookups per address', async () => {
    const lookup = (ip: string) =>
      t.app.inject({ method: 'GET', url: '/api/quoterequest/status/Q000000000', remoteAddress: ip });
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) codes.push((await lookup('198.51.100.77')).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 404)).toBe(true);
    expect(codes[30]).toBe(429);
    expect((await lookup('198.51.100.77')).json().message).toBe(messages.tooManyAttempts);
    expect((await lookup('198.51.100.78')).statusCode).toBe(404);
  });
});
