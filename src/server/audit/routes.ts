import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addDays, zonedTimeToUtc } from '#shared/dates';
import { auditList, auditQuery } from '#shared/schemas/audit';
import { errorResponse } from '#shared/schemas/errors';
import { withRecords } from './records';
import { listAudit, listAuditPeople } from './repository';

/** The Activity page: the trail, read-only (there is no route that changes or removes an entry). */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/audit',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['audit'],
        summary:
          'The audit trail, newest first: who did what, when and from where; filtered by person, kind and days; by page or older than a cursor',
        querystring: auditQuery,
        response: { 200: auditList, 400: errorResponse },
      },
    },
    async (request) => {
      const { page, before, limit, userId, kind, from, to } = request.query;
      const timeZone = (await app.settings.current()).timeZone;
      const filter = {
        userId,
        kind,
        from: from ? zonedTimeToUtc(from, '00:00', timeZone) : undefined,
        to: to ? zonedTimeToUtc(addDays(to, 1), '00:00', timeZone) : undefined,
      };
      const [{ entries, total, capped, nextBefore }, people] = await Promise.all([
        listAudit(app.db, filter, before ? { before } : { page }, limit),
        listAuditPeople(app.db),
      ]);
      return {
        entries: await withRecords(app.db, entries),
        total,
        capped,
        nextBefore,
        totalPages: Math.max(1, Math.ceil(total / limit)),
        people,
      };
    },
  );
}
