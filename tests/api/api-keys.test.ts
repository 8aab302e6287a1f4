import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiKeyCreated, ApiKeyList } from '#shared/schemas/auth';
import { API_KEY_CALLS_PER_MINUTE, API_KEYS_PER_USER } from '../../src/server/auth/api-keys';
import { apiKeys, auditLog } from '../../src/server/db/schema';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('personal API keys (%s)', (kind) => {
  const open: TestApp[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });
  const start = async () => {
    const t = await createTestApp(kind);
    open.push(t);
    const admin = await createUserAndSignIn(t, 'admin');
    const make = (scope: 'read' | 'write', name = `Key ${scope}`) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/api-keys',
        headers: bearer(admin.token),
        payload: { name, scope },
      });
    return { t, admin, make };
  };

  it('makes a key shown once and kept hashed; a read key reads, a write key writes, a revoked key is refused', async () => {
    const { t, admin, make } = await start();
    const readRes = await make('read', 'Spreadsheet');
    expect(readRes.statusCode, readRes.body).toBe(201);
    expect(readRes.headers['cache-control']).toBe('no-store');
    const read = readRes.json<ApiKeyCreated>();
    expect(read.key).toMatch(/^hk_[\w-]{43}$/);
    expect(read).toMatchObject({
      name: 'Spreadsheet',
      scope: 'read',
      prefix: `${read.key.slice(0, 11)}…`,
      lastUsedAt: null,
    });
    const write = (await make('write', 'Zapier')).json<ApiKeyCreated>();

    // Kept as a hash: the key itself is nowhere in the table.
    const rows = await t.app.db.select().from(apiKeys).where(eq(apiKeys.userId, admin.user.id));
    expect(JSON.stringify(rows)).not.toContain(read.key.slice(3));
    const list = await t.app.inject({ method: 'GET', url: '/api/account/api-keys', headers: bearer(admin.token) });
    expect(list.json<ApiKeyList>().keys.map((k) => k.name)).toEqual(['Zapier', 'Spreadsheet']);
    expect(list.body).not.toContain(read.key);

    // Read: any GET its maker may make; nothing else.
    expect((await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer(read.key) })).statusCode).toBe(200);
    const entry = { kind: 'service', name: 'Gutter clean', unit: 'hour', unitPrice: 70, taxable: false };
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/price-book',
      headers: bearer(read.key),
      payload: entry,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This API key may only read');
    const written = await t.app.inject({
      method: 'POST',
      url: '/api/price-book',
      headers: bearer(write.key),
      payload: entry,
    });
    expect(written.statusCode, written.body).toBe(201);
    // The trail names the key's maker.
    const [made] = await t.app.db.select().from(auditLog).where(eq(auditLog.route, 'POST /api/price-book'));
    expect(made?.userId).toBe(admin.user.id);

    // Not the account's own routes: a key cannot make keys, end sessions or touch two-step sign-in.
    for (const [method, url] of [
      ['POST', '/api/account/api-keys'],
      ['GET', '/api/account/api-keys'],
      ['GET', '/api/account/sessions'],
      ['POST', '/api/logout'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: bearer(write.key),
        payload: { name: 'x', scope: 'write' },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }

    const used = (await t.app.inject({ method: 'GET', url: '/api/account/api-keys', headers: bearer(admin.token) }))
      .json<ApiKeyList>()
      .keys.find((k) => k._id === read._id)!;
    expect(Date.now() - Date.parse(used.lastUsedAt!)).toBeLessThan(60_000);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/api-keys/${read._id}`,
      headers: bearer(admin.token),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer(read.key) })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/account/api-keys/${read._id}`, headers: bearer(admin.token) }))
        .statusCode,
    ).toBe(404);
    const trail = await t.app.db.select().from(auditLog).where(eq(auditLog.userId, admin.user.id));
    expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(['Made an API key', 'Revoked an API key']));
    // A key follows its maker: demoted to crew, it opens the crew's routes only.
    await t.app.inject({
      method: 'POST',
      url: '/api/users/updateuser',
      headers: bearer((await createUserAndSignIn(t, 'admin')).token),
      payload: {
        _id: admin.user.id,
        username: admin.user.username,
        fullName: 'Was admin',
        email: '',
        phone: '',
        role: 'employee',
        tags: [],
      },
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer(write.key) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/my/jobs', headers: bearer(write.key) })).statusCode).toBe(
      200,
    );
  });

  it('refuses a key past its calls a minute, and another of the same maker goes on', async () => {
    const { make, t } = await start();
    const busy = (await make('read')).json<ApiKeyCreated>();
    const other = (await make('read')).json<ApiKeyCreated>();
    const answers: number[] = [];
    for (let i = 0; i <= API_KEY_CALLS_PER_MINUTE; i++)
      answers.push((await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer(busy.key) })).statusCode);
    const last = await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer(busy.key) });
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBe('60');
    expect((await t.app.inject({ method: 'GET', url: '/api/jobs', headers: bearer(other.key) })).statusCode).toBe(200);
  });

  it(`makes at most ${API_KEYS_PER_USER} live keys a person, even when asked for many at once`, async () => {
    const { make } = await start();
    const answers = await Promise.all(
      Array.from({ length: API_KEYS_PER_USER + 5 }, (_, i) => make('read', `Key ${i}`)),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(API_KEYS_PER_USER);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
  });

  it('shows the key scheme in the OpenAPI document, on the signed-in routes only', async () => {
    const { t } = await start();
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/jobs'].get.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(doc.paths['/api/health'].get.security).toBeUndefined();
  });
});
