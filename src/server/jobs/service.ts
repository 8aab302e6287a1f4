import { and, eq, inArray } from 'drizzle-orm';
import type { JobStatus } from '#shared/constants';
import { canMove, CREW_TRANSITIONS, isOpenJob, JOB_TRANSITIONS } from '#shared/statuses';
import type { DbOrTx, Tx } from '../db/client';
import { users } from '../db/schema';
import { jobs } from './tables';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import type { BusinessSettings } from '../lib/business';
import type { FastifyInstance } from 'fastify';
import type { JobView } from '#shared/schemas/jobs';
import { serviceAddressOf } from '../clients';
import { requestPhotos, type QuoteRequestRow } from '../quote-requests';
import type { QuoteRow } from '../quotes';
import { findJobById, insertJob, jobDetail, setWorkers, type JobRow } from './repository';

/** Throws unless the workflow lets this job become `to` (the crew's moves only go forward). */
export function checkJobMove(
  job: Pick<JobRow, 'status'>,
  to: JobStatus,
  options: { reason?: string | undefined; crew?: boolean } = {},
) {
  if (!canMove(options.crew ? CREW_TRANSITIONS : JOB_TRANSITIONS, job.status, to))
    throw conflict(`A job that is ${job.status} cannot become ${to}`, 'INVALID_STATUS_CHANGE');
  if (to === 'Cancelled' && !options.reason?.trim()) throw badRequest('reason: Please give a reason for cancelling');
}

/**
 * Moves a job along the office's transitions (or the crew's, which only go forward); 409 for a change
 * the workflow does not allow. A cancellation needs a reason and remembers the status it undoes.
 */
export async function changeJobStatus(
  db: DbOrTx,
  id: string,
  to: JobStatus,
  options: { reason?: string | undefined; crew?: boolean } = {},
) {
  const job = await findJobById(db, id);
  if (!job) throw notFound('Job not found');
  if (job.status === to) return job;
  checkJobMove(job, to, options);
  const row = await moveJobFrom(db, id, job.status, to, options.reason);
  if (!row) throw conflict('This job changed meanwhile: reload the page', 'INVALID_STATUS_CHANGE');
  return row;
}

/**
 * Sets a job's status only if it is still `from` (undefined otherwise): of two changes at once, one
 * applies. A cancellation keeps its reason and the status it undoes.
 */
export async function moveJobFrom(db: DbOrTx, id: string, from: JobStatus, to: JobStatus, reason?: string) {
  const [row] = await db
    .update(jobs)
    .set(
      to === 'Cancelled'
        ? { status: to, cancelReason: reason?.trim() ?? '', statusBeforeCancel: from }
        : { status: to },
    )
    .where(and(eq(jobs.id, id), eq(jobs.status, from)))
    .returning();
  return row;
}

/**
 * What else a job's end and its reopening do, in the transaction that changes its status: its visits'
 * reminders called off (and scheduled again), the office told of an open deposit invoice. Composed in
 * app.ts from the features that know those (visits, invoices), which build on jobs.
 */
export interface JobLifecycle {
  closed(tx: Tx, job: JobRow, how: 'Completed' | 'Cancelled', business: BusinessSettings): Promise<void>;
  reopened(tx: Tx, job: JobRow, business: BusinessSettings): Promise<void>;
}

/**
 * The office moves a job (not to Completed: that is `completeJob`, which makes the report): the status
 * and what a cancellation or a reopening also does, together.
 */
export async function moveJob(
  app: FastifyInstance,
  id: string,
  to: Exclude<JobStatus, 'Completed'>,
  reason: string | undefined,
  lifecycle: JobLifecycle,
) {
  // Read before the transaction: on the embedded database's one connection, a read outside the
  // transaction while it is open would wait for it forever.
  const business = await app.settings.current();
  const row = await app.db.transaction(async (tx) => {
    const before = await findJobById(tx, id);
    const row = await changeJobStatus(tx, id, to, { reason });
    if (before && before.status !== row.status) await lifecycleStep(tx, before.status, row, lifecycle, business);
    return row;
  });
  return row;
}

/** What a move from `from` to the row's status also does: an end, or a reopening. */
export async function lifecycleStep(
  tx: Tx,
  from: JobStatus,
  row: JobRow,
  lifecycle: JobLifecycle,
  business: BusinessSettings,
) {
  if (isOpenJob(from) && !isOpenJob(row.status)) await lifecycle.closed(tx, row, row.status, business);
  else if (!isOpenJob(from) && isOpenJob(row.status)) await lifecycle.reopened(tx, row, business);
}

