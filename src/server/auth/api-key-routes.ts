import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeyCreated, apiKeyInput, apiKeyList } from '#shared/schemas/auth';
import { done, errorResponse } from '#shared/schemas/errors';
import { conflict, notFound } from '../lib/http-errors';
import { API_KEYS_PER_USER, createApiKey, listApiKeys, revokeApiKey } from './api-keys';

/**
 * Personal API keys (issue 33): an admin makes, names and revokes their own, for their scripts and
 * tools; a key acts as its maker on every route, read-only or read-write. Made and managed only from a
 * signed-in session (a key cannot make keys).
 */
export async function apiKeyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const mine = { access: 'owner' as const, sessionOnly: true };

  r.get(
    '/account/api-keys',
    {
      config: mine,
      schema: {
        tags,
        summary: "The signed-in admin's live API keys (never the keys themselves)",
        response: { 200: apiKeyList },
      },
    },
    async (request) => ({ keys: await listApiKeys(app.db, request.user!.id) }),
  );

  r.post(
    '/account/api-keys',
    {
      config: { ...mine, audit: { kind: 'sign-in', action: 'Made an API key' } },
      schema: {
        tags,
        summary: 'Make an API key, read-only or read-write: the key is in this answer only, stored hashed',
        body: apiKeyInput,
        response: { 201: apiKeyCreated, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const made = await createApiKey(app.db, request.user!.id, request.body);
      if (!made) throw conflict(`You have ${API_KEYS_PER_USER} API keys: revoke one you no longer use first.`);
      return reply.code(201).send(made);
    },
  );

  r.delete(
    '/account/api-keys/:id',
    {
      config: { ...mine, audit: { kind: 'sign-in', action: 'Revoked an API key' } },
      schema: {
        tags,
        summary: 'Revoke an API key: it is refused from the next call',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: done, 404: errorResponse },
      },
    },
    async (request) => {
      if (!(await revokeApiKey(app.db, request.user!.id, request.params.id)))
        throw notFound('That API key was already revoked');
      return { ok: true as const };
    },
  );
}
