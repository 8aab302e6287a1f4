import net from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CuttableProxy } from '../helpers/cuttable-proxy';
import { testRedisUrl, freshRedisUrl } from '../helpers/redis';
import { freePort } from '../helpers/server-process';
import { createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';

/**
 * Issue 25.8: with Redis down every rate limit was off, sign-ins took 7–10 s and /api/health said "ok".
 * Decision 026: the limits fall back to this process's memory, Redis gets a few hundred milliseconds
 * at most, and health says Redis is down.
 */

const limits = { RATE_LIMIT_MAX: '3', LOGIN_RATE_LIMIT_MAX: '3', LOGIN_USER_RATE_LIMIT_MAX: '1000' };
const contact = { firstName: 'Lee', lastName: 'Nguyen', email: 'lee@home.test', phone: '', message: 'Hello' };

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

/** What must hold whichever way Redis is gone: limits apply, answers are fast, health says so. */
async function expectWorkingWithoutRedis(t: TestApp, address: string) {
  const contacts = [];
  for (let i = 0; i < 5; i++) {
    const { value, ms } = await timed(() =>
      t.app.inject({ method: 'POST', url: '/api/contact', payload: contact, remoteAddress: address }),
    );
    expect(ms).toBeLessThan(1500);
    contacts.push(value.statusCode);
  }
  expect(contacts).toEqual([201, 201, 201, 429, 429]);

  const { user, password } = await createUserAndSignIn(t, 'employee');
  const signIn = (pass: string) =>
    timed(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: user.username, password: pass },
        remoteAddress: address,
      }),
    );
  const right = await signIn(password);
  expect(right.value.statusCode).toBe(200);
  expect(right.ms).toBeLessThan(1500);
  const wrong = [];
  for (let i = 0; i < 5; i++) wrong.push((await signIn('not the password')).value.statusCode);
  expect(wrong).toEqual([401, 401, 401, 429, 429]);

  const health = await t.app.inject({ method: 'GET', url: '/api/health' });
  expect(health.statusCode).toBe(200);
  expect(health.json()).toEqual({ status: 'degraded', database: 'up', databaseKind: 'pglite', redis: 'down' });
}

describe('Redis is gone: limits per process, fast answers, health says so', { timeout: 120_000 }, () => {
  let t: TestApp | undefined;
  const servers: net.Server[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((resolve) => s.close(resolve));
  });

  it('nothing listens at REDIS_URL (connection refused)', async () => {
    t = await createTestApp('pglite', { env: { ...limits, REDIS_URL: 'redis://127.0.0.1:1' } });
    await expectWorkingWithoutRedis(t, '203.0.113.1');
  });

  it('something at REDIS_URL accepts connections and never answers', async () => {
    const sockets = new Set<net.Socket>();
    const hole = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    servers.push(hole);
    // A port the system gives (a fixed one can be another file's, or an outgoing connection's, at that moment).
    await new Promise<void>((resolve, reject) => hole.once('error', reject).listen(0, '127.0.0.1', resolve));
    const { port } = hole.address() as net.AddressInfo;
    t = await createTestApp('pglite', { env: { ...limits, REDIS_URL: `redis://127.0.0.1:${port}` } });
    await expectWorkingWithoutRedis(t, '203.0.113.2');
    for (const s of sockets) s.destroy();
  });

  it.skipIf(!testRedisUrl)('Redis goes away mid-traffic and comes back: the limit holds throughout', async () => {
    const real = new URL(await freshRedisUrl(7));
    const proxy = new CuttableProxy(await freePort(), { host: real.hostname, port: Number(real.port || 6379) });
    await proxy.open();
    try {
      const via = new URL(real);
      via.port = String(proxy.port);
      t = await createTestApp('pglite', { env: { ...limits, REDIS_URL: via.toString() } });
      const health = async () => (await t!.app.inject({ method: 'GET', url: '/api/health' })).json();
      expect(await health()).toMatchObject({ status: 'ok', redis: 'up' });
      const send = async (address: string) =>
        (await t!.app.inject({ method: 'POST', url: '/api/contact', payload: contact, remoteAddress: address }))
          .statusCode;
      // Counted in Redis while it answers.
      expect([await send('203.0.113.3'), await send('203.0.113.3')]).toEqual([201, 201]);
      await proxy.cut();
      await new Promise((r) => setTimeout(r, 300));
      expect(await health()).toMatchObject({ status: 'degraded', redis: 'down' });
      const during = [];
      for (let i = 0; i < 5; i++) {
        const { value, ms } = await timed(() => send('203.0.113.4'));
        expect(ms).toBeLessThan(1500);
        during.push(value);
      }
      expect(during).toEqual([201, 201, 201, 429, 429]);
      await proxy.open();
      const deadline = Date.now() + 10_000;
      while ((await health()).redis !== 'up' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await health()).toMatchObject({ status: 'ok', redis: 'up' });
      // Shared again: the address counted in Redis before the cut has one left.
      expect([await send('203.0.113.3'), await send('203.0.113.3')]).toEqual([201, 429]);
    } finally {
      await proxy.cut();
    }
  });
});
