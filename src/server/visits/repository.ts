import {
  and,
  asc,
  count,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { VisitView } from '#shared/schemas/visits';
import { OPEN_JOB_STATUSES } from '#shared/statuses';
import type { Db, DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { newId } from '../db/ids';
import { jobs, quoteRequests, users } from '../db/schema';
import { calendarVersion, visits, visitWorkers } from './tables';
import type { RangeCache } from './range-cache';

export type VisitRow = typeof visits.$inferSelect;

export async function insertVisit(
  tx: DbOrTx,
  visit: ({ jobId: string } | { quoteRequestId: string }) & {
    startsAt: Date;
    endsAt: Date;
    notes: string;
    clientNote: string;
    awaitingApproval?: boolean;
  },
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

/** A job's visits with a reminder in the outbox. */
export const remindedVisitsOf = (db: DbOrTx, jobId: string) =>
  db
    .select({ id: visits.id, reminderMailId: visits.reminderMailId })
    .from(visits)
    .where(and(eq(visits.jobId, jobId), isNotNull(visits.reminderMailId)));

/** Every visit of a job, by id. */
export const visitIdsOf = async (db: DbOrTx, jobId: string) =>
  (await db.select({ id: visits.id }).from(visits).where(eq(visits.jobId, jobId))).map((v) => v.id);

/** A job's booked (not cancelled) visits starting after `after`. */
export const comingVisitsOf = (db: DbOrTx, jobId: string, after: Date) =>
  db
    .select()
    .from(visits)
    .where(and(eq(visits.jobId, jobId), isNull(visits.cancelledAt), gt(visits.startsAt, after)));

/** A request's booked (not cancelled) estimate visits starting after `after`. */
export const comingEstimateVisitsOf = (db: DbOrTx, quoteRequestId: string, after: Date) =>
  db
    .select()
    .from(visits)
    .where(and(eq(visits.quoteRequestId, quoteRequestId), isNull(visits.cancelledAt), gt(visits.startsAt, after)));

/** The visits still to come that their job's end called off. */
export const calledOffVisitsOf = (db: DbOrTx, jobId: string, after: Date) =>
  db
    .select()
    .from(visits)
    .where(and(eq(visits.jobId, jobId), eq(visits.calledOffWithJob, true), gt(visits.startsAt, after)));

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
      clientName: party.name,
    })
    .from(visitWorkers)
    .innerJoin(visits, eq(visits.id, visitWorkers.visitId))
    .leftJoin(jobs, eq(jobs.id, visits.jobId))
    .leftJoin(quoteRequests, eq(quoteRequests.id, visits.quoteRequestId))
    .where(
      and(
        inArray(visitWorkers.userId, workerIds),
        isNull(visits.cancelledAt),
        overlaps(from, to),
        exceptVisitId ? ne(visits.id, exceptVisitId) : undefined,
      ),
    );
}

/** How many booked visits each of these workers starts in [from, to): the fewest gets the next estimate. */
export async function visitCountsOf(db: DbOrTx, workerIds: string[], from: Date, to: Date) {
  if (workerIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ userId: visitWorkers.userId, n: count() })
    .from(visitWorkers)
    .innerJoin(visits, eq(visits.id, visitWorkers.visitId))
    .where(
      and(
        inArray(visitWorkers.userId, workerIds),
        isNull(visits.cancelledAt),
        gte(visits.startsAt, from),
        lt(visits.startsAt, to),
      ),
    )
    .groupBy(visitWorkers.userId);
  return new Map(rows.map((r) => [r.userId, r.n]));
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
 * A visit as the API shows it (`VisitView`), built as JSON by the database in one pass: the business's
 * wall-clock date and times (no Intl work per visit in the app), the job's client and address, and the
 * crew. The one definition of that shape: a calendar's range is sent on as the text PostgreSQL made,
 * and `tests/api/visits.test.ts` checks it against the schema.
 */
