import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
  databaseKind: z.enum(['pglite', 'postgres']),
  /** With REDIS_URL only: down means rate limits and sign-in counters are per process for now. */
  redis: z.enum(['up', 'down']).optional(),
});

export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: "The server's, the database's and (with REDIS_URL) Redis's state",
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_request, reply) => {
      const up = await app.database.ping();
      const redis = app.redisState();
      // Without Redis the site still serves (its limits per process): degraded, but not unavailable.
      return reply.code(up ? 200 : 503).send({
        status: up && redis !== 'down' ? 'ok' : 'degraded',
        database: up ? 'up' : 'down',
        databaseKind: app.database.kind,
        ...(redis ? { redis } : {}),
      });
    },
  );
}
