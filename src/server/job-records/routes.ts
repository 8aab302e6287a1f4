import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  changeHeaders,
  checklistItemInput,
  crewClientNoteInput,
  crewNotesInput,
  jobPhotoInput,
  jobRecordView,
  materialInput,
  recordItemId,
  signatureInput,
  timeEntryInput,
} from '#shared/schemas/job-records';
import { crewJob, workLines } from '#shared/schemas/jobs';
import type { DbOrTx } from '../db/client';
import type { BusinessSettings } from '../lib/business';
import { errorBody, notFound } from '../lib/http-errors';
import { findJobById, isAssigned, jobDetail, type JobLifecycle } from '../jobs';
import { reportKey } from './emails';
import { verifyRecordLink, type RecordFile } from './links';
import { findPhoto, findRecord, seedChecklist } from './repository';
import type { UserRow } from '../users';
import {
  applyInOrder,
  completeJob,
  deleteChecklistItem,
  deleteMaterial,
  deletePhoto,
  deleteTimeEntry,
  putChecklistItem,
  putMaterial,
  putNotes,
  putPhoto,
  putSignature,
  putTimeEntry,
  recordView,
  reportSource,
  signaturePng,
  type Actor,
} from './service';

const jobParams = z.object({ id: z.string().max(64) });
const itemParams = jobParams.extend({ itemId: recordItemId });
const saved = z.object({ ok: z.literal(true) });
const failures = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * The crew's record of a job, on their phones (only for jobs they are on), and the office's view of it.
 * Every crew write is a PUT or DELETE of an id the phone chose, answered `{ ok: true }`: a change queued
 * offline and sent again lands once. The files are reached by signed addresses, like request photos.
 */
