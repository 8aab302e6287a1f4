import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { toCents, toDollars } from '#shared/money';
import { isOpenJob } from '#shared/statuses';
import { changedChecklistItem, isLateStart, materialUnitPrice, timerEnd, timerMinutes } from '#shared/job-record-rules';
import { wallTimeIn } from '#shared/dates';
import {
  CHANGE_ID_HEADER,
  CHANGED_AT_HEADER,
  formatMinutes,
  MAX_JOB_PHOTOS,
  MAX_RECORD_ROWS,
  MAX_SIGNATURE_BYTES,
  type JobRecordView,
} from '#shared/schemas/job-records';
import type { z } from 'zod';
import type {
  checklistItemInput,
  jobPhotoInput,
  materialInput,
  signatureInput,
  timeEntryInput,
} from '#shared/schemas/job-records';
import type { DbOrTx } from '../db/client';
import { readLargeBytes } from '../db/large-bytes';
import { users } from '../db/schema';
import { jobChecklistItems, jobMaterials, jobPhotos, jobRecords, jobTimeEntries } from './tables';
import type { BusinessSettings } from '../lib/business';
import { isUniqueViolation } from '../lib/db-errors';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-errors';
import { printablePhoto, processImages, processSignature } from '../lib/images';
import type { DocumentSource } from '../documents';
import { jobNumberOf } from '#shared/schemas/jobs';
import { checkJobMove, findJobById, lifecycleStep, moveJobFrom, type JobLifecycle, type JobRow } from '../jobs';
import { enqueueMail, toClient } from '../mail';
import { materialPrice, materialPrices } from '../price-book';
import { requestPhotos } from '../quote-requests';
import { visitsOfJob } from '../visits';
import { jobReportMail, reportKey } from './emails';
import type { ReportInput } from './report-pdf';
import { recordLinks } from './links';
import {
  claimChange,
  checklistOf,
  countOf,
  ensureRecord,
  findRecord,
  jobOfItem,
  materialsOf,
  minutesOnDay,
  photoBytesOf,
  reportAtOf,
  photosOf,
  stopRunningTimersOf,
  stopRunningTimersOfJob,
  timerState,
  timeEntriesOf,
  isVisitOfJob,
  visitAt,
  workerOf,
} from './repository';

/** Who changes a record: a worker on the job (a Crew lead or not), or the office (which sees and sets prices). */
export interface Actor {
  userId: string;
  office: boolean;
  lead?: boolean;
}

/** Whether this person sees and gives prices on a job's record: the office, and the crew as Settings allow. */
export function pricesShownTo(actor: Actor, business: BusinessSettings): boolean {
  return actor.office || business.crewSeesPrices || (Boolean(actor.lead) && business.crewLeadsSeePrices);
}

type Table = typeof jobChecklistItems | typeof jobTimeEntries | typeof jobMaterials | typeof jobPhotos;

/** A timer may not start in the future (a phone's clock a few minutes off is allowed) or long ago. */
const CLOCK_SKEW_MS = 10 * 60_000;
const OLDEST_ENTRY_MS = 31 * 86_400_000;
/** A change kept on a phone longer than this is not taken (nor a date no database stores: year 0). */
const OLDEST_CHANGE_MS = 366 * 86_400_000;

/**
 * The order of a change (decision 026): when the phone made it and its id, from its headers; without
 * them (the office, a client that does not send them) the server's time and a new id. A change made
 * "in the future" by more than a phone's clock may be off is refused, as a timer started then is, and
 * so is one more than a year old.
 */
function changeKey(headers: Record<string, unknown>, now = Date.now()) {
  const at = headers[CHANGED_AT_HEADER];
  const id = headers[CHANGE_ID_HEADER];
  const changedAt = typeof at === 'string' ? new Date(at) : new Date(now);
  if (+changedAt > now + CLOCK_SKEW_MS)
    throw badRequest(`${CHANGED_AT_HEADER}: a change cannot be made in the future (check the phone's clock)`);
  if (+changedAt < now - OLDEST_CHANGE_MS) throw badRequest(`${CHANGED_AT_HEADER}: a change more than a year old`);
  return { changedAt, changeId: typeof id === 'string' ? id : randomUUID() };
}

