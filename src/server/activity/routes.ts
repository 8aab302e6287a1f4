import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityTimeline, timelineQuery } from '#shared/schemas/activity';
import { done, errorResponse } from '#shared/schemas/errors';
import { conflict, notFound } from '../lib/http-errors';
import { textInsteadOfMail } from '../texts';
import { failingMailOfStep, requestTimeline } from './repository';

/** A request's timeline for the office. */
export async function activityRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/quoterequest/:id/timeline',
    {
      config: { access: 'office' },
      schema: {
        tags: ['quote requests'],
        summary:
          "A request's history, newest steps (or those before one step), with each e-mail's delivery state and how many steps come earlier",
        params: z.object({ id: z.string().max(64) }),
        querystring: timelineQuery,
        response: { 200: activityTimeline },
      },
    },
    async (request) => requestTimeline(app.db, request.params.id, request.query),
  );

  r.post(
    '/quoterequest/:id/timeline/:eventId/text-instead',
    {
      config: { access: 'office', audit: { kind: 'mail', action: 'Sent a failing e-mail by text instead' } },
      schema: {
        tags: ['quote requests'],
        summary:
          "Text the request's client that an e-mail of this step did not reach them, with the link to their page (once per e-mail; only a failing e-mail, only to a client who takes texts)",
        params: z.object({ id: z.string().max(64), eventId: z.string().max(64) }),
        response: { 201: done, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const found = await failingMailOfStep(app.db, request.params.id, request.params.eventId);
      if (found === 'not-found') throw notFound('No e-mail of this request to send by text');
      if (found === 'not-failing') throw conflict('Only an e-mail that is failing can be sent by text instead');
      await textInsteadOfMail(app, { ...found, quoteRequestId: request.params.id });
      return reply.code(201).send({ ok: true as const });
    },
  );
}
