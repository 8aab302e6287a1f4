import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scheduleResponse, weeklySchedule } from '#shared/schemas/schedule';
import { setSchedule } from './repository';

/** A staff member's own availability: the weekdays and hours they can work. */
export async function scheduleRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['my work'];
  const staff = { access: 'staff' as const };

  r.get(
    '/my/schedule',
    {
      config: staff,
      schema: {
        tags,
        summary: 'The weekdays and hours I am available',
        response: { 200: scheduleResponse },
      },
    },
    async (request) => ({ schedule: request.user!.schedule }),
  );

  r.put(
    '/my/schedule',
    {
      config: { ...staff, audit: { kind: 'users', action: 'Changed their schedule' } },
      schema: {
        tags,
        summary: 'Set the weekdays and hours I am available',
        body: z.object({ schedule: weeklySchedule }),
        response: { 200: scheduleResponse },
      },
    },
    async (request) => {
      return { schedule: await app.db.transaction((tx) => setSchedule(tx, request.user!.id, request.body.schedule)) };
    },
  );
}
