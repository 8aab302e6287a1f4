import { and, eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionList, UserRoleResponse } from '#shared/schemas/auth';
import type { SettingsView } from '#shared/schemas/settings';
import type { TwoStepEnrolment, TwoStepState } from '#shared/schemas/two-step';
import { auditLog, sessions } from '../../src/server/db/schema';
import { describeDevice } from '../../src/server/auth/sessions';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const LINUX_FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe('describeDevice', () => {
  it('names the browser and system a user agent gives, and says so when it gives none', () => {
    expect(describeDevice(ANDROID_CHROME)).toBe('Chrome on Android');
    expect(describeDevice(LINUX_FIREFOX)).toBe('Firefox on Linux');
    expect(describeDevice(IPHONE_SAFARI)).toBe('Safari on iOS');
    expect(describeDevice('')).toBe('Unknown browser');
    expect(describeDevice('   ')).toBe('Unknown browser');
  });
});

describe.each(dbKinds)('sessions and required two-step sign-in (%s)', (kind) => {
  const open: TestApp[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });
  const start = async () => {
    const t = await createTestApp(kind);
    open.push(t);
    return t;
  };
  const signIn = async (t: TestApp, username: string, password: string, userAgent: string, code?: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'user-agent': userAgent },
      payload: { username, password, ...(code ? { code } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ token: string }>().token;
  };
  const get = (t: TestApp, url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  it('lists where a person is signed in, and signs one session out without touching the others', async () => {
    const t = await start();
    const { user, token: first, password } = await createUserAndSignIn(t, 'employee');
    const phone = await signIn(t, user.username, password, ANDROID_CHROME);
    const laptop = await signIn(t, user.username, password, `${LINUX_FIREFOX}${'x'.repeat(500)}`);

    const listed = (await get(t, '/api/account/sessions', phone)).json<SessionList>().sessions;
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current).map((s) => s.device)).toEqual(['Chrome on Android']);
    expect(listed.map((s) => s.device).sort()).toEqual(['Chrome on Android', 'Firefox on Linux', 'Unknown browser']);
    for (const s of listed) {
      expect(s.ip).toBe('127.0.0.1');
      expect(Date.parse(s.signedInAt)).toBeLessThanOrEqual(Date.now());
    }
    // What a browser says of itself is kept short.
    const rows = await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(Math.max(...rows.map((r) => r.userAgent.length))).toBe(300);

    const laptopSession = listed.find((s) => s.device === 'Firefox on Linux')!;
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${laptopSession._id}`,
      headers: bearer(phone),
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await get(t, '/api/login/user-role', laptop)).statusCode).toBe(401);
    expect((await get(t, '/api/login/user-role', phone)).statusCode).toBe(200);
    expect((await get(t, '/api/login/user-role', first)).statusCode).toBe(200);
    // Twice: already gone.
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${laptopSession._id}`,
      headers: bearer(phone),
    });
    expect(again.statusCode).toBe(404);
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, user.id), eq(auditLog.action, 'Signed out a session')));
    expect(entry).toBeDefined();
  });

  it("never ends another person's session through one's own account", async () => {
    const t = await start();
    const a = await createUserAndSignIn(t, 'employee');
    const b = await createUserAndSignIn(t, 'employee');
    const [bSession] = (await get(t, '/api/account/sessions', b.token)).json<SessionList>().sessions;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${bSession!._id}`,
      headers: bearer(a.token),
    });
    expect(res.statusCode).toBe(404);
    expect((await get(t, '/api/login/user-role', b.token)).statusCode).toBe(200);
    // Nor can one person's list show another's.
    const own = (await get(t, '/api/account/sessions', a.token)).json<SessionList>().sessions;
    expect(own.map((s) => s._id)).not.toContain(bSession!._id);
  });

  it("lets an admin see a user's sessions and sign out one of them", async () => {
    const t = await start();
    const admin = await createUserAndSignIn(t, 'admin');
    const crew = await createUserAndSignIn(t, 'employee');
    const phone = await signIn(t, crew.user.username, crew.password, IPHONE_SAFARI);
    const res = await get(t, `/api/users/${crew.user.id}/sessions`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json<SessionList>().sessions;
    expect(listed).toHaveLength(2);
    expect(listed.every((s) => !s.current)).toBe(true);
    const iphone = listed.find((s) => s.device === 'Safari on iOS')!;
    // A session id with another user's id: not found, and nothing ends.
    const mismatched = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${admin.user.id}/sessions/${iphone._id}`,
      headers: bearer(admin.token),
    });
    expect(mismatched.statusCode).toBe(404);
    expect((await get(t, '/api/login/user-role', phone)).statusCode).toBe(200);
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${crew.user.id}/sessions/${iphone._id}`,
      headers: bearer(admin.token),
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await get(t, '/api/login/user-role', phone)).statusCode).toBe(401);
    expect((await get(t, '/api/login/user-role', crew.token)).statusCode).toBe(200);
    expect((await get(t, '/api/users/nobody/sessions', admin.token)).statusCode).toBe(404);
  });

  it('notes when a session was last used, at most every few minutes', async () => {
    const t = await start();
    const { user, token } = await createUserAndSignIn(t, 'employee');
    const lastSeen = async () =>
      (await t.app.db.select().from(sessions).where(eq(sessions.userId, user.id)))[0]!.lastSeenAt.getTime();
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '2 minutes'` })
      .where(eq(sessions.userId, user.id));
    const twoMinutesAgo = await lastSeen();
    await get(t, '/api/my/jobs', token);
    expect(await lastSeen()).toBe(twoMinutesAgo);
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - interval '10 minutes'` })
      .where(eq(sessions.userId, user.id));
    await get(t, '/api/my/jobs', token);
    expect(Date.now() - (await lastSeen())).toBeLessThan(60_000);
  });

  async function turnOnTwoStep(t: TestApp, token: string) {
    const enrolment = (
      await t.app.inject({ method: 'POST', url: '/api/account/two-step/start', headers: bearer(token) })
    ).json<TwoStepEnrolment>();
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/account/two-step/confirm',
      headers: bearer(token),
      payload: { code: await generate({ secret: enrolment.secret }) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return enrolment.secret;
  }

  const requireTwoStep = async (t: TestApp, token: string, on: boolean) => {
    const { logoUrl: _logo, updatedAt: _at, ...values } = (await get(t, '/api/settings', token)).json<SettingsView>();
    return t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(token),
      payload: { ...values, requireTwoStep: on },
    });
  };

  it('requires two-step sign-in of Owner and Office once Settings say so: Your account first, then everything', async () => {
    const t = await start();
    const owner = await createUserAndSignIn(t, 'admin');
    const office = await createUserAndSignIn(t, 'admin');
    const crew = await createUserAndSignIn(t, 'employee');

    // A key the office made before: it stands for them, so the requirement holds for it too.
    const officeKey = (
      await t.app.inject({
        method: 'POST',
        url: '/api/account/api-keys',
        headers: bearer(office.token),
        payload: { name: 'Script', scope: 'read' },
      })
    ).json<{ key: string }>().key;

    // Not before the owner has it: the requirement would otherwise lock its author out.
    const refused = await requireTwoStep(t, owner.token, true);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'Turn on two-step sign-in for your own account first (Your account), then require it of others',
    );
    await turnOnTwoStep(t, owner.token);
    const saved = await requireTwoStep(t, owner.token, true);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<SettingsView>().requireTwoStep).toBe(true);

    // The office account without it: the guard says so, and only its own account's routes answer.
    const role = (await get(t, '/api/login/user-role', office.token)).json<UserRoleResponse>();
    expect(role).toEqual({ valid: true, userRole: 'admin', teamRole: 'owner', twoStepSetupRequired: true });
    const jobs = await get(t, '/api/jobs', office.token);
    expect(jobs.statusCode).toBe(403);
    expect(jobs.json()).toMatchObject({
      code: 'TWO_STEP_SETUP_REQUIRED',
      message: 'Your business requires two-step sign-in for Owner and Office accounts. Turn it on below to continue.',
    });
    expect((await get(t, '/api/jobs', officeKey)).json()).toMatchObject({ code: 'TWO_STEP_SETUP_REQUIRED' });
    const state = (await get(t, '/api/account/two-step', office.token)).json<TwoStepState>();
    expect(state).toMatchObject({ enabled: false, required: true });
    expect((await get(t, '/api/account/sessions', office.token)).statusCode).toBe(200);

    // The crew chooses for themselves; the owner, who has it, works on.
    expect((await get(t, '/api/my/jobs', crew.token)).statusCode).toBe(200);
    expect((await get(t, '/api/login/user-role', crew.token)).json<UserRoleResponse>().twoStepSetupRequired).toBe(
      undefined,
    );
    expect((await get(t, '/api/jobs', owner.token)).statusCode).toBe(200);

    // Required: it cannot be turned off.
    const off = await t.app.inject({
      method: 'POST',
      url: '/api/account/two-step/disable',
      headers: bearer(owner.token),
      payload: { password: owner.password, code: '000000' },
    });
    expect(off.statusCode).toBe(409);

    // The office turns it on: the same session goes on to everything.
    await turnOnTwoStep(t, office.token);
    expect((await get(t, '/api/jobs', office.token)).statusCode).toBe(200);
    expect((await get(t, '/api/jobs', officeKey)).statusCode).toBe(200);
    expect((await get(t, '/api/login/user-role', office.token)).json<UserRoleResponse>().twoStepSetupRequired).toBe(
      undefined,
    );

    // Off again in Settings: turning off one's own two-step is open again.
    expect((await requireTwoStep(t, owner.token, false)).statusCode).toBe(200);
    expect((await get(t, '/api/account/two-step', owner.token)).json<TwoStepState>().required).toBe(false);
  });
});