/**
 * Applies a change to one thing of a job's record (`target`: `checklist/<id>`, `notes`, ...) when it is
 * newer than the last one applied to it, in one transaction with the mark of the newest change: an
 * older change (a late retry, another phone's stale edit) and the same change sent again are skipped.
 * Two copies of one change at once: the second waits for the first and is skipped; should it still
 * meet the first's row (a unique violation), it tries again and finds it.
 */
export async function applyInOrder(
  db: DbOrTx,
  jobId: string,
  target: string,
  headers: Record<string, unknown>,
  apply: (tx: DbOrTx) => Promise<void>,
): Promise<void> {
  const key = changeKey(headers);
  // The mark names its job: a job that is not there answers 404 (not a broken reference).
  if (!(await findJobById(db, jobId))) throw notFound('Job not found');
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        if (await claimChange(tx, jobId, `${jobId}:${target}`, key)) await apply(tx);
      });
      return;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** The job, while the crew may still change its record (not completed or cancelled). */
async function openJob(db: DbOrTx, jobId: string): Promise<JobRow> {
  const job = await findJobById(db, jobId);
  if (!job) throw notFound('Job not found');
  if (!isOpenJob(job.status))
    throw conflict(`This job is ${job.status}: its record can no longer change`, 'JOB_CLOSED');
  return job;
}

/**
 * A crew-made id: new (then within the job's limit), or already this job's (a change, or the same
 * change sent again). An id of another job answers like a missing one.
 */
async function claimId(
  db: DbOrTx,
  table: Table,
  jobId: string,
  id: string,
  limit: number,
  what: { one: string; many: string },
) {
  const owner = await jobOfItem(db, table, id);
  if (owner && owner !== jobId) throw notFound(`${what.one} not found`);
  if (!owner && (await countOf(db, table, jobId)) >= limit)
    throw new HttpError(409, `A job keeps at most ${limit} ${what.many}`, 'RECORD_LIMIT');
  return owner !== undefined;
}

export async function putChecklistItem(
  db: DbOrTx,
  jobId: string,
  itemId: string,
  input: z.infer<typeof checklistItemInput>,
  actor: Actor,
) {
  await openJob(db, jobId);
  const exists = await claimId(db, jobChecklistItems, jobId, itemId, MAX_RECORD_ROWS, {
    one: 'Checklist item',
    many: 'checklist items',
  });
  const now = new Date();
  if (!exists) {
    await db.insert(jobChecklistItems).values({
      id: itemId,
      jobId,
      // After the quote's lines (positions from 0), in the order they were added.
      position: MAX_RECORD_ROWS + (await countOf(db, jobChecklistItems, jobId)),
      text: input.text,
      doneAt: input.done ? now : null,
      doneBy: input.done ? actor.userId : null,
      createdBy: actor.userId,
    });
    return;
  }
  const [item] = await db.select().from(jobChecklistItems).where(eq(jobChecklistItems.id, itemId));
  await db
    .update(jobChecklistItems)
    .set(changedChecklistItem(item, input, now, actor.userId))
    .where(eq(jobChecklistItems.id, itemId));
}

export async function deleteChecklistItem(db: DbOrTx, jobId: string, itemId: string) {
  await openJob(db, jobId);
  const [item] = await db
    .select()
    .from(jobChecklistItems)
    .where(and(eq(jobChecklistItems.id, itemId), eq(jobChecklistItems.jobId, jobId)));
  if (!item) return; // Already gone (sent twice).
  if (item.fromQuote)
    throw conflict('A line of the sold quote stays on the checklist: leave it unticked', 'ITEM_FROM_QUOTE');
  await db.delete(jobChecklistItems).where(eq(jobChecklistItems.id, itemId));
}

/** What one worker may record for one business day, on all jobs together. */
const MINUTES_PER_DAY = 1440;

/** Refuses an entry that would put a worker's day over 24 hours (the caller holds the worker's row). */
async function checkDay(db: DbOrTx, userId: string, workDate: string, entryId: string, minutes: number) {
  const already = await minutesOnDay(db, userId, workDate, entryId);
  if (already + minutes > MINUTES_PER_DAY)
    throw conflict(
      `A day has at most 24 hours: ${workDate} already has ${formatMinutes(already)} of your time, so ${formatMinutes(minutes)} more is too much`,
      'DAY_FULL',
    );
}

