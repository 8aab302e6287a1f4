import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { done, errorResponse } from '#shared/schemas/errors';
import { sendAgain } from './outbox';

/** The office's hand on the outbox: try a failing e-mail again now. */
export async function mailRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/mail/:id/send-again',
    {
      config: { access: 'office', audit: { kind: 'mail', action: 'Sent an e-mail again' } },
      schema: {
        tags: ['mail'],
        summary: 'Try an e-mail that has not gone out again, now',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: done, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await sendAgain(app.db, request.params.id);
      return { ok: true as const };
    },
  );
}