function visitJson(timeZone: string, workers: SQL) {
  const local = (column: typeof visits.startsAt | typeof visits.endsAt) => sql`(${column} at time zone ${timeZone})`;
  const iso = (column: typeof visits.startsAt | typeof visits.endsAt | typeof visits.confirmedAt) =>
    sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return sql`json_build_object(
    '_id', ${visits.id},
    'jobId', ${visits.jobId},
    'startsAt', ${iso(visits.startsAt)},
    'endsAt', ${iso(visits.endsAt)},
    'date', to_char(${local(visits.startsAt)}, 'YYYY-MM-DD'),
    'start', to_char(${local(visits.startsAt)}, 'HH24:MI'),
    'end', case when ${local(visits.endsAt)}::date = ${local(visits.startsAt)}::date
             then to_char(${local(visits.endsAt)}, 'HH24:MI') else '24:00' end,
    'workers', coalesce(${workers}, '[]'::json),
    'notes', ${visits.notes},
    'clientNote', ${visits.clientNote},
    'cancelled', ${visits.cancelledAt} is not null,
    'cancelReason', ${visits.cancelReason},
    'confirmedAt', ${iso(visits.confirmedAt)},
    'clientMoves', ${visits.clientMoves},
    'awaitingApproval', ${visits.awaitingApproval},
    'quoteRequestId', ${visits.quoteRequestId},
    'planId', ${visits.planId},
    'work', coalesce(${jobs.notes}, 'Estimate visit: ' || ${quoteRequests.notes}),
    'client', json_build_object(
      'name', ${party.name},
      'phone', ${party.phone},
      'address', ${party.street} || ', ' || ${party.city} || ', ' || ${party.state} || ' ' || ${party.zip}))`;
}

/**
 * Who and where a visit is for: its job's client and address, or for an estimate visit (issue 31) its
 * request's. Every query reading them joins both, `withParty`.
 */
const party = {
  name: sql<string>`coalesce(${jobs.contactName}, ${quoteRequests.contactName})`,
  phone: sql<string>`coalesce(${jobs.contactPhone}, ${quoteRequests.contactPhone})`,
  street: sql<string>`coalesce(${jobs.street}, ${quoteRequests.street})`,
  city: sql<string>`coalesce(${jobs.city}, ${quoteRequests.city})`,
  state: sql<string>`coalesce(${jobs.state}, ${quoteRequests.state})`,
  zip: sql<string>`coalesce(${jobs.zip}, ${quoteRequests.zip})`,
};

/** A visit's crew as a JSON array, by name (null without one). */
const crewOf = (visitId: typeof visits.id) => sql`(
  select json_agg(json_build_object('_id', u.id, 'fullName', coalesce(nullif(u.full_name, ''), u.username))
                  order by u.full_name)
  from ${visitWorkers} vw join ${users} u on u.id = vw.user_id
  where vw.visit_id = ${visitId})`;

/** A visit as the API shows it, with the time it last changed (a calendar entry's sequence). */
export type VisitRecord = VisitView & { updatedAt: Date };

function visitQuery(db: DbOrTx, timeZone: string) {
  // As text: both drivers hand it over unparsed, and JSON.parse is the one parse.
  return db
    .select({
      json: sql<string>`${visitJson(timeZone, crewOf(visits.id))}::text`,
      updatedAt: visits.updatedAt,
    })
    .from(visits)
    .leftJoin(jobs, eq(jobs.id, visits.jobId))
    .leftJoin(quoteRequests, eq(quoteRequests.id, visits.quoteRequestId));
}

const toRecord = (r: { json: string; updatedAt: Date }): VisitRecord => ({
  ...(JSON.parse(r.json) as VisitView),
  updatedAt: r.updatedAt,
});

/** Without the change time: what the API answers. */
export const viewOf = ({ updatedAt: _changed, ...view }: VisitRecord): VisitView => view;

interface RangeOptions {
  workerId?: string | undefined;
  includeCancelled?: boolean;
}

function rangeWhere(from: Date, to: Date, options: RangeOptions) {
  const where: (SQL | undefined)[] = [overlaps(from, to)];
  if (!options.includeCancelled) where.push(isNull(visits.cancelledAt));
  if (options.workerId)
    where.push(
      sql`exists (select 1 from ${visitWorkers} where ${visitWorkers.visitId} = ${visits.id} and ${visitWorkers.userId} = ${options.workerId})`,
    );
  return and(...where);
}