export async function putTimeEntry(
  db: DbOrTx,
  jobId: string,
  entryId: string,
  input: z.infer<typeof timeEntryInput>,
  actor: Actor,
  timeZone: string,
) {
  await openJob(db, jobId);
  const known = await claimId(db, jobTimeEntries, jobId, entryId, MAX_RECORD_ROWS, {
    one: 'Time entry',
    many: 'time entries',
  });
  const [existing] = known ? await db.select().from(jobTimeEntries).where(eq(jobTimeEntries.id, entryId)) : [];
  // A worker changes only their own time.
  if (existing && existing.userId !== actor.userId) throw notFound('Time entry not found');
  if (input.visitId && !(await isVisitOfJob(db, input.visitId, jobId)))
    throw badRequest('visitId: not a visit of this job');
  // Time belongs to the visit it was worked on, when the phone did not say which.
  const visitId =
    input.visitId ??
    (await visitAt(
      db,
      jobId,
      actor.userId,
      input.kind === 'hours' ? { day: input.workDate, timeZone } : { instant: new Date(input.startedAt) },
    )) ??
    null;
  // One worker's time changes one entry at a time: a day's total, and the one running timer.
  const lockWorker = (tx: DbOrTx) =>
    tx.select({ id: users.id }).from(users).where(eq(users.id, actor.userId)).for('update');
  if (input.kind === 'hours') {
    const values = { visitId, workDate: input.workDate, startedAt: null, endedAt: null };
    const minutes = Math.round(input.hours * 60);
    await db.transaction(async (tx) => {
      await lockWorker(tx);
      await checkDay(tx, actor.userId, input.workDate, entryId, minutes);
      if (existing)
        await tx
          .update(jobTimeEntries)
          .set({ ...values, minutes })
          .where(eq(jobTimeEntries.id, entryId));
      else await tx.insert(jobTimeEntries).values({ id: entryId, jobId, userId: actor.userId, ...values, minutes });
    });
    return;
  }
  const change = { startedMs: Date.parse(input.startedAt), endedMs: input.endedAt ? Date.parse(input.endedAt) : null };
  if (isLateStart(existing && timerState(existing), change)) return;

  const now = Date.now();
  const startedAt = new Date(input.startedAt);
  const stoppedAt = input.endedAt ? new Date(input.endedAt) : null;
  for (const at of [startedAt, stoppedAt])
    if (at && (+at > now + CLOCK_SKEW_MS || +at < now - OLDEST_ENTRY_MS))
      throw new HttpError(400, 'A timer runs within the last month and not in the future', 'VALIDATION_FAILED');
  const values = {
    visitId,
    workDate: wallTimeIn(timeZone, startedAt).date,
    startedAt,
    endedAt: stoppedAt && new Date(timerEnd(+startedAt, +stoppedAt)),
    minutes: stoppedAt ? timerMinutes(+startedAt, +stoppedAt) : null,
  };
  const endedAt = values.endedAt;
  await db.transaction(async (tx) => {
    await lockWorker(tx);
    // Starting a timer stops the one that ran; a stopped one counts towards its day.
    if (!endedAt) await stopRunningTimersOf(tx, actor.userId, startedAt, entryId);
    else await checkDay(tx, actor.userId, values.workDate, entryId, values.minutes!);
    if (existing) await tx.update(jobTimeEntries).set(values).where(eq(jobTimeEntries.id, entryId));
    else await tx.insert(jobTimeEntries).values({ id: entryId, jobId, userId: actor.userId, ...values });
  });
}

export async function deleteTimeEntry(db: DbOrTx, jobId: string, entryId: string, actor: Actor) {
  await openJob(db, jobId);
  await db
    .delete(jobTimeEntries)
    .where(
      and(eq(jobTimeEntries.id, entryId), eq(jobTimeEntries.jobId, jobId), eq(jobTimeEntries.userId, actor.userId)),
    );
}

/**
 * A material used beyond the quote. Its price: the office's; the crew's when they see prices; else the
 * price book's for a material of that name; else left for the office.
 */
