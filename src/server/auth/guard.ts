import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '#shared/messages';
import { allows, REFUSALS, type Access } from '#shared/roles';
import { findSessionUser, SESSION_SEEN_MINUTES, touchSession } from './sessions';
import { twoStepRequiredFor } from './two-step';
import { API_KEY_CALLS_PER_MINUTE, findApiKeyUser, looksLikeApiKey } from './api-keys';
import type { UserRow } from '../users';
import { errorBody } from '../lib/http-errors';

export type { Access } from '#shared/roles';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Open to a signed-in admin who must still turn on two-step sign-in (Settings require it): their
     * own account's routes and signing out. Every other route answers TWO_STEP_SETUP_REQUIRED.
     */
    beforeTwoStep?: boolean;
    /** Refused to an API key: a person's own account (two-step, sessions, keys) and signing out. */
    sessionOnly?: boolean;
  }
  interface FastifyRequest {
    user: UserRow | null;
    /** The session of the request's token, for signing out; null for an API key. */
    sessionId: string | null;
    /** The personal API key the request came with, if it came with one. */
    apiKeyId: string | null;
  }
  interface FastifyInstance {
    /** Every /api route with who may call it, for the authorization matrix test and the docs. */
    routeAccess: { method: string; url: string; access: Access }[];
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/**
 * The user a request's bearer token stands for, read from the database now: a deleted user, a
 * session that was signed out, ended or expired, or a token issued before a password or role
 * change, gets null.
 */
export async function authenticate(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{
  user: UserRow;
  sessionId: string | null;
  apiKey: { id: string; scope: 'read' | 'write' } | null;
  twoStepSetupRequired: boolean;
} | null> {
  const token = bearerToken(request);
  if (!token) return null;
  if (looksLikeApiKey(token)) {
    const key = await findApiKeyUser(app.db, token);
    if (!key) return null;
    return {
      user: key.user,
      sessionId: null,
      apiKey: { id: key.id, scope: key.scope },
      twoStepSetupRequired: !key.twoStep && (await twoStepRequiredFor(app, key.user)),
    };
  }
  const claims = await app.tokens.verify(token);
  if (!claims) return null;
  const found = await findSessionUser(app.db, claims.sid, claims.sub);
  if (!found || found.user.tokenVersion !== claims.ver) return null;
  if (Date.now() - found.lastSeenAt.getTime() > SESSION_SEEN_MINUTES * 60_000) await touchSession(app.db, claims.sid);
  return {
    user: found.user,
    sessionId: claims.sid,
    apiKey: null,
    twoStepSetupRequired: !found.twoStep && (await twoStepRequiredFor(app, found.user)),
  };
}

/** What a personal API key may not do here, or null: own-account routes, writing with a read key, too many calls. */
async function apiKeyRefusal(
  app: FastifyInstance,
  request: FastifyRequest,
  apiKey: { id: string; scope: 'read' | 'write' },
) {
  if (request.routeOptions.config.sessionOnly)
    return { status: 403, headers: {}, body: errorBody(403, 'An API key cannot do this: sign in to your account') };
  if (apiKey.scope === 'read' && request.method !== 'GET' && request.method !== 'HEAD')
    return { status: 403, headers: {}, body: errorBody(403, 'This API key may only read') };
  if ((await app.counters.increment(`api-key:${apiKey.id}`, 60_000)) > API_KEY_CALLS_PER_MINUTE)
    return {
      status: 429,
      headers: { 'retry-after': '60' },
      body: errorBody(429, messages.tooManyAttempts, 'RATE_LIMITED'),
    };
  return null;
}

/**
 * One guard for the whole API: every /api route states its access in `config.access` (start-up
 * fails if one does not), and a guard added to each non-public route enforces it.
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiKeyId', null);
  const routeAccess: FastifyInstance['routeAccess'] = [];
  app.decorate('routeAccess', routeAccess);

  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.routeOptions.config.access;
    const signedIn = await authenticate(app, request);
    if (!signedIn) return reply.code(401).send(errorBody(401, 'Sign in to continue'));
    const { user, sessionId, apiKey } = signedIn;
    // Known before the refusal, so the trail can say who tried (the handler does not run).
    request.user = user;
    request.sessionId = sessionId;
    request.apiKeyId = apiKey?.id ?? null;
    if (apiKey) {
      const refusal = await apiKeyRefusal(app, request, apiKey);
      if (refusal) return reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
    }
    if ((access === 'office' || access === 'owner') && !allows(access, user.teamRole)) {
      return reply.code(403).send(errorBody(403, REFUSALS[access]));
    }
    if (signedIn.twoStepSetupRequired && !request.routeOptions.config.beforeTwoStep) {
      return reply.code(403).send(errorBody(403, messages.twoStepSetupRequired, 'TWO_STEP_SETUP_REQUIRED'));
    }
  };

  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!url.startsWith('/api') || url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${url} does not declare config.access`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeAccess.push({ method, url, access });
    // The guard runs first, before the body is even read; public routes do not pay for it.
    if (access !== 'public') route.onRequest = [guard, ...[route.onRequest ?? []].flat()];
  });
}
