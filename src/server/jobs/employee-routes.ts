import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { crewJob, crewJobList, crewJobStatusInput, workLines, type JobView } from '#shared/schemas/jobs';
import { notFound } from '../lib/http-errors';
import { changeJobStatus, withPhotos } from './service';
import { isAssigned, jobDetail, listJobs } from './repository';
import type { CompleteJob } from './routes';

/** The employee area: the signed-in worker's jobs (any staff member). */
export async function employeeRoutes(app: FastifyInstance, { completeJob }: { completeJob: CompleteJob }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['my work'];
  const staff = { access: 'staff' as const };

  r.get(
    '/my/jobs',
    {
      config: staff,
      schema: {
        tags,
        summary: 'Jobs assigned to me (open ones only unless all=true)',
        querystring: z.object({ all: z.enum(['true', 'false']).default('false') }),
        response: { 200: crewJobList },
      },
    },
    async (request) => {
      const { rows } = await listJobs(app.db, {
        page: 1,
        limit: 200,
        workerId: request.user!.id,
        openOnly: request.query.all !== 'true',
      });
      // The sold lines, without their prices: the work to do.
      const today = await app.settings.today();
      const details = await Promise.all(rows.map((row) => jobDetail(app.db, row, today)));
      const jobs = await withPhotos(app, details);
      return { jobs: jobs.map(({ quote, ...job }: JobView) => ({ ...job, work: workLines(quote) })) };
    },
  );

  r.patch(
    '/my/jobs/:id/status',
    {
      config: { ...staff, audit: { kind: 'jobs', action: "Changed a job's status (crew)" } },
      schema: {
        tags,
        summary: 'Mark one of my jobs In Progress or Completed',
        params: z.object({ id: z.string().max(64) }),
        body: crewJobStatusInput,
        response: { 200: crewJob, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      // Someone else's job answers like a missing one.
      if (!(await isAssigned(app.db, request.params.id, request.user!.id))) throw notFound('Job not found');
      const row =
        request.body.status === 'Completed'
          ? await completeJob(app, request.params.id, { crew: true })
          : await app.db.transaction((tx) =>
              changeJobStatus(tx, request.params.id, request.body.status, { crew: true }),
            );
      const { quote, ...job } = await jobDetail(app.db, row, await app.settings.today());
      return { ...job, work: workLines(quote) };
    },
  );
}