export async function putMaterial(
  db: DbOrTx,
  business: BusinessSettings,
  jobId: string,
  materialId: string,
  input: z.infer<typeof materialInput>,
  actor: Actor,
) {
  if (actor.office) {
    if (!(await findJobById(db, jobId))) throw notFound('Job not found');
  } else await openJob(db, jobId);
  const exists = await claimId(db, jobMaterials, jobId, materialId, MAX_RECORD_ROWS, {
    one: 'Material',
    many: 'materials',
  });
  const [current] = exists ? await db.select().from(jobMaterials).where(eq(jobMaterials.id, materialId)) : [];
  const unitPriceCents = materialUnitPrice({
    given: input.unitPrice == null ? input.unitPrice : toCents(input.unitPrice),
    mayGivePrice: pricesShownTo(actor, business),
    office: actor.office,
    current: current && { name: current.name, price: current.unitPriceCents },
    name: input.name,
    listed: (await materialPrice(db, input.name))?.unitPriceCents,
  });
  const values = { name: input.name, quantity: String(input.quantity), unitPriceCents };
  if (current) await db.update(jobMaterials).set(values).where(eq(jobMaterials.id, materialId));
  else await db.insert(jobMaterials).values({ id: materialId, jobId, addedBy: actor.userId, ...values });
}

export async function deleteMaterial(db: DbOrTx, jobId: string, materialId: string, actor: Actor) {
  if (actor.office) {
    if (!(await findJobById(db, jobId))) throw notFound('Job not found');
  } else await openJob(db, jobId);
  await db.delete(jobMaterials).where(and(eq(jobMaterials.id, materialId), eq(jobMaterials.jobId, jobId)));
}

/** The crew's notes for the office, or their note to the client (`field`). */
export async function putNotes(db: DbOrTx, jobId: string, values: { crewNotes: string } | { clientNote: string }) {
  await openJob(db, jobId);
  await ensureRecord(db, jobId);
  await db
    .update(jobRecords)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(jobRecords.jobId, jobId));
}

/** A photo taken on the job: checked, re-encoded without metadata and stored once (a resend is a no-op). */
export async function putPhoto(
  app: FastifyInstance,
  jobId: string,
  photoId: string,
  input: z.infer<typeof jobPhotoInput>,
  actor: Actor,
) {
  const { db } = app;
  await openJob(db, jobId);
  const exists = await claimId(db, jobPhotos, jobId, photoId, MAX_JOB_PHOTOS, { one: 'Photo', many: 'photos' });
  // The image is re-encoded before the transaction, which then holds the database for the write only.
  const [image] = exists ? [] : await processImages([input.image]);
  await db.transaction(async (tx) => {
    if (!image) await tx.update(jobPhotos).set({ stage: input.stage }).where(eq(jobPhotos.id, photoId));
    else
      await tx
        .insert(jobPhotos)
        .values({ id: photoId, jobId, stage: input.stage, takenBy: actor.userId, ...image })
        .onConflictDoNothing();
  });
}

export async function deletePhoto(db: DbOrTx, jobId: string, photoId: string) {
  await openJob(db, jobId);
  await db.delete(jobPhotos).where(and(eq(jobPhotos.id, photoId), eq(jobPhotos.jobId, jobId)));
}

/** The client's signature and printed name, with the time they signed (a new one replaces it). */
export async function putSignature(app: FastifyInstance, jobId: string, input: z.infer<typeof signatureInput>) {
  const { db } = app;
  await openJob(db, jobId);
  const png = await processSignature(input.image, MAX_SIGNATURE_BYTES);
  await db.transaction(async (tx) => {
    await ensureRecord(tx, jobId);
    await tx
      .update(jobRecords)
      .set({ signedName: input.name, signedAt: new Date(), signature: png, updatedAt: new Date() })
      .where(eq(jobRecords.jobId, jobId));
  });
}

