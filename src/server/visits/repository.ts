import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { VisitView } from '../../shared/schemas/visits';
import { wallTimeIn } from '../../shared/dates';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { jobs, users, visits, visitWorkers } from '../db/schema';

export type VisitRow = typeof visits.$inferSelect;

export async function insertVisit(
  tx: DbOrTx,
  visit: { jobId: string; startsAt: Date; endsAt: Date; notes: string },
): Promise<VisitRow> {
  const [row] = await tx
    .insert(visits)
    .values({ id: newId(), ...visit })
    .returning();
  return row!;
}

export async function setVisitWorkers(tx: DbOrTx, visitId: string, userIds: string[]): Promise<void> {
  await tx.delete(visitWorkers).where(eq(visitWorkers.visitId, visitId));
  if (userIds.length) await tx.insert(visitWorkers).values(userIds.map((userId) => ({ visitId, userId })));
}

export const findVisit = (db: DbOrTx, id: string) => db.query.visits.findFirst({ where: eq(visits.id, id) });

const overlaps = (from: Date, to: Date) =>
  sql`tstzrange(${visits.startsAt}, ${visits.endsAt}) && tstzrange(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz)`;

/** The booked visits of these workers that overlap a time (other than `exceptVisitId`). */
export function overlappingVisits(db: DbOrTx, workerIds: string[], from: Date, to: Date, exceptVisitId?: string) {
  if (workerIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      userId: visitWorkers.userId,
      visitId: visits.id,
      startsAt: visits.startsAt,
      endsAt: visits.endsAt,
      clientName: jobs.contactName,
    })
    .from(visitWorkers)
    .innerJoin(visits, eq(visits.id, visitWorkers.visitId))
    .innerJoin(jobs, eq(jobs.id, visits.jobId))
    .where(
      and(
        inArray(visitWorkers.userId, workerIds),
        isNull(visits.cancelledAt),
        overlaps(from, to),
        exceptVisitId ? ne(visits.id, exceptVisitId) : undefined,
      ),
    );
}

/** Workers by id, with their names and weekly availability. */
export function workersByIds(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: users.id, fullName: users.fullName, username: users.username, schedule: users.schedule })
    .from(users)
    .where(inArray(users.id, ids));
}

const visitColumns = {
  visit: visits,
  clientName: jobs.contactName,
  clientPhone: jobs.contactPhone,
  street: jobs.street,
  city: jobs.city,
  state: jobs.state,
  zip: jobs.zip,
  work: jobs.notes,
};

/** Visits overlapping a range (a calendar's visible days), booked ones only unless asked, in time order. */
export async function visitsInRange(
  db: DbOrTx,
  from: Date,
  to: Date,
  options: { workerId?: string | undefined; includeCancelled?: boolean } = {},
) {
  const where: (SQL | undefined)[] = [overlaps(from, to)];
  if (!options.includeCancelled) where.push(isNull(visits.cancelledAt));
  if (options.workerId)
    where.push(
      sql`exists (select 1 from ${visitWorkers} where ${visitWorkers.visitId} = ${visits.id} and ${visitWorkers.userId} = ${options.workerId})`,
    );
  return db
    .select(visitColumns)
    .from(visits)
    .innerJoin(jobs, eq(jobs.id, visits.jobId))
    .where(and(...where))
    .orderBy(asc(visits.startsAt))
    .limit(2000);
}

export function visitsOfJob(db: DbOrTx, jobId: string) {
  return db
    .select(visitColumns)
    .from(visits)
    .innerJoin(jobs, eq(jobs.id, visits.jobId))
    .where(eq(visits.jobId, jobId))
    .orderBy(asc(visits.startsAt));
}

export async function visitRow(db: DbOrTx, id: string) {
  const [row] = await db
    .select(visitColumns)
    .from(visits)
    .innerJoin(jobs, eq(jobs.id, visits.jobId))
    .where(eq(visits.id, id));
  return row;
}

type VisitWithJob = Awaited<ReturnType<typeof visitsOfJob>>[number];

/** Visits as the API shows them: instants, the business's wall-clock date and times, crew, client. */
export async function visitViews(db: DbOrTx, rows: VisitWithJob[], timeZone: string): Promise<VisitView[]> {
  const ids = rows.map((r) => r.visit.id);
  const crew = ids.length
    ? await db
        .select({
          visitId: visitWorkers.visitId,
          id: users.id,
          name: sql<string>`coalesce(nullif(${users.fullName}, ''), ${users.username})`,
        })
        .from(visitWorkers)
        .innerJoin(users, eq(users.id, visitWorkers.userId))
        .where(inArray(visitWorkers.visitId, ids))
        .orderBy(asc(users.fullName))
    : [];
  return rows.map(({ visit, ...job }) => {
    const start = wallTimeIn(timeZone, visit.startsAt);
    const end = wallTimeIn(timeZone, visit.endsAt);
    return {
      _id: visit.id,
      jobId: visit.jobId,
      startsAt: visit.startsAt.toISOString(),
      endsAt: visit.endsAt.toISOString(),
      date: start.date,
      start: start.time,
      end: end.date === start.date ? end.time : '24:00',
      workers: crew.filter((c) => c.visitId === visit.id).map((c) => ({ _id: c.id, fullName: c.name })),
      notes: visit.notes,
      cancelled: visit.cancelledAt !== null,
      cancelReason: visit.cancelReason,
      work: job.work,
      client: {
        name: job.clientName,
        phone: job.clientPhone,
        address: `${job.street}, ${job.city}, ${job.state} ${job.zip}`,
      },
    };
  });
}

/** The next booked visit of the job a request became (for the client's status page). */
export async function nextVisitOfRequest(
  db: DbOrTx,
  quoteRequestId: string,
): Promise<{ startsAt: Date; endsAt: Date } | null> {
  const [row] = await db
    .select({ startsAt: visits.startsAt, endsAt: visits.endsAt })
    .from(visits)
    .innerJoin(jobs, eq(jobs.id, visits.jobId))
    .where(and(eq(jobs.quoteRequestId, quoteRequestId), isNull(visits.cancelledAt), sql`${visits.endsAt} > now()`))
    .orderBy(asc(visits.startsAt))
    .limit(1);
  return row ?? null;
}
