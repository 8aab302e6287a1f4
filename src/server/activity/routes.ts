import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityTimeline, timelineQuery } from '#shared/schemas/activity';
import { requestTimeline } from './repository';

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
}