/** Most visits a range answers with (a month of a busy business is a few hundred). */
const RANGE_LIMIT = 2000;

/** Visits overlapping a range (a calendar's visible days), booked ones only unless asked, in time order. */
export async function visitsInRange(
  db: DbOrTx,
  from: Date,
  to: Date,
  timeZone: string,
  options: RangeOptions = {},
): Promise<VisitRecord[]> {
  const rows = await visitQuery(db, timeZone)
    .where(rangeWhere(from, to, options))
    .orderBy(asc(visits.startsAt))
    .limit(RANGE_LIMIT);
  return rows.map(toRecord);
}

const calendarVersionStatement = preparedStatement((db) =>
  db.select({ v: calendarVersion.v }).from(calendarVersion).prepare('calendar_version'),
);
/** The calendar's version now: it grows at every commit that changes a visit, its crew or its job. */
export async function calendarVersionNow(db: Db): Promise<number> {
  const [row] = await calendarVersionStatement(db).execute();
  return row?.v ?? 0;
}

/** What a cached range is known by. */
export const rangeKey = (from: Date, to: Date, timeZone: string, options: RangeOptions = {}) =>
  [from.toISOString(), to.toISOString(), timeZone, options.workerId ?? '', options.includeCancelled ?? false].join('|');

/**
 * The same visits as `{"visits": [...]}` JSON (UTF-8 bytes), made whole by the database: a calendar's month is
 * hundreds of visits, and the server passes the text on without parsing or serializing it again.
 *
 * With a cache: the calendar version and the visits are read in one statement (one snapshot), and the
 * database builds the JSON only when the version differs from the one the cached text was read at; a
 * commit that changes what a calendar shows raises the version in the same commit (migration 0016).
 */
export async function visitsInRangeJson(
  db: DbOrTx,
  from: Date,
  to: Date,
  timeZone: string,
  options: RangeOptions = {},
  cache?: RangeCache,
): Promise<Buffer> {
  const page = db
    .select({ json: sql`${visitJson(timeZone, crewOf(visits.id))}`.as('json'), startsAt: visits.startsAt })
    .from(visits)
    .leftJoin(jobs, eq(jobs.id, visits.jobId))
    .leftJoin(quoteRequests, eq(quoteRequests.id, visits.quoteRequestId))
    .where(rangeWhere(from, to, options))
    .orderBy(asc(visits.startsAt))
    .limit(RANGE_LIMIT)
    .as('page');
  const build = sql<string>`(select json_build_object('visits', coalesce(json_agg(${page.json} order by ${page.startsAt}), '[]'::json))::text from ${page})`;
  if (!cache) {
    const [row] = await db.select({ text: build }).from(calendarVersion);
    return Buffer.from(row!.text);
  }
  const key = rangeKey(from, to, timeZone, options);
  const known = cache.get(key);
  const [row] = await db
    .select({
      version: sql<string>`${calendarVersion.v}::text`,
      text: sql<
        string | null
      >`case when ${calendarVersion.v}::text = ${known?.version ?? ''} then null else ${build} end`,
    })
    .from(calendarVersion);
  if (row!.text === null) return known!.body;
  // Kept as bytes: a cached month goes out without being encoded again.
  const body = Buffer.from(row!.text);
  cache.set(key, { version: row!.version, body });
  return body;
}

export async function visitsOfJob(db: DbOrTx, jobId: string, timeZone: string): Promise<VisitRecord[]> {
  const rows = await visitQuery(db, timeZone).where(eq(visits.jobId, jobId)).orderBy(asc(visits.startsAt));
  return rows.map(toRecord);
}

/** A request's estimate visits (issue 31), cancelled ones too, in time order. */
export async function visitsOfRequest(db: DbOrTx, quoteRequestId: string, timeZone: string): Promise<VisitRecord[]> {
  const rows = await visitQuery(db, timeZone)
    .where(eq(visits.quoteRequestId, quoteRequestId))
    .orderBy(asc(visits.startsAt));
  return rows.map(toRecord);
}

