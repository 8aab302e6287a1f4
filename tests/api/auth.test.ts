import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema';
import { messages } from '#shared/messages';
import { bearer, createTestApp, createUserAndSignIn, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { createSession } from '../../src/server/auth/sessions';

describe.each(dbKinds)('sign-in and tokens (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const role = (token?: string) =>
    t.app.inject({ method: 'GET', url: '/api/login/user-role', headers: token ? bearer(token) : {} });

  it('signs in with the right password and answers the role', async () => {
    const { token } = await createUserAndSignIn(t, 'employee', { username: 'Maria', password: 'paint-the-fence' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'maria', password: 'paint-the-fence' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'employee', token: expect.any(String) });
    const lookup = await role(token);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ valid: true, userRole: 'employee', teamRole: 'crew' });
  });

  it('refuses a wrong password or unknown user with the same answer', async () => {
    await createUserAndSignIn(t, 'admin', { username: 'boss', password: 'right password' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'boss', password: 'wrong password' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: 'nobody', password: 'wrong password' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        statusCode: 401,
        error: 'Unauthorized',
        message: messages.loginInvalid,
        code: 'UNAUTHORIZED',
      });
    }
  });

  it('names the missing field when the body is incomplete', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(`password: ${messages.loginRequired}`);
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('refuses missing, forged, alg:none and expired tokens', async () => {
    const { user } = await createUserAndSignIn(t, 'admin');
    const sid = await createSession(t.database.db, user.id, 1, { userAgent: '', ip: '' });
    const otherKey = new TextEncoder().encode('another-secret-another-secret-another-secret');
    const forged = await new SignJWT({ ver: 0, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('staff')
      .setExpirationTime('1h')
      .sign(otherKey);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ sub: user.id, ver: 0, sid, aud: 'staff', exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url')}.`;
    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const expired = await new SignJWT({ ver: 0, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('staff')
      .setIssuedAt(1)
      .setExpirationTime(2)
      .sign(key);
    const valid = await new SignJWT({ ver: 0, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setAudience('staff')
      .setExpirationTime('1h')
      .sign(key);
    expect((await role(valid)).statusCode).toBe(200);
    for (const token of [undefined, 'garbage', forged, none, expired]) {
      const res = await role(token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ valid: false, userRole: null });
    }
  });

  it('stops accepting a token once its user is deleted or their role changes', async () => {
    const deleted = await createUserAndSignIn(t, 'employee');
    await t.database.db.delete(users).where(eq(users.id, deleted.user.id));
    expect((await role(deleted.token)).statusCode).toBe(401);

    const demoted = await createUserAndSignIn(t, 'admin');
    await t.database.db.update(users).set({ teamRole: 'crew', tokenVersion: 1 }).where(eq(users.id, demoted.user.id));
    expect((await role(demoted.token)).statusCode).toBe(401);
  });
});
