import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { errorResponse } from '../../shared/schemas/errors';
import { mailOutbox } from '../db/schema';
import { conflict, notFound } from '../lib/http-errors';

/** The office's hand on the outbox: try a failing e-mail again now. */
export async function mailRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/mail/:id/send-again',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['mail'],
        summary: 'Try an e-mail that has not gone out again, now',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: z.object({ ok: z.literal(true) }), 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const [row] = await app.db.transaction((tx) =>
        tx
          .update(mailOutbox)
          .set({ nextAttemptAt: sql`now()`, lockedUntil: null })
          .where(and(eq(mailOutbox.id, request.params.id), eq(mailOutbox.sent, false), isNull(mailOutbox.cancelledAt)))
          .returning({ id: mailOutbox.id }),
      );
      if (!row) {
        const existing = await app.db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, request.params.id) });
        if (!existing) throw notFound('E-mail not found');
        throw conflict(
          existing.sent ? 'This e-mail was already sent' : 'This e-mail was called off',
          'MAIL_NOT_RETRYABLE',
        );
      }
      app.mail.kick();
      return { ok: true as const };
    },
  );
}
