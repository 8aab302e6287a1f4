import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
  databaseKind: z.enum(['pglite', 'postgres']),
});

export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: "The server's and the database's state",
        response: { 200: healthResponse, 503: healthResponse },
      },
    },
    async (_request, reply) => {
      const up = await app.database.ping();
      return reply
        .code(up ? 200 : 503)
        .send({ status: up ? 'ok' : 'degraded', database: up ? 'up' : 'down', databaseKind: app.database.kind });
    },
  );
}
