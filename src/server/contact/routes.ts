import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contactInput, contactSent } from '#shared/schemas/contact';
import { errorResponse } from '#shared/schemas/errors';
import { publicFormLimit } from '../plugins/rate-limit';
import { storeContactMessage } from './service';

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
          201: contactSent,
          400: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const id = await storeContactMessage(app, request.body);
      return reply.code(201).send({ contactMessage: { _id: id } });
    },
  );
}
