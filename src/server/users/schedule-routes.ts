import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { scheduleResponse, weeklySchedule } from '#shared/schemas/schedule';
import { timeOffInput, timeOffList, timeOffView } from '#shared/schemas/time-off';
import { setSchedule } from './repository';
import { addTimeOff, comingTimeOff, removeTimeOff } from './time-off';

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

  r.get(
    '/my/time-off',
    {
      config: staff,
      schema: { tags, summary: 'My time off from today on, soonest first', response: { 200: timeOffList } },
    },
    async (request) => ({ timeOff: await comingTimeOff(app.db, request.user!.id, await app.settings.today()) }),
  );

  r.post(
    '/my/time-off',
    {
      config: { ...staff, audit: { kind: 'users', action: 'Added time off' } },
      schema: {
        tags,
        summary: 'Add whole days off (first and last included): no visits are offered to clients then',
        body: timeOffInput,
        response: { 201: timeOffView, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const today = await app.settings.today();
      const added = await app.db.transaction((tx) => addTimeOff(tx, request.user!.id, today, request.body));
      return reply.code(201).send(added);
    },
  );

  r.delete(
    '/my/time-off/:id',
    {
      config: { ...staff, audit: { kind: 'users', action: 'Removed time off' } },
      schema: {
        tags,
        summary: 'Remove a stretch of my time off',
        params: z.object({ id: z.string().max(64) }),
        response: { 204: z.null(), 404: errorResponse },
      },
    },
    async (request, reply) => {
      await app.db.transaction((tx) => removeTimeOff(tx, request.user!.id, request.params.id));
      return reply.code(204).send(null);
    },
  );
}
