import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactInput } from '../../shared/schemas/contact';
import { errorResponse } from '../../shared/schemas/errors';
import { newId } from '../db/ids';
import { contactMessages } from '../db/schema';
import { composeEmail } from '../mail/compose';
import { enqueueMail } from '../mail/outbox';
import { publicFormLimit } from '../plugins/rate-limit';
import { businessOf } from '../lib/business';

export async function contactRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/contact',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags: ['contact'],
        summary: 'A visitor sends a message; it is stored and e-mailed to the owner',
        body: contactInput,
        response: {
          201: z.object({ contactMessage: z.object({ _id: z.string() }) }),
          400: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const m = request.body;
      const name = `${m.firstName} ${m.lastName}`;
      const { html, text } = composeEmail({
        business: businessOf(app.config),
        heading: `New message from ${name}`,
        blocks: [
          {
            kind: 'details',
            rows: [
              ['Name', name],
              ['E-mail', m.email],
              ['Phone', m.phone || 'Not provided'],
            ],
          },
          { kind: 'preformatted', text: m.message },
        ],
      });
      const id = newId();
      await app.db.transaction(async (tx) => {
        await tx.insert(contactMessages).values({ id, ...m });
        await enqueueMail(tx, {
          to: app.config.OWNER_EMAIL,
          replyTo: m.email,
          subject: `Contact request from ${name}`,
          html,
          text,
        });
      });
      app.mail.kick();
      return reply.code(201).send({ contactMessage: { _id: id } });
    },
  );
}