export async function visitById(db: DbOrTx, id: string, timeZone: string): Promise<VisitRecord | undefined> {
  const [row] = await visitQuery(db, timeZone).where(eq(visits.id, id));
  return row && toRecord(row);
}

/** The next booked visit of the job a request became (for the client's status page); none once the job is done or cancelled. */
export async function nextVisitOfRequest(
  db: DbOrTx,
  quoteRequestId: string,
): Promise<{ startsAt: Date; endsAt: Date } | null> {
  const [row] = await db
    .select({ startsAt: visits.startsAt, endsAt: visits.endsAt })
    .from(visits)
    .leftJoin(jobs, eq(jobs.id, visits.jobId))
    .where(
      and(
        // The job's visits while it is open, or the request's own estimate visit (issue 31).
        or(
          and(eq(jobs.quoteRequestId, quoteRequestId), inArray(jobs.status, [...OPEN_JOB_STATUSES])),
          eq(visits.quoteRequestId, quoteRequestId),
        ),
        isNull(visits.cancelledAt),
        sql`${visits.endsAt} > now()`,
      ),
    )
    .orderBy(asc(visits.startsAt))
    .limit(1);
  return row ?? null;
}

/** Whether the job `jobId` has a booked (not cancelled) visit: for the features that ask it of their rows. */
export const hasBookedVisit = (jobId: SQLWrapper): SQL =>
  sql`exists (select 1 from ${visits} where ${visits.jobId} = ${jobId} and ${visits.cancelledAt} is null)`;

/**
 * The booked visits starting in [from, to), in time order, with their job's client and city, and how
 * many; `unconfirmed`: only those the client has not confirmed.
 */
export async function visitsStarting(db: DbOrTx, from: Date, to: Date, limit: number, unconfirmed = false) {
  const where = and(
    isNull(visits.cancelledAt),
    gte(visits.startsAt, from),
    lt(visits.startsAt, to),
    unconfirmed ? isNull(visits.confirmedAt) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        jobId: visits.jobId,
        quoteRequestId: visits.quoteRequestId,
        startsAt: visits.startsAt,
        endsAt: visits.endsAt,
        name: party.name,
        city: party.city,
      })
      .from(visits)
      .leftJoin(jobs, eq(jobs.id, visits.jobId))
      .leftJoin(quoteRequests, eq(quoteRequests.id, visits.quoteRequestId))
      .where(where)
      .orderBy(asc(visits.startsAt), asc(visits.id))
      .limit(limit),
    db.select({ n: count() }).from(visits).where(where),
  ]);
  return { count: total?.n ?? 0, rows };
}

/** The job's visits still to come or under way, not cancelled, that `leadId` is booked on: first first. */
export async function leadVisitIds(db: DbOrTx, jobId: string, leadId: string, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: visits.id })
    .from(visits)
    .innerJoin(visitWorkers, and(eq(visitWorkers.visitId, visits.id), eq(visitWorkers.userId, leadId)))
    .where(and(eq(visits.jobId, jobId), isNull(visits.cancelledAt), gt(visits.endsAt, now)))
    .orderBy(asc(visits.startsAt))
    .limit(20);
  return rows.map((r) => r.id);
}

/** Who is booked on a visit, with their team role. */
export function visitCrewOf(db: DbOrTx, visitId: string) {
  return db
    .select({ userId: visitWorkers.userId, teamRole: users.teamRole })
    .from(visitWorkers)
    .innerJoin(users, eq(users.id, visitWorkers.userId))
    .where(eq(visitWorkers.visitId, visitId));
}

/** The Crew (not leads, not the office) a Crew lead may take along, by name. */
export function crewMembers(db: DbOrTx, ids?: string[]) {
  return db
    .select({ id: users.id, fullName: users.fullName, username: users.username })
    .from(users)
    .where(and(eq(users.teamRole, 'crew'), ids ? inArray(users.id, ids) : undefined))
    .orderBy(asc(users.fullName), asc(users.username))
    .limit(200);
}
