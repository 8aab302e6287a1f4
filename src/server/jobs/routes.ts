import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../shared/schemas/errors';
import { assignWorkersInput, JOB_TRANSITIONS, jobStatus, jobStatusInput, jobView } from '../../shared/schemas/jobs';
import { pageQuery, totalPagesOf } from '../../shared/schemas/paging';
import type { JobStatus } from '../../shared/constants';
import { jobs, users } from '../db/schema';
import { badRequest, conflict, notFound } from '../plugins/errors';
import type { DbOrTx } from '../db/client';
import { findJobById, jobDetail, jobViews, listJobs, setWorkers } from './repository';

const idParams = z.object({ id: z.string().max(64) });
const jobList = z.object({ jobs: z.array(jobView), totalPages: z.number(), total: z.number() });

/** Moves a job along JOB_TRANSITIONS; 409 for a change the workflow does not allow. */
export async function changeJobStatus(db: DbOrTx, id: string, to: JobStatus) {
  const job = await findJobById(db, id);
  if (!job) throw notFound('Job not found');
  if (job.status === to) return job;
  if (!JOB_TRANSITIONS[job.status].includes(to)) throw conflict(`A job that is ${job.status} cannot become ${to}`);
  const [row] = await db.update(jobs).set({ status: to }).where(eq(jobs.id, id)).returning();
  return row!;
}

/** Jobs for the office: all of them, their crews and their quotes. Admins only. */
export async function jobRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['jobs'];
  const admin = { access: 'admin' as const };

  r.get(
    '/jobs',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Jobs newest first, by page, with optional client-name search and status',
        querystring: pageQuery.extend({ status: jobStatus.optional() }),
        response: { 200: jobList },
      },
    },
    async (request) => {
      const { rows, total } = await listJobs(app.db, request.query);
      return { jobs: await jobViews(app.db, rows), totalPages: totalPagesOf(total, request.query.limit), total };
    },
  );

  r.get(
    '/jobs/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'One job with its workers and quote',
        params: idParams,
        response: { 200: jobView, 404: errorResponse },
      },
    },
    async (request) => {
      const job = await findJobById(app.db, request.params.id);
      if (!job) throw notFound('Job not found');
      return jobDetail(app.db, job);
    },
  );

  r.post(
    '/jobs/:id/assign',
    {
      config: admin,
      schema: {
        tags,
        summary: "Set the job's workers (the list replaces the current one)",
        params: idParams,
        body: assignWorkersInput,
        response: { 200: jobView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const ids = [...new Set(request.body.workers.map((w) => w._id))];
      const view = await app.db.transaction(async (tx) => {
        const job = await findJobById(tx, request.params.id);
        if (!job) throw notFound('Job not found');
        const found = ids.length ? await tx.select({ id: users.id }).from(users).where(inArray(users.id, ids)) : [];
        if (found.length !== ids.length) throw badRequest('workers: every worker must be an existing user');
        await setWorkers(tx, job.id, ids);
        return jobDetail(tx, job);
      });
      return view;
    },
  );

  r.patch(
    '/jobs/:id/status',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Move a job: Not Started → In Progress → Completed, or Cancelled',
        params: idParams,
        body: jobStatusInput,
        response: { 200: jobView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => jobDetail(app.db, await changeJobStatus(app.db, request.params.id, request.body.status)),
  );
}
