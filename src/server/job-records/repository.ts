import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { isStoppedByNewTimer, timerEnd, timerMinutes, type TimerState } from '#shared/job-record-rules';
import type { DbOrTx } from '../db/client';
import { users, visits, visitWorkers } from '../db/schema';
import { jobChecklistItems, jobMaterials, jobPhotos, jobRecords, jobRecordVersions, jobTimeEntries } from './tables';

export type ChecklistRow = typeof jobChecklistItems.$inferSelect;
export type TimeEntryRow = typeof jobTimeEntries.$inferSelect;
export type MaterialRow = typeof jobMaterials.$inferSelect;
export type RecordRow = typeof jobRecords.$inferSelect;

/** The job's one record row (notes, signature, report), made on first use. */
export async function ensureRecord(tx: DbOrTx, jobId: string): Promise<void> {
  await tx.insert(jobRecords).values({ jobId }).onConflictDoNothing();
}

export async function findRecord(db: DbOrTx, jobId: string): Promise<RecordRow | undefined> {
  const [row] = await db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId));
  return row;
}

/** When the job's report was made (null before one), without reading the PDF. */
export async function reportAtOf(db: DbOrTx, jobId: string): Promise<Date | null> {
  const [row] = await db.select({ at: jobRecords.reportAt }).from(jobRecords).where(eq(jobRecords.jobId, jobId));
  return row?.at ?? null;
}

/**
 * Copies the sold quote's lines into the checklist once (with UUIDs, like the crew's own items): the statement that marks the record seeded
 * is the one that copies, so two first loads at once copy once.
 */
export async function seedChecklist(tx: DbOrTx, jobId: string, lines: string[]): Promise<void> {
  await ensureRecord(tx, jobId);
  const [claimed] = await tx
    .update(jobRecords)
    .set({ checklistSeededAt: new Date() })
    .where(and(eq(jobRecords.jobId, jobId), isNull(jobRecords.checklistSeededAt)))
    .returning({ jobId: jobRecords.jobId });
  if (!claimed || lines.length === 0) return;
  await tx
    .insert(jobChecklistItems)
    .values(lines.map((text, position) => ({ id: randomUUID(), jobId, position, text, fromQuote: true })));
}

const workerName = sql<string>`coalesce(nullif(${users.fullName}, ''), ${users.username})`;

/** A person's name as the record shows it. */
export async function workerOf(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ name: workerName }).from(users).where(eq(users.id, userId));
  return row?.name;
}

export function checklistOf(db: DbOrTx, jobId: string) {
  return db
    .select({
      id: jobChecklistItems.id,
      text: jobChecklistItems.text,
      fromQuote: jobChecklistItems.fromQuote,
      doneAt: jobChecklistItems.doneAt,
      doneBy: workerName,
    })
    .from(jobChecklistItems)
    .leftJoin(users, eq(users.id, jobChecklistItems.doneBy))
    .where(eq(jobChecklistItems.jobId, jobId))
    .orderBy(asc(jobChecklistItems.position), asc(jobChecklistItems.createdAt));
}

export function timeEntriesOf(db: DbOrTx, jobId: string) {
  return db
    .select({
      id: jobTimeEntries.id,
      userId: jobTimeEntries.userId,
      workerName,
      visitId: jobTimeEntries.visitId,
      workDate: jobTimeEntries.workDate,
      startedAt: jobTimeEntries.startedAt,
      endedAt: jobTimeEntries.endedAt,
      minutes: jobTimeEntries.minutes,
    })
    .from(jobTimeEntries)
    .innerJoin(users, eq(users.id, jobTimeEntries.userId))
    .where(eq(jobTimeEntries.jobId, jobId))
    .orderBy(asc(jobTimeEntries.workDate), asc(jobTimeEntries.createdAt));
}

export function materialsOf(db: DbOrTx, jobId: string) {
  return db
    .select({
      id: jobMaterials.id,
      name: jobMaterials.name,
      quantity: jobMaterials.quantity,
      unitPriceCents: jobMaterials.unitPriceCents,
      addedBy: workerName,
    })
    .from(jobMaterials)
    .leftJoin(users, eq(users.id, jobMaterials.addedBy))
    .where(eq(jobMaterials.jobId, jobId))
    .orderBy(asc(jobMaterials.createdAt), asc(jobMaterials.id));
}

/** The job's photos without their bytes. */
export function photosOf(db: DbOrTx, jobId: string) {
  return db
    .select({ id: jobPhotos.id, stage: jobPhotos.stage, width: jobPhotos.width, height: jobPhotos.height })
    .from(jobPhotos)
    .where(eq(jobPhotos.jobId, jobId))
    .orderBy(asc(jobPhotos.createdAt), asc(jobPhotos.id));
}

/** One photo's bytes (the report reads them one at a time). */
export async function photoBytesOf(db: DbOrTx, id: string): Promise<Buffer | undefined> {
  const [row] = await db.select({ data: jobPhotos.data }).from(jobPhotos).where(eq(jobPhotos.id, id));
  return row?.data;
}

export async function findPhoto(db: DbOrTx, id: string) {
  const [row] = await db.select().from(jobPhotos).where(eq(jobPhotos.id, id));
  return row;
}