/** Undoes a cancellation (the job goes back to the status it had), with what a reopening does. */
export async function undoCancelJob(app: FastifyInstance, id: string, lifecycle: JobLifecycle) {
  const business = await app.settings.current(); // before the transaction: see moveJob
  const row = await app.db.transaction(async (tx) => {
    const row = await undoCancel(tx, id);
    await lifecycleStep(tx, 'Cancelled', row, lifecycle, business);
    return row;
  });
  return row;
}

/** Undoes a cancellation: the job goes back to the status it had. */
export async function undoCancel(db: DbOrTx, id: string) {
  const job = await findJobById(db, id);
  if (!job) throw notFound('Job not found');
  if (job.status !== 'Cancelled') throw conflict('This job is not cancelled', 'INVALID_STATUS_CHANGE');
  const [row] = await db
    .update(jobs)
    .set({ status: job.statusBeforeCancel ?? 'Not Started', cancelReason: null, statusBeforeCancel: null })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'Cancelled')))
    .returning();
  if (!row) throw conflict('This job changed meanwhile: reload the page', 'INVALID_STATUS_CHANGE');
  return row;
}

/** Sets a job's crew (the list replaces the current one); every id must be an existing user. */
export async function assignWorkers(app: FastifyInstance, jobId: string, workerIds: string[]) {
  const ids = [...new Set(workerIds)];
  const today = await app.settings.today();
  return app.db.transaction(async (tx) => {
    const job = await findJobById(tx, jobId);
    if (!job) throw notFound('Job not found');
    const found = ids.length ? await tx.select({ id: users.id }).from(users).where(inArray(users.id, ids)) : [];
    if (found.length !== ids.length) throw badRequest('workers: every worker must be an existing user');
    await setWorkers(tx, job.id, ids);
    return jobDetail(tx, job, today);
  });
}

/** A client's yes becomes a job at once, with the request's contact, address and notes. */
export async function createJobForAcceptedQuote(tx: Tx, quote: QuoteRow, request: QuoteRequestRow): Promise<string> {
  return insertJob(tx, {
    quoteId: quote.id,
    quoteRequestId: request.id,
    clientId: request.clientId,
    serviceAddressId: request.serviceAddressId,
    contactName: request.contactName,
    contactEmail: request.contactEmail,
    contactPhone: request.contactPhone,
    street: request.street,
    city: request.city,
    state: request.state,
    zip: request.zip,
    notes: request.notes,
  });
}

/**
 * A service plan the client signed (issue 31) becomes a job of its own, with no request or quote: the
 * client's contact and the plan's address, and what the plan includes as its notes.
 */
export async function createJobForServicePlan(
  tx: Tx,
  job: {
    clientId: string;
    serviceAddressId: string | null;
    contact: { name: string; email: string; phone: string };
    address: { street: string; city: string; state: string; zip: string };
    notes: string;
  },
): Promise<string> {
  return insertJob(tx, {
    clientId: job.clientId,
    serviceAddressId: job.serviceAddressId,
    contactName: job.contact.name,
    contactEmail: job.contact.email,
    contactPhone: job.contact.phone,
    ...job.address,
    notes: job.notes,
  });
}

/** Jobs with the client's photos from the request each came from (signed addresses, as on the request page). */
export async function withPhotos<T extends JobView>(app: FastifyInstance, views: T[]): Promise<T[]> {
  const ids = views.map((v) => v.quoteRequestId).filter((id): id is string => id !== null);
  const photos = await requestPhotos(app.db, app.tokens, ids);
  return views.map((v) => ({ ...v, photos: (v.quoteRequestId && photos.get(v.quoteRequestId)) || [] }));
}

/**
 * The job moves to another of its client's service addresses (decision 037): its address (what the crew
 * and the invoice read) becomes that one. A job without a client, or an address not theirs, is refused.
 */
export async function moveJobToAddress(app: FastifyInstance, jobId: string, serviceAddressId: string) {
  return app.db.transaction(async (tx) => {
    const job = await findJobById(tx, jobId);
    if (!job) throw notFound('Job not found');
    if (!isOpenJob(job.status)) throw conflict(`This job is ${job.status}: its address stays`, 'JOB_CLOSED');
    const address = job.clientId ? await serviceAddressOf(tx, job.clientId, serviceAddressId) : undefined;
    if (!address) throw badRequest('serviceAddressId: not one of this client’s service addresses', 'VALIDATION_FAILED');
    const [row] = await tx
      .update(jobs)
      .set({
        serviceAddressId: address.id,
        street: address.street,
        city: address.city,
        state: address.state,
        zip: address.zip,
      })
      .where(eq(jobs.id, jobId))
      .returning();
    return row!;
  });
}