export async function jobRecordRoutes(app: FastifyInstance, { lifecycle }: { lifecycle: JobLifecycle }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['job record'];
  app.documents.register('job-report', reportSource(app));
  const staff = { access: 'staff' as const };
  const office = { access: 'office' as const };

  /** The job, when the signed-in worker is on it (anyone else's answers like a missing one). */
  async function myJob(jobId: string, userId: string) {
    if (!(await isAssigned(app.db, jobId, userId))) throw notFound('Job not found');
    const job = await findJobById(app.db, jobId);
    if (!job) throw notFound('Job not found');
    return job;
  }

  /** The record, with the sold quote's lines copied into the checklist the first time it is read. */
  async function viewFor(jobId: string, actor: Actor) {
    const job = await findJobById(app.db, jobId);
    if (!job) throw notFound('Job not found');
    if (!(await findRecord(app.db, job.id))?.checklistSeededAt) {
      const lines = workLines((await jobDetail(app.db, job, await app.settings.today())).quote);
      await app.db.transaction((tx) => seedChecklist(tx, job.id, lines));
    }
    return recordView(app, job, await app.settings.current(), actor);
  }

  const crew = (user: UserRow): Actor => ({ userId: user.id, office: false, lead: user.teamRole === 'crew_lead' });

  r.get(
    '/my/jobs/:id/record',
    {
      config: staff,
      schema: {
        tags,
        summary: "One of my jobs' record: checklist, time, materials, photos, notes, signature",
        params: jobParams,
        response: { 200: jobRecordView, 404: errorResponse },
      },
    },
    async (request) => {
      await myJob(request.params.id, request.user!.id);
      return viewFor(request.params.id, crew(request.user!));
    },
  );

  /**
   * A crew write: checked against the job's crew, then `{ ok: true }`. An `ordered` one is applied only
   * when newer than the last change to the same thing (decision 026); photos and the signature are
   * not (a photo is stored once per id; both are drawn outside any transaction).
   */
  function crewWrite<B extends z.ZodType>(
    method: 'PUT' | 'DELETE',
    path: string,
    summary: string,
    /** What the Activity page says of it. */
    action: string,
    body: B | null,
    handle: (
      db: DbOrTx,
      jobId: string,
      itemId: string,
      body: z.infer<B>,
      actor: Actor,
      business: BusinessSettings,
    ) => Promise<void>,
    ordered = true,
  ) {
    r.route({
      method,
      url: `/my/jobs/:id/${path}`,
      config: { ...staff, audit: { kind: 'crew', action } },
      schema: {
        tags,
        summary,
        params: path.includes(':itemId') ? itemParams : jobParams,
        ...(ordered ? { headers: changeHeaders } : {}),
        ...(body ? { body } : {}),
        response: { 200: saved, ...failures },
      },
      handler: async (request) => {
        const params = request.params as { id: string; itemId?: string };
        await myJob(params.id, request.user!.id);
        // Read before the transaction: on the embedded database, a read outside it would wait for it.
        const business = await app.settings.current();
        const run = (db: DbOrTx) =>
          handle(db, params.id, params.itemId ?? '', request.body as z.infer<B>, crew(request.user!), business);
        if (!ordered) await run(app.db);
        else await applyInOrder(app.db, params.id, path.replace(':itemId', params.itemId ?? ''), request.headers, run);
        return { ok: true as const };
      },
    });
  }

  crewWrite(
    'PUT',
    'checklist/:itemId',
    'Add, reword, tick or untick a checklist item',
    'Saved a checklist item',
    checklistItemInput,
    (db, job, id, body, actor) => putChecklistItem(db, job, id, body, actor),
  );
  crewWrite(
    'DELETE',
    'checklist/:itemId',
    "Remove one of the crew's own checklist items",
    'Removed a checklist item',
    null,
    (db, job, id) => deleteChecklistItem(db, job, id),
  );
  crewWrite(
    'PUT',
    'time/:itemId',
    'Start or stop my timer, or enter my hours for a day',
    'Saved time worked',
    timeEntryInput,
    (db, job, id, body, actor, business) => putTimeEntry(db, job, id, body, actor, business.timeZone),
  );
  crewWrite(
    'DELETE',
    'time/:itemId',
    'Remove one of my time entries',
    'Removed time worked',
    null,
    (db, job, id, _body, actor) => deleteTimeEntry(db, job, id, actor),
  );
  crewWrite(
    'PUT',
    'materials/:itemId',
    'Add or change a material used beyond the quote',
    'Saved a material',
    materialInput,
    (db, job, id, body, actor, business) => putMaterial(db, business, job, id, body, actor),
  );
  crewWrite(
    'DELETE',
    'materials/:itemId',
    'Remove a material',
    'Removed a material',
    null,
    (db, job, id, _body, actor) => deleteMaterial(db, job, id, actor),
  );
  crewWrite(
    'PUT',
    'photos/:itemId',
    'Add a before or after photo (or change its stage)',
    'Added a photo',
    jobPhotoInput,
    (_db, job, id, body, actor) => putPhoto(app, job, id, body, actor),
    false,
  );
  crewWrite(
    'DELETE',
    'photos/:itemId',
    'Remove a photo',
    'Removed a photo',
    null,
    (_db, job, id) => app.db.transaction((tx) => deletePhoto(tx, job, id)),
    false,
  );
  crewWrite(
    'PUT',
    'notes',
    'Notes for the office',
    'Wrote notes for the office',
    crewNotesInput,
    (db, job, _id, body) => putNotes(db, job, { crewNotes: body.notes }),
  );
  crewWrite(
    'PUT',
    'client-note',
    'A note to the client, printed on their report',
    'Wrote a note to the client',
    crewClientNoteInput,
    (db, job, _id, body) => putNotes(db, job, { clientNote: body.note }),
  );
  crewWrite(
    'PUT',
    'signature',
    "The client's signature and printed name",
    "Took the client's signature",
    signatureInput,
    (_db, job, _id, body) => putSignature(app, job, body),
    false,
  );

  r.post(
    '/my/jobs/:id/complete',
    {
      config: { ...staff, audit: { kind: 'jobs', action: 'Completed a job' } },
      schema: {
        tags,
        summary: 'Complete one of my jobs: the report is made and e-mailed to the client and the owner',
        params: jobParams,
        response: { 200: crewJob, ...failures },
      },
    },
    async (request) => {
      await myJob(request.params.id, request.user!.id);
      const row = await completeJob(app, request.params.id, { crew: true, lifecycle });
      const { quote, ...job } = await jobDetail(app.db, row, await app.settings.today());
      return { ...job, work: workLines(quote) };
    },
  );

  r.get(
    '/jobs/:id/record',
    {
      config: office,
      schema: {
        tags,
        summary: "A job's record as the crew left it, with prices",
        params: jobParams,
        response: { 200: jobRecordView, 404: errorResponse },
      },
    },
    async (request) => viewFor(request.params.id, { userId: request.user!.id, office: true }),
  );

  r.put(
    '/jobs/:id/materials/:itemId',
    {
      config: { ...office, audit: { kind: 'jobs', action: 'Priced a material' } },
      schema: {
        tags,
        summary: 'Add, change or price a material used on a job (null clears the price)',
        params: itemParams,
        body: materialInput,
        response: { 200: saved, ...failures },
      },
    },
    async (request) => {
      const { id, itemId } = request.params;
      const actor = { userId: request.user!.id, office: true };
      const business = await app.settings.current();
      await applyInOrder(app.db, id, `materials/${itemId}`, request.headers, (db) =>
        putMaterial(db, business, id, itemId, request.body, actor),
      );
      return { ok: true as const };
    },
  );
  r.delete(
    '/jobs/:id/materials/:itemId',
    {
      config: { ...office, audit: { kind: 'jobs', action: 'Removed a material' } },
      schema: {
        tags,
        summary: 'Remove a material from a job',
        params: itemParams,
        response: { 200: saved, ...failures },
      },
    },
    async (request) => {
      const { id, itemId } = request.params;
      const actor = { userId: request.user!.id, office: true };
      await applyInOrder(app.db, id, `materials/${itemId}`, request.headers, (db) =>
        deleteMaterial(db, id, itemId, actor),
      );
      return { ok: true as const };
    },
  );

  // Reached from <img> tags and download links: the signed address is the permission.
  const invalidLink = (reply: FastifyReply) =>
    reply.code(401).send(errorBody(401, 'This link is missing, wrong or expired', 'LINK_INVALID'));
  const signedQuery = z.object({ sig: z.string().max(2000).optional() });
  const checked = async (file: RecordFile, subject: string, sig: string | undefined) =>
    verifyRecordLink(app.tokens, file, subject, sig);

  r.get(
    '/job-photos/:photoId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A job photo (needs the signed address from the record)',
        params: z.object({ photoId: z.string().max(64) }),
        querystring: signedQuery.extend({ size: z.enum(['full', 'thumb']).default('full') }),
      },
    },
    async (request, reply) => {
      if (!(await checked('photo', request.params.photoId, request.query.sig))) return invalidLink(reply);
      const photo = await findPhoto(app.db, request.params.photoId);
      if (!photo) throw notFound('Photo not found');
      const thumb = request.query.size === 'thumb';
      return reply
        .type(thumb ? 'image/webp' : photo.mimeType)
        .header('cache-control', 'private, max-age=600')
        .send(thumb ? photo.thumbnail : photo.data);
    },
  );

  r.get(
    '/jobs/:id/signature.png',
    {
      config: { access: 'public' },
      schema: { tags, summary: "A job's signature (signed address)", params: jobParams, querystring: signedQuery },
    },
    async (request, reply) => {
      if (!(await checked('signature', request.params.id, request.query.sig))) return invalidLink(reply);
      const png = await signaturePng(app.db, request.params.id);
      if (!png) throw notFound('No signature');
      return reply.type('image/png').header('cache-control', 'private, max-age=600').send(png);
    },
  );

  r.get(
    '/jobs/:id/report.pdf',
    {
      config: { access: 'public' },
      schema: { tags, summary: "A job's report (signed address)", params: jobParams, querystring: signedQuery },
    },
    async (request, reply) => {
      if (!(await checked('report', request.params.id, request.query.sig))) return invalidLink(reply);
      // Drawn now if the worker has not finished it yet (the same drawing, not a second one).
      const pdf = (await app.documents.current(reportKey(request.params.id)))?.bytes;
      if (!pdf) throw notFound('No report yet');
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="job-report.pdf"`)
        .header('cache-control', 'private, max-age=600')
        .send(pdf);
    },
  );
}