/** How many rows of a table a job has (the limits on what one job keeps). */
export async function countOf(
  db: DbOrTx,
  table: typeof jobChecklistItems | typeof jobTimeEntries | typeof jobMaterials | typeof jobPhotos,
  jobId: string,
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.jobId, jobId));
  return Number(row?.n ?? 0);
}

/** Which job a crew-made id already belongs to (undefined for a new id). */
export async function jobOfItem(
  db: DbOrTx,
  table: typeof jobChecklistItems | typeof jobTimeEntries | typeof jobMaterials | typeof jobPhotos,
  id: string,
): Promise<string | undefined> {
  const [row] = await db.select({ jobId: table.jobId }).from(table).where(eq(table.id, id));
  return row?.jobId;
}

export async function isVisitOfJob(db: DbOrTx, visitId: string, jobId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: visits.id })
    .from(visits)
    .where(and(eq(visits.id, visitId), eq(visits.jobId, jobId)));
  return row !== undefined;
}

/**
 * The job's booked visit a worker's time belongs to: the one they are on that covers the moment (give
 * or take two hours), else their first one that business day. Undefined without one.
 */
export async function visitAt(
  db: DbOrTx,
  jobId: string,
  userId: string,
  at: { instant: Date } | { day: string; timeZone: string },
): Promise<string | undefined> {
  const near =
    'instant' in at
      ? sql`tstzrange(${visits.startsAt} - interval '2 hours', ${visits.endsAt} + interval '2 hours') @> ${at.instant.toISOString()}::timestamptz`
      : sql`(${visits.startsAt} at time zone ${at.timeZone})::date = ${at.day}::date`;
  const [row] = await db
    .select({ id: visits.id })
    .from(visits)
    .innerJoin(visitWorkers, and(eq(visitWorkers.visitId, visits.id), eq(visitWorkers.userId, userId)))
    .where(and(eq(visits.jobId, jobId), isNull(visits.cancelledAt), near))
    .orderBy(asc(visits.startsAt))
    .limit(1);
  return row?.id;
}

/** Stops a worker's running timers other than `exceptId` at `at` (starting one stops the last). */
export async function stopRunningTimersOf(tx: DbOrTx, userId: string, at: Date, exceptId: string): Promise<void> {
  const open = await tx
    .select()
    .from(jobTimeEntries)
    .where(and(eq(jobTimeEntries.userId, userId), isNull(jobTimeEntries.endedAt)));
  for (const entry of open)
    if (isStoppedByNewTimer(timerState(entry), userId, exceptId)) await stopTimer(tx, entry, at);
}

/** A stored time entry as the crew record's rules see it. */
export const timerState = (row: TimeEntryRow): TimerState => ({
  id: row.id,
  workerId: row.userId,
  startedMs: row.startedAt ? +row.startedAt : null,
  endedMs: row.endedAt ? +row.endedAt : null,
});

/** Every running timer on a job, stopped at `at` (the job is completed). */
export async function stopRunningTimersOfJob(tx: DbOrTx, jobId: string, at: Date): Promise<void> {
  const running = await tx
    .select()
    .from(jobTimeEntries)
    .where(and(eq(jobTimeEntries.jobId, jobId), isNotNull(jobTimeEntries.startedAt), isNull(jobTimeEntries.endedAt)));
  for (const entry of running) await stopTimer(tx, entry, at);
}

async function stopTimer(tx: DbOrTx, entry: TimeEntryRow, at: Date) {
  const start = +entry.startedAt!;
  await tx
    .update(jobTimeEntries)
    .set({ endedAt: new Date(timerEnd(start, +at)), minutes: timerMinutes(start, +at) })
    .where(eq(jobTimeEntries.id, entry.id));
}

/** A change to a record's thing: when the phone made it and its own id (decision 026). */
export interface ChangeKey {
  changedAt: Date;
  changeId: string;
}

/**
 * Records `key` as the newest change of `target` when it is newer than the one recorded (by time, then
 * id) and answers whether it is: false for an older change, or the same one sent again. The row is
 * written and compared in one statement; inside the change's transaction, a second sender of the
 * same target waits for the first to commit and then compares with what it wrote.
 */
export async function claimChange(tx: DbOrTx, jobId: string, target: string, key: ChangeKey): Promise<boolean> {
  const claimed = await tx
    .insert(jobRecordVersions)
    .values({ target, jobId, changedAt: key.changedAt, changeId: key.changeId })
    .onConflictDoUpdate({
      target: jobRecordVersions.target,
      set: { changedAt: key.changedAt, changeId: key.changeId },
      setWhere: sql`(${jobRecordVersions.changedAt}, ${jobRecordVersions.changeId}) < (excluded.changed_at, excluded.change_id)`,
    })
    .returning({ target: jobRecordVersions.target });
  return claimed.length > 0;
}

/**
 * A worker's minutes on a business day on every job, but for one entry (the one being written): what
 * the day already holds. Locks nothing: the caller holds the worker's row.
 */
export async function minutesOnDay(db: DbOrTx, userId: string, workDate: string, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ minutes: sql<string | null>`sum(${jobTimeEntries.minutes})` })
    .from(jobTimeEntries)
    .where(
      and(eq(jobTimeEntries.userId, userId), eq(jobTimeEntries.workDate, workDate), ne(jobTimeEntries.id, exceptId)),
    );
  return Number(row?.minutes ?? 0);
}
