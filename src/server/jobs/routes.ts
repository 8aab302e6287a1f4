import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  assignWorkersInput,
  jobAddressInput,
  jobList,
  jobRef,
  jobStatus,
  jobStatusInput,
  jobView,
} from '#shared/schemas/jobs';
import { pageQuery, totalPagesOf } from '#shared/schemas/paging';
import { notFound } from '../lib/http-errors';
import { findJobById, findJobIdByRequest, jobDetail, jobViews, listJobs, type JobRow } from './repository';
import { assignWorkers, moveJob, moveJobToAddress, undoCancelJob, withPhotos, type JobLifecycle } from './service';

const idParams = z.object({ id: z.string().max(64) });

/** Completes a job with its report (the job-records feature, composed in app.ts). */
export type CompleteJob = (app: FastifyInstance, jobId: string, options: { crew: boolean }) => Promise<JobRow>;

/** Jobs for the office: all of them, their crews and their quotes. Admins only. */
export async function jobRoutes(
  app: FastifyInstance,
  { completeJob, lifecycle }: { completeJob: CompleteJob; lifecycle: JobLifecycle },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['jobs'];
  const office = { access: 'office' as const };

  r.get(
    '/jobs',
    {
      config: office,
      schema: {
        tags,
        summary: 'Jobs newest first, by page, with optional client-name search and status',
        querystring: pageQuery.extend({
          status: jobStatus.optional(),
          /** Only jobs still to do (Not Started or In Progress). */
          open: z.enum(['true', 'false']).optional(),
        }),
        response: { 200: jobList },
      },
    },
    async (request) => {
      const { open, ...query } = request.query;
      const { rows, total } = await listJobs(app.db, { ...query, openOnly: open === 'true' });
      return { jobs: await jobViews(app.db, rows), totalPages: totalPagesOf(total, request.query.limit), total };
    },
  );

  r.get(
    '/jobs/:id',
    {
      config: office,
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
      const [view] = await withPhotos(app, [await jobDetail(app.db, job, await app.settings.today())]);
      return view!;
    },
  );

  r.get(
    '/jobs/by-quote-request/:quoteRequestId',
    {
      config: office,
      schema: {
        tags,
        summary: 'The job a request became, or null while it has none (the request page links to it)',
        params: z.object({ quoteRequestId: z.string().max(64) }),
        response: { 200: jobRef.nullable() },
      },
    },
    // No job yet is an answer, not a missing page: a 404 would be a console error on every request page.
    async (request, reply) => {
      const id = await findJobIdByRequest(app.db, request.params.quoteRequestId);
      return reply.send(id ? { _id: id } : null);
    },
  );

  r.post(
    '/jobs/:id/assign',
    {
      config: { ...office, audit: { kind: 'jobs', action: 'Assigned a job' } },
      schema: {
        tags,
        summary: "Set the job's workers (the list replaces the current one)",
        params: idParams,
        body: assignWorkersInput,
        response: { 200: jobView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      return assignWorkers(
        app,
        request.params.id,
        request.body.workers.map((w) => w._id),
      );
    },
  );

  r.patch(
    '/jobs/:id/address',
    {
      config: { ...office, audit: { kind: 'jobs', action: "Changed a job's service address" } },
      schema: {
        tags,
        summary: "Move a job to another of its client's service addresses",
        params: idParams,
        body: jobAddressInput,
        response: { 200: jobView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await moveJobToAddress(app, request.params.id, request.body.serviceAddressId);
      return jobDetail(app.db, row, await app.settings.today());
    },
  );

  r.patch(
    '/jobs/:id/status',
    {
      config: { ...office, audit: { kind: 'jobs', action: "Changed a job's status" } },
      schema: {
        tags,
        summary:
          'Move a job: Not Started → In Progress → Completed, Cancelled (with a reason), or reopen a Completed one',
        params: idParams,
        body: jobStatusInput,
        response: { 200: jobView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { status, reason } = request.body;
      const row =
        status === 'Completed'
          ? await completeJob(app, request.params.id, { crew: false })
          : await moveJob(app, request.params.id, status, reason, lifecycle);
      return jobDetail(app.db, row, await app.settings.today());
    },
  );

  r.post(
    '/jobs/:id/undo-cancel',
    {
      config: { ...office, audit: { kind: 'jobs', action: "Undid a job's cancellation" } },
      schema: {
        tags,
        summary: 'Undo a cancellation: the job goes back to the status it had',
        params: idParams,
        response: { 200: jobView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) =>
      jobDetail(app.db, await undoCancelJob(app, request.params.id, lifecycle), await app.settings.today()),
  );
}