/** The record as the crew (prices only when the owner allows) or the office sees it. */
export async function recordView(
  app: FastifyInstance,
  job: JobRow,
  business: BusinessSettings,
  actor: Actor,
): Promise<JobRecordView> {
  const db = app.db;
  const pricesShown = pricesShownTo(actor, business);
  const [me, checklist, time, materials, photos, record, visits, requestPhotosOf, priceList] = await Promise.all([
    workerOf(db, actor.userId),
    checklistOf(db, job.id),
    timeEntriesOf(db, job.id),
    materialsOf(db, job.id),
    photosOf(db, job.id),
    findRecord(db, job.id),
    visitsOfJob(db, job.id, business.timeZone),
    job.quoteRequestId ? requestPhotos(db, app.tokens, [job.quoteRequestId]) : undefined,
    materialPrices(db),
  ]);
  const totals = new Map<string, { worker: { _id: string; fullName: string }; minutes: number }>();
  for (const t of time) {
    const total = totals.get(t.userId) ?? { worker: { _id: t.userId, fullName: t.workerName }, minutes: 0 };
    total.minutes += t.minutes ?? 0;
    totals.set(t.userId, total);
  }
  const links = recordLinks(app.tokens);
  return {
    jobId: job.id,
    status: job.status,
    me: { _id: actor.userId, fullName: me ?? '' },
    job: {
      clientName: job.contactName,
      phone: job.contactPhone,
      address: { street: job.street, city: job.city, state: job.state, zip: job.zip },
      description: job.notes,
      visitNotes: visits
        .filter((v) => !v.cancelled && v.notes.trim())
        .map((v) => ({ visitId: v._id, date: v.date, start: v.start, notes: v.notes })),
      photos: (job.quoteRequestId && requestPhotosOf?.get(job.quoteRequestId)) || [],
    },
    pricesShown,
    checklist: checklist.map((c) => ({
      _id: c.id,
      text: c.text,
      fromQuote: c.fromQuote,
      done: c.doneAt !== null,
      doneAt: c.doneAt?.toISOString() ?? null,
      doneBy: c.doneAt ? c.doneBy : null,
    })),
    time: time.map((t) => ({
      _id: t.id,
      worker: { _id: t.userId, fullName: t.workerName },
      visitId: t.visitId,
      workDate: t.workDate,
      startedAt: t.startedAt?.toISOString() ?? null,
      endedAt: t.endedAt?.toISOString() ?? null,
      minutes: t.minutes,
    })),
    timeTotals: [...totals.values()],
    materials: materials.map((m) => ({
      _id: m.id,
      name: m.name,
      quantity: Number(m.quantity),
      unitPrice: pricesShown && m.unitPriceCents !== null ? toDollars(m.unitPriceCents) : null,
      addedBy: m.addedBy,
    })),
    priceList: priceList.map((m) => ({
      name: m.name,
      unitPrice: pricesShown ? toDollars(m.unitPriceCents) : null,
    })),
    photos: await Promise.all(
      photos.map(async (p) => ({
        _id: p.id,
        stage: p.stage,
        width: p.width,
        height: p.height,
        ...(await links.photo(p.id)),
      })),
    ),
    notes: record?.crewNotes ?? '',
    clientNote: record?.clientNote ?? '',
    signature:
      record?.signedAt && record.signedName
        ? { name: record.signedName, signedAt: record.signedAt.toISOString(), imageUrl: await links.signature(job.id) }
        : null,
    report: record?.reportAt ? { madeAt: record.reportAt.toISOString(), url: await links.report(job.id) } : null,
  };
}

/**
 * Completes a job (the crew's last step, or the office's): the status change, its running timers
 * stopped, the report's time, the e-mails to the client and the owner (the report attached by
 * reference) and what a job's end also does (`lifecycle`: its visits' reminders called off, the office
 * told of an open deposit) are written together. The status changes only from the one read, so two
 * completions at once make one report. The report itself is drawn after the commit, in the PDF worker
 * (`reportSource`): the answer does not wait for it, and a retry finds the job completed (decision 022).
 */
export async function completeJob(
  app: FastifyInstance,
  jobId: string,
  options: { crew: boolean; lifecycle: JobLifecycle },
): Promise<JobRow> {
  const job = await findJobById(app.db, jobId);
  if (!job) throw notFound('Job not found');
  if (job.status === 'Completed') return job; // Sent twice (a queued tap): done once.
  checkJobMove(job, 'Completed', options);
  const completedAt = new Date();
  const business = await app.settings.current();
  const notes = (await findRecord(app.db, jobId))?.crewNotes ?? '';
  const row = await app.db.transaction(async (tx) => {
    const row = await moveJobFrom(tx, jobId, job.status, 'Completed');
    if (!row) {
      // Completed meanwhile (the same tap sent twice): that completion made the report.
      const now = await findJobById(tx, jobId);
      if (now?.status === 'Completed') return now;
      throw conflict('This job changed meanwhile: reload the page', 'INVALID_STATUS_CHANGE');
    }
    await stopRunningTimersOfJob(tx, jobId, completedAt);
    await ensureRecord(tx, jobId);
    await tx
      .update(jobRecords)
      .set({ reportAt: completedAt, updatedAt: completedAt })
      .where(eq(jobRecords.jobId, jobId));
    await enqueueMail(tx, toClient(jobReportMail(business, job, 'client')));
    await enqueueMail(tx, jobReportMail(business, job, 'owner', notes));
    await lifecycleStep(tx, job.status, row, options.lifecycle, business);
    return row;
  });
  // The relay asks for the same document when it sends: whichever comes first draws it, once.
  app.documents.soon(reportKey(jobId), (error: unknown) =>
    app.log.error({ err: error, jobId }, 'the job report could not be drawn'),
  );
  return row;
}

