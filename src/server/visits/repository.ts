import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { VisitView } from '../../shared/schemas/visits';
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

/**
 * Visits with everything a calendar shows, in one query: the business's wall-clock date and times
 * (PostgreSQL converts them: no Intl work per visit in the app), the job's client and address, and the
 * crew as JSON.
 */
function visitQuery(db: DbOrTx, timeZone: string) {
  const local = (column: typeof visits.startsAt | typeof visits.endsAt, format: string) =>
    sql<string>`to_char(${column} at time zone ${timeZone}, ${format})`;
  return db
    .select({
      id: visits.id,
      jobId: visits.jobId,
      startsAt: visits.startsAt,
      endsAt: visits.endsAt,
      notes: visits.notes,
      cancelledAt: visits.cancelledAt,
      cancelReason: visits.cancelReason,
      updatedAt: visits.updatedAt,
      date: local(visits.startsAt, 'YYYY-MM-DD'),
      start: local(visits.startsAt, 'HH24:MI'),
      endDate: local(visits.endsAt, 'YYYY-MM-DD'),
      end: local(visits.endsAt, 'HH24:MI'),
      crew: sql<{ _id: string; fullName: string }[]>`coalesce((
        select json_agg(json_build_object('_id', u.id, 'fullName', coalesce(nullif(u.full_name, ''), u.username))
                        order by u.full_name)
        from ${visitWorkers} vw join ${users} u on u.id = vw.user_id
        where vw.visit_id = ${visits.id}), '[]'::json)`,
      clientName: jobs.contactName,
      clientPhone: jobs.contactPhone,
      street: jobs.street,
      city: jobs.city,
      state: jobs.state,
      zip: jobs.zip,
      work: jobs.notes,
    })
    .from(visits)
    .innerJoin(jobs, eq(jobs.id, visits.jobId));
}

/** A visit as the API shows it, with the time it last changed (a calendar entry's sequence). */
export type VisitRecord = VisitView & { updatedAt: Date };

type VisitQueryRow = Awaited<ReturnType<ReturnType<typeof visitQuery>['execute']>>[number];

function toRecord(r: VisitQueryRow): VisitRecord {
  return {
    _id: r.id,
    jobId: r.jobId,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    date: r.date,
    start: r.start,
    end: r.endDate === r.date ? r.end : '24:00',
    workers: typeof r.crew === 'string' ? JSON.parse(r.crew) : r.crew,
    notes: r.notes,
    cancelled: r.cancelledAt !== null,
    cancelReason: r.cancelReason,
    work: r.work,
    client: { name: r.clientName, phone: r.clientPhone, address: `${r.street}, ${r.city}, ${r.state} ${r.zip}` },
    updatedAt: r.updatedAt,
  };
}

/** Without the change time: what the API answers. */
export const viewOf = ({ updatedAt: _changed, ...view }: VisitRecord): VisitView => view;

/** Visits overlapping a range (a calendar's visible days), booked ones only unless asked, in time order. */
export async function visitsInRange(
  db: DbOrTx,
  from: Date,
  to: Date,
  timeZone: string,
  options: { workerId?: string | undefined; includeCancelled?: boolean } = {},
): Promise<VisitRecord[]> {
  const where: (SQL | undefined)[] = [overlaps(from, to)];
  if (!options.includeCancelled) where.push(isNull(visits.cancelledAt));
  if (options.workerId)
    where.push(
      sql`exists (select 1 from ${visitWorkers} where ${visitWorkers.visitId} = ${visits.id} and ${visitWorkers.userId} = ${options.workerId})`,
    );
  const rows = await visitQuery(db, timeZone)
    .where(and(...where))
    .orderBy(asc(visits.startsAt))
    .limit(2000);
  return rows.map(toRecord);
}

export async function visitsOfJob(db: DbOrTx, jobId: string, timeZone: string): Promise<VisitRecord[]> {
  const rows = await visitQuery(db, timeZone).where(eq(visits.jobId, jobId)).orderBy(asc(visits.startsAt));
  return rows.map(toRecord);
}

export async function visitById(db: DbOrTx, id: string, timeZone: string): Promise<VisitRecord | undefined> {
  const [row] = await visitQuery(db, timeZone).where(eq(visits.id, id));
  return row && toRecord(row);
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
