import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import type { TwoStepEnrolment, TwoStepState } from '#shared/schemas/two-step';
import { auditLog, twoStepSecrets } from '../../src/server/db/schema';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('two-step sign-in (%s)', (kind) => {
  const open: TestApp[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  async function enrolled() {
    const t = await createTestApp(kind);
    open.push(t);
    const { user, token, password } = await createUserAndSignIn(t, 'admin');
    const auth = bearer(token);
    const start = await t.app.inject({ method: 'POST', url: '/api/account/two-step/start', headers: auth });
    expect(start.statusCode).toBe(200);
    expect(start.headers['cache-control']).toBe('no-store');
    const enrolment = start.json<TwoStepEnrolment>();
    const code = await generate({ secret: enrolment.secret });
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/account/two-step/confirm',
      headers: auth,
      payload: { code },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    const confirmedWith = code;
    const login = (extra: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { username: user.username, password, ...extra } });
    return { t, user, auth, password, enrolment, recoveryCodes, login, confirmedWith };
  }

  it('turns on with a scanned secret and a code typed back, and keeps the secret sealed', async () => {
    const { t, user, auth, enrolment, recoveryCodes } = await enrolled();
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/Sac%20Handyman%20Services:admin\d+\w+\?/);
    expect(enrolment.uri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.qrSvg).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const [row] = await t.app.db.select().from(twoStepSecrets).where(eq(twoStepSecrets.userId, user.id));
    expect(row!.secretSealed).not.toContain(enrolment.secret);
    const state = await t.app.inject({ method: 'GET', url: '/api/account/two-step', headers: auth });
    expect(state.json<TwoStepState>()).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // On already: a second start is refused, so the secret in the app keeps working.
    expect((await t.app.inject({ method: 'POST', url: '/api/account/two-step/start', headers: auth })).statusCode).toBe(
      409,
    );
  });

  it('asks for the code after the right password, refuses a wrong or reused one, and signs in with the right one', async () => {
    const { t, user, enrolment, login, confirmedWith } = await enrolled();
    const wrongPassword = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: user.username, password: 'not the password' },
    });
    expect(wrongPassword.json()).toMatchObject({ message: 'Invalid username or password' });

    const asked = await login();
    expect(asked.statusCode).toBe(401);
    expect(asked.json()).toMatchObject({
      code: 'TWO_STEP_REQUIRED',
      message: 'Enter the 6-digit code from your authenticator app',
    });

    const wrong = await login({ code: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'TWO_STEP_INVALID' });

    // The code used to confirm the enrolment cannot sign in: the next step's can.
    const used = confirmedWith;
    expect((await login({ code: used })).statusCode).toBe(401);
    const next = await generate({ secret: enrolment.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const ok = await login({ code: next });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ role: 'admin' });
    // … once.
    expect((await login({ code: next })).json()).toMatchObject({ code: 'TWO_STEP_INVALID' });

    const trail = await t.app.db.select().from(auditLog).where(eq(auditLog.userId, user.id));
    const actions = trail.map((e) => e.action);
    expect(actions).toContain('Turned on two-step sign-in');
    expect(actions).toContain('Signed in with two-step sign-in');
    expect(actions.filter((a) => a === 'Failed sign-in: wrong two-step code')).toHaveLength(3);
    // The code typed at confirmation is not in the trail.
    expect(JSON.stringify(trail)).not.toContain(`"${used}"`);
  });

  it('takes one code once when two sign-ins carry it at the same moment', async () => {
    const { enrolment, login } = await enrolled();
    const code = await generate({ secret: enrolment.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => login({ code })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401, 401]);
  });

  it('signs in with a recovery code once, however it is typed, and turns off with the password and a code', async () => {
    const { t, user, auth, password, enrolment, recoveryCodes, login } = await enrolled();
    const typed = ` ${recoveryCodes[3]!.toUpperCase().replace('-', ' ')} `;
    const ok = await login({ code: typed });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await login({ code: recoveryCodes[3]! })).statusCode).toBe(401);
    const state = await t.app.inject({ method: 'GET', url: '/api/account/two-step', headers: auth });
    expect(state.json<TwoStepState>().recoveryCodesLeft).toBe(9);
    const trail = await t.app.db.select().from(auditLog).where(eq(auditLog.userId, user.id));
    expect(trail.map((e) => e.action)).toContain('Signed in with a recovery code');

    const disable = (payload: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/account/two-step/disable', headers: auth, payload });
    expect((await disable({ password: 'wrong', code: recoveryCodes[0]! })).statusCode).toBe(400);
    expect((await disable({ password, code: '123456' })).json()).toMatchObject({ code: 'TWO_STEP_INVALID' });
    const off = await disable({
      password,
      code: await generate({ secret: enrolment.secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<TwoStepState>()).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect((await login()).statusCode).toBe(200);
  });

  it('makes ten new recovery codes for a code from the app: the old ones stop working', async () => {
    const { t, user, auth, enrolment, recoveryCodes, login } = await enrolled();
    const renew = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/account/two-step/recovery-codes', headers: auth, payload: { code } });
    // A recovery code is not enough: the app proves the person still has it.
    expect((await renew(recoveryCodes[0]!)).json()).toMatchObject({ statusCode: 400, code: 'TWO_STEP_INVALID' });
    const code = await generate({ secret: enrolment.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const renewed = await renew(code);
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.headers['cache-control']).toBe('no-store');
    const fresh = renewed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    // The same code twice: taken already.
    expect((await renew(code)).statusCode).toBe(400);
    expect((await login({ code: recoveryCodes[1]! })).statusCode).toBe(401);
    expect((await login({ code: fresh[1]! })).statusCode).toBe(200);
    const trail = await t.app.db.select().from(auditLog).where(eq(auditLog.userId, user.id));
    expect(trail.map((e) => e.action)).toContain('Made new recovery codes for two-step sign-in');
  });

  it('throttles wrong codes like wrong passwords', async () => {
    const t = await createTestApp(kind, { env: { LOGIN_RATE_LIMIT_MAX: '3' } });
    open.push(t);
    const { user, token, password } = await createUserAndSignIn(t, 'employee');
    const auth = bearer(token);
    const { secret } = (
      await t.app.inject({ method: 'POST', url: '/api/account/two-step/start', headers: auth })
    ).json<TwoStepEnrolment>();
    await t.app.inject({
      method: 'POST',
      url: '/api/account/two-step/confirm',
      headers: auth,
      payload: { code: await generate({ secret }) },
    });
    const login = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { username: user.username, password, code } });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await login(String(100000 + i))).statusCode);
    expect(answers).toEqual([401, 401, 401, 429]);
  });

  it('throttles the turn-off form too: a stolen session cannot try passwords or codes without limit', async () => {
    const t = await createTestApp(kind, { env: { LOGIN_RATE_LIMIT_MAX: '3' } });
    open.push(t);
    const { token, password } = await createUserAndSignIn(t, 'employee');
    const auth = bearer(token);
    const { secret } = (
      await t.app.inject({ method: 'POST', url: '/api/account/two-step/start', headers: auth })
    ).json<TwoStepEnrolment>();
    await t.app.inject({
      method: 'POST',
      url: '/api/account/two-step/confirm',
      headers: auth,
      payload: { code: await generate({ secret }) },
    });
    const disable = (payload: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/account/two-step/disable', headers: auth, payload });
    const answers = [];
    for (let i = 0; i < 2; i++) answers.push((await disable({ password: `guess-${i}`, code: '123456' })).statusCode);
    answers.push((await disable({ password, code: '654321' })).statusCode);
    // The right password and a right code, after three wrong tries in the window: refused all the same.
    answers.push(
      (
        await disable({
          password,
          code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
        })
      ).statusCode,
    );
    expect(answers).toEqual([400, 400, 400, 429]);
    const state = await t.app.inject({ method: 'GET', url: '/api/account/two-step', headers: auth });
    expect(state.json<TwoStepState>().enabled).toBe(true);
  });
});
