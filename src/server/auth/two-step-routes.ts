import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  twoStepCode,
  twoStepConfirmed,
  twoStepDisable,
  twoStepEnrolment,
  twoStepState as twoStepStateSchema,
} from '#shared/schemas/two-step';
import { messages } from '#shared/messages';
import { badRequest, conflict, errorBody, notFound } from '../lib/http-errors';
import { verifyPassword } from '../lib/passwords';
import { findUserById } from '../users';
import { trustedDeviceOf } from './device-cookie';
import { createLoginThrottle } from './login-throttle';
import {
  checkSecondStep,
  confirmEnrolment,
  removeTwoStep,
  renewRecoveryCodes,
  startEnrolment,
  twoStepRequiredFor,
  twoStepState,
} from './two-step';

/** Each staff member's own two-step sign-in (decision 040): turn it on with their app, or off. */
export async function twoStepRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Turning it off asks for the password and a code: guesses there count with the sign-in's (a stolen
  // session must not try passwords or codes without limit).
  const throttle = createLoginThrottle(app);
  // The guard put the signed-in user on the request (access: 'staff'); read again for the newest hash.
  const me = async (id: string | undefined) => {
    const user = id ? await findUserById(app.db, id) : undefined;
    if (!user) throw notFound('User not found');
    return user;
  };
  const stateOf = async (user: Awaited<ReturnType<typeof me>>) => ({
    ...(await twoStepState(app.db, user.id)),
    required: await twoStepRequiredFor(app, user),
  });
  /**
   * A check of what the person typed (password, code), counted with the sign-in's throttle: refused
   * outright when there were too many; a wrong answer (the words `check` returns) is a 400 and counts.
   */
  const throttled = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: Awaited<ReturnType<typeof me>>,
    check: () => Promise<string | null>,
  ): Promise<'ok' | 'refused'> => {
    const verdict = await throttle(user.username, request.ip, await trustedDeviceOf(app, request, user.id));
    if (verdict.refused) {
      await reply
        .code(429)
        .header('retry-after', String(verdict.refused.retryAfterSeconds))
        .send(errorBody(429, messages.tooManyAttempts, 'RATE_LIMITED'));
      return 'refused';
    }
    let wrong: string | null;
    try {
      wrong = await check();
    } catch (error) {
      await verdict.cancelled();
      throw error;
    }
    if (wrong) {
      await verdict.failed(user);
      throw badRequest(wrong, wrong === messages.twoStepInvalid ? 'TWO_STEP_INVALID' : 'VALIDATION_FAILED');
    }
    await verdict.succeeded();
    return 'ok';
  };
  // Open to an admin whom Settings require to turn it on first: turning it on is what they must do.
  const staff = { access: 'staff' as const, beforeTwoStep: true, sessionOnly: true };

  r.get(
    '/account/two-step',
    {
      config: staff,
      schema: {
        tags: ['auth'],
        summary: "Whether the signed-in person's account signs in with two steps, and how many recovery codes are left",
        response: { 200: twoStepStateSchema },
      },
    },
    async (request) => stateOf(await me(request.user?.id)),
  );

  r.post(
    '/account/two-step/start',
    {
      config: { ...staff, audit: { kind: 'sign-in', action: 'Started turning on two-step sign-in' } },
      schema: {
        tags: ['auth'],
        summary:
          'A new secret for an authenticator app (as a QR code and as text); on once a code from it is confirmed',
        response: { 200: twoStepEnrolment, 409: errorResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return startEnrolment(app, await me(request.user?.id));
    },
  );

  r.post(
    '/account/two-step/confirm',
    {
      config: { ...staff, audit: { kind: 'sign-in', action: 'Turned on two-step sign-in' } },
      schema: {
        tags: ['auth'],
        summary:
          'The code the app shows, typed back: two-step sign-in is on; the ten recovery codes are shown this once',
        body: twoStepCode,
        response: { 200: twoStepConfirmed, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = await me(request.user?.id);
      return { recoveryCodes: await confirmEnrolment(app, user.id, request.body.code) };
    },
  );

  r.post(
    '/account/two-step/disable',
    {
      config: { ...staff, audit: { kind: 'sign-in', action: 'Turned off two-step sign-in' } },
      schema: {
        tags: ['auth'],
        summary: 'Turn two-step sign-in off: with the password and a code from the app (or a recovery code)',
        body: twoStepDisable,
        response: { 200: twoStepStateSchema, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const user = await me(request.user?.id);
      if (await twoStepRequiredFor(app, user))
        throw conflict('Settings require two-step sign-in for Owner and Office accounts, so it stays on.');
      const checked = await throttled(request, reply, user, async () => {
        if (!(await verifyPassword(user.passwordHash, request.body.password))) return 'That password is not right.';
        return (await checkSecondStep(app, user.id, request.body.code)) ? null : messages.twoStepInvalid;
      });
      if (checked === 'refused') return reply;
      await app.db.transaction((tx) => removeTwoStep(tx, user.id));
      return stateOf(user);
    },
  );

  r.post(
    '/account/two-step/recovery-codes',
    {
      config: { ...staff, audit: { kind: 'sign-in', action: 'Made new recovery codes for two-step sign-in' } },
      schema: {
        tags: ['auth'],
        summary: 'Ten new recovery codes in place of the old ones, for a code from the app; shown this once',
        body: twoStepCode,
        response: { 200: twoStepConfirmed, 400: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = await me(request.user?.id);
      let codes: string[] | null = null;
      const checked = await throttled(request, reply, user, async () => {
        codes = await renewRecoveryCodes(app, user.id, request.body.code);
        return codes ? null : messages.twoStepInvalid;
      });
      if (checked === 'refused') return reply;
      return { recoveryCodes: codes! };
    },
  );
}
