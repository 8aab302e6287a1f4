import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loginInput, loginResponse, signedOut, userRoleResponse } from '#shared/schemas/auth';
import { sessionsEnded } from '#shared/schemas/users';
import { messages } from '#shared/messages';
import { errorResponse } from '#shared/schemas/errors';
import { authenticate } from './guard';
import { createLoginThrottle } from './login-throttle';
import { rememberDevice, trustedDeviceOf } from './device-cookie';
import { createSession, endSession, signOutEverywhere } from './sessions';
import { z } from 'zod';
import { findUserById, findUserByUsername, staffName } from '../users';
import { errorBody, notFound } from '../lib/http-errors';
import { dummyHash, verifyPassword } from '../lib/passwords';
import { recordAudit } from '../audit';
import { checkSecondStep, hasTwoStep } from './two-step';

export async function authRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const throttle = createLoginThrottle(app);

  r.post(
    '/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username and password',
        body: loginInput,
        response: { 200: loginResponse, 401: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const { username, password, code } = request.body;
      // Read first: a database that cannot answer fails the attempt before anything counts.
      const user = await findUserByUsername(app.db, username);
      const device = await trustedDeviceOf(app, request, user?.id);
      // The trail says which account was tried, or that none has that name: never the text typed,
      // which may be a password typed in the wrong field.
      const attempt = {
        userId: user?.id ?? null,
        actorName: user ? staffName(user) : 'Unknown username',
        ip: request.ip,
        kind: 'sign-in' as const,
        route: 'POST /api/login',
      };
      const tooMany = (seconds: number) =>
        reply
          .code(429)
          .header('retry-after', String(seconds))
          .send(errorBody(429, messages.tooManyAttempts, 'RATE_LIMITED'));
      const verdict = await throttle(username, request.ip, device);
      if (verdict.refused) {
        await recordAudit(app.db, { ...attempt, action: 'Sign-in refused: too many failed attempts' });
        return tooMany(verdict.refused.retryAfterSeconds);
      }
      try {
        const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash()), password);
        if (!user || !ok) {
          await recordAudit(app.db, { ...attempt, action: 'Failed sign-in' });
          await verdict.failed(user);
          if (verdict.underAttack) return tooMany(app.config.RATE_LIMIT_WINDOW_MINUTES * 60);
          return reply.code(401).send(errorBody(401, messages.loginInvalid));
        }
        // The second step (decision 040): the password was right; without a code the page asks for
        // one (no attempt counted); a wrong code counts like a wrong password.
        let how = 'Signed in';
        if (await hasTwoStep(app.db, user.id)) {
          if (!code) {
            await verdict.cancelled();
            return reply.code(401).send(errorBody(401, messages.twoStepRequired, 'TWO_STEP_REQUIRED'));
          }
          const step = await checkSecondStep(app, user.id, code);
          if (!step) {
            await recordAudit(app.db, { ...attempt, action: 'Failed sign-in: wrong two-step code' });
            await verdict.failed(user);
            if (verdict.underAttack) return tooMany(app.config.RATE_LIMIT_WINDOW_MINUTES * 60);
            return reply.code(401).send(errorBody(401, messages.twoStepInvalid, 'TWO_STEP_INVALID'));
          }
          how = step === 'recovery' ? 'Signed in with a recovery code' : 'Signed in with two-step sign-in';
        }
        // The session and its entry in the trail, together.
        const sid = await app.db.transaction(async (tx) => {
          const id = await createSession(tx, user.id, app.config.TOKEN_TTL_HOURS, {
            userAgent: request.headers['user-agent'] ?? '',
            ip: request.ip,
          });
          await recordAudit(tx, { ...attempt, action: how });
          return id;
        });
        const token = await app.tokens.sign({ sub: user.id, ver: user.tokenVersion, sid });
        await verdict.succeeded();
        await rememberDevice(app, reply, user.id, device);
        return { token, role: user.role };
      } catch (error) {
        await verdict.cancelled();
        throw error;
      }
    },
  );

  r.get(
    '/login/user-role',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: "The role of the bearer token's user; 401 when the token is missing or no longer valid",
        response: { 200: userRoleResponse, 401: userRoleResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await authenticate(app, request);
      if (!signedIn) return reply.code(401).send({ valid: false, userRole: null });
      // The spec's answer, and the flag only when it is up (Settings require two-step and it is not on).
      return {
        valid: true,
        userRole: signedIn.user.role,
        teamRole: signedIn.user.teamRole,
        ...(signedIn.twoStepSetupRequired ? { twoStepSetupRequired: true } : {}),
      };
    },
  );

  r.post(
    '/logout',
    {
      config: {
        access: 'staff',
        beforeTwoStep: true,
        sessionOnly: true,
        audit: { kind: 'sign-in', action: 'Signed out' },
      },
      schema: {
        tags: ['auth'],
        summary: "Sign out: the token's session ends on the server, so the token stops working everywhere at once",
        response: { 200: signedOut },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => endSession(tx, request.sessionId!));
      return { signedOut: true as const };
    },
  );

  r.post(
    '/users/:id/end-sessions',
    {
      config: { access: 'owner', audit: { kind: 'users', action: 'Signed a user out everywhere' } },
      schema: {
        tags: ['users'],
        summary:
          "Sign a user out everywhere: every token of theirs, and their calendar feed's address, stop working at once",
        params: z.object({ id: z.string() }),
        response: { 200: sessionsEnded, 404: errorResponse },
      },
    },
    async (request) => {
      if (!(await findUserById(app.db, request.params.id))) throw notFound('User not found');
      return { ended: await signOutEverywhere(app.db, request.params.id) };
    },
  );
}