/** A report carries at most this much (it is e-mailed): its photos take what the text leaves. */
export const REPORT_MAX_BYTES = 15 * 1024 * 1024;
const PHOTO_BUDGET = REPORT_MAX_BYTES - 1.5 * 1024 * 1024;

/**
 * The report's photos, shrunk for print and read one at a time (never every photo's bytes at once),
 * until the budget is spent; the count of those left out is printed instead.
 */
async function reportPhotos(db: DbOrTx, jobId: string) {
  const photos: { stage: 'before' | 'after'; data: Buffer }[] = [];
  let used = 0;
  let more = 0;
  for (const photo of await photosOf(db, jobId)) {
    if (more > 0) {
      more += 1;
      continue;
    }
    const original = await photoBytesOf(db, photo.id);
    if (!original) continue;
    const data = await printablePhoto(original);
    if (used + data.length > PHOTO_BUDGET) {
      more += 1;
      continue;
    }
    used += data.length;
    photos.push({ stage: photo.stage, data });
  }
  return { photos, more };
}

/** Draws a completed job's report in the PDF worker, from the record as it stands. */
async function drawReport(app: FastifyInstance, jobId: string, completedAt: Date): Promise<Buffer> {
  const job = await findJobById(app.db, jobId);
  if (!job) throw notFound('Job not found');
  const business = await app.settings.current();
  const logo = await app.settings.logo();
  const record = await recordView(app, job, business, { userId: '', office: true });
  const stored = await findRecord(app.db, jobId);
  const signature =
    stored?.signature && stored.signedName && stored.signedAt
      ? { png: stored.signature, name: stored.signedName, signedAt: stored.signedAt }
      : null;
  const { photos, more } = await reportPhotos(app.db, jobId);
  const input: ReportInput = { job, record, completedAt, photos, morePhotos: more, signature };
  return app.documents.draw('job-report', [input, business, logo]);
}

/**
 * A completed job's report as a stored document: drawn once (it never changes after), kept on the job's
 * record, and read from there by the report's link and by the relay for the two e-mails.
 */
export const reportSource =
  (app: FastifyInstance) =>
  async (jobId: string): Promise<DocumentSource | undefined> => {
    const reportAt = await reportAtOf(app.db, jobId);
    if (!reportAt) return undefined;
    return {
      version: 'report',
      filename: `job-report-${jobNumberOf(jobId)}.pdf`,
      stored: () => reportPdf(app.db, jobId),
      // Written once: never over a report already stored.
      save: async (bytes) => {
        await app.db
          .update(jobRecords)
          .set({ report: bytes })
          .where(and(eq(jobRecords.jobId, jobId), isNull(jobRecords.report)));
      },
      draw: () => drawReport(app, jobId, reportAt),
    };
  };

/** The stored report's bytes (written once; read a piece at a time, see large-bytes.ts). */
export async function reportPdf(db: DbOrTx, jobId: string): Promise<Buffer | undefined> {
  return readLargeBytes(db, jobRecords, jobRecords.report, eq(jobRecords.jobId, jobId));
}

/** The stored signature's bytes. */
export async function signaturePng(db: DbOrTx, jobId: string): Promise<Buffer | undefined> {
  return (await findRecord(db, jobId))?.signature ?? undefined;
}

/** What the crew recorded that an invoice charges: the materials (with the office's prices) and their time. */
export async function jobExtras(db: DbOrTx, jobId: string) {
  const [materials, time] = await Promise.all([materialsOf(db, jobId), timeEntriesOf(db, jobId)]);
  return {
    materials: materials.map((m) => ({ name: m.name, quantity: Number(m.quantity), unitPriceCents: m.unitPriceCents })),
    minutes: time.reduce((sum, t) => sum + (t.minutes ?? 0), 0),
  };
}
