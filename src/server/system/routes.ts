import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { systemView } from '#shared/schemas/system';
import { systemView as readSystemView } from './service';

/** The System page's data: every part of the machinery, green or red (decision 039). */
export async function systemRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/system',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['health'],
        summary:
          'For admins: the mail relay, reminders, backups, the background jobs, the database, disk space, Redis, card payments and this server, each green or red with what to do',
        response: { 200: systemView },
      },
    },
    async () => readSystemView(app),
  );
}
