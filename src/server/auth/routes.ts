import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loginInput, loginResponse, userRoleResponse } from '../../shared/schemas/auth';
import { messages } from '../../shared/messages';
import { errorResponse } from '../../shared/schemas/errors';
import { authenticate } from './guard';
import { createLoginThrottle } from './login-throttle';
import { createSession, endSession, signOutEverywhere } from './sessions';
import { z } from 'zod';
import { findUserById, findUserByUsername, staffName } from '../users';
import { errorBody, notFound } from '../lib/http-errors';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { recordAudit } from '../audit';

// Verifying against a real hash when the user does not exist keeps the answer time the same, so
// timing does not reveal which usernames exist.
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword('no such user: a password nobody has'));

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
      const { username, password } = request.body;
      // A failed sign-in is kept under the name that was typed (shortened), never the password.
      const attempt = {
        userId: null,
        actorName: username.slice(0, 100),
        ip: request.ip,
        kind: 'sign-in' as const,
        route: 'POST /api/login',
      };
      const verdict = await throttle(username, request.ip);
      if (!verdict.allowed) {
        await recordAudit(app.db, { ...attempt, action: 'Sign-in refused: too many failed attempts' });
        return reply
          .code(429)
          .header('retry-after', String(verdict.retryAfterSeconds))
          .send(errorBody(429, messages.tooManyAttempts, 'RATE_LIMITED'));
      }
      const user = await findUserByUsername(app.db, username);
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash()), password);
      await verdict.settle(Boolean(user && ok));
      if (!user || !ok) {
        await recordAudit(app.db, {
          ...attempt,
          ...(user ? { userId: user.id, actorName: staffName(user) } : {}),
          action: 'Failed sign-in',
        });
        return reply.code(401).send(errorBody(401, messages.loginInvalid));
      }
      const sid = await createSession(app.db, user.id, app.config.TOKEN_TTL_HOURS);
      const token = await app.tokens.sign({ sub: user.id, ver: user.tokenVersion, sid });
      await recordAudit(app.db, { ...attempt, userId: user.id, actorName: staffName(user), action: 'Signed in' });
      return { token, role: user.role };
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
      return { valid: true, userRole: signedIn.user.role };
    },
  );

  r.post(
    '/logout',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['auth'],
        summary: "Sign out: the token's session ends on the server, so the token stops working everywhere at once",
        response: { 200: z.object({ signedOut: z.literal(true) }) },
      },
    },
    async (request) => {
      await endSession(app.db, request.sessionId!);
      return { signedOut: true as const };
    },
  );

  r.post(
    '/users/:id/end-sessions',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary:
          "Sign a user out everywhere: every token of theirs, and their calendar feed's address, stop working at once",
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ ended: z.number() }), 404: errorResponse },
      },
    },
    async (request) => {
      if (!(await findUserById(app.db, request.params.id))) throw notFound('User not found');
      return { ended: await signOutEverywhere(app.db, request.params.id) };
    },
  );
}
