import { and, asc, count, desc, eq, ilike, inArray, not, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { JobView } from '#shared/schemas/jobs';
import type { JobStatus } from '#shared/constants';
import { OPEN_JOB_STATUSES } from '#shared/statuses';
import type { Db, DbOrTx } from '../db/client';
import { cachedFigures } from '../figures';
import { newId } from '../db/ids';
import { quotes, users } from '../db/schema';
import { jobs, jobWorkers } from './tables';
import { soldQuoteView } from '../quotes';
import { billingOf } from '../clients';
import { escapeLike } from '../lib/sql';

export type JobRow = typeof jobs.$inferSelect;
/** A new job's columns, from the schema; the id is made here. */
export type NewJob = Omit<typeof jobs.$inferInsert, 'id'>;

export async function insertJob(db: DbOrTx, job: NewJob): Promise<string> {
  const id = newId();
  await db.insert(jobs).values({ id, ...job });
  return id;
}

/** The job a request became, if any. */
export async function findJobIdByRequest(db: DbOrTx, quoteRequestId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(eq(jobs.quoteRequestId, quoteRequestId))
    .orderBy(asc(jobs.createdAt))
    .limit(1);
  return row?.id;
}

export function findJobById(db: DbOrTx, id: string) {
  return db.query.jobs.findFirst({ where: eq(jobs.id, id) });
}

/** The workers on each of these jobs, by job id. */
async function workersOf(db: DbOrTx, jobIds: string[]) {
  const byJob = new Map<string, { _id: string; fullName: string }[]>();
  if (jobIds.length === 0) return byJob;
  const rows = await db
    .select({ jobId: jobWorkers.jobId, id: users.id, fullName: users.fullName, username: users.username })
    .from(jobWorkers)
    .innerJoin(users, eq(users.id, jobWorkers.userId))
    .where(inArray(jobWorkers.jobId, jobIds))
    .orderBy(asc(jobWorkers.assignedAt), asc(users.fullName));
  for (const r of rows) {
    const list = byJob.get(r.jobId) ?? [];
    list.push({ _id: r.id, fullName: r.fullName || r.username });
    byJob.set(r.jobId, list);
  }
  return byJob;
}

function toJobView(row: JobRow, workers: { _id: string; fullName: string }[]): JobView {
  return {
    _id: row.id,
    contactPerson: { name: row.contactName, email: row.contactEmail, phone: row.contactPhone },
    clientId: row.clientId,
    address: { street: row.street, city: row.city, state: row.state, zip: row.zip },
    serviceAddressId: row.serviceAddressId,
    notes: row.notes,
    assignedTo: workers,
    status: row.status,
    quoteId: row.quoteId,
    quoteRequestId: row.quoteRequestId,
    createdAt: row.createdAt.toISOString(),
    cancelReason: row.cancelReason,
  };
}

export async function jobViews(db: DbOrTx, rows: JobRow[]): Promise<JobView[]> {
  const workers = await workersOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toJobView(r, workers.get(r.id) ?? []));
}

/** A job with its workers and the lines and totals of the quote it was sold with (`today` where the business is). */
export async function jobDetail(db: DbOrTx, row: JobRow, today: string): Promise<JobView> {
  const [listed] = await jobViews(db, [row]);
  const view = { ...listed!, companyName: (await billingOf(db, row.clientId)).companyName };
  if (!row.quoteId) return { ...view, quote: null };
  const quote = await db.query.quotes.findFirst({ where: eq(quotes.id, row.quoteId) });
  if (!quote) return { ...view, quote: null };
  return { ...view, quote: await soldQuoteView(db, quote, today) };
}

/**
 * A page of jobs, newest first, and how many match. Without a search or a worker the count is kept
 * while the figures' version stands (every change to a job moves it), as the invoice list's is:
 * counting 10,000 jobs was a third of the page's statements' time (decision 028, session 47).
 */
export async function listJobs(
  db: Db,
  {
    page,
    limit,
    search,
    status,
    workerId,
    openOnly,
  }: {
    page: number;
    limit: number;
    search?: string | undefined;
    status?: JobStatus | undefined;
    workerId?: string;
    openOnly?: boolean;
  },
) {
  const where = and(
    search ? ilike(jobs.contactName, `%${escapeLike(search)}%`) : undefined,
    workerId
      ? sql`exists (select 1 from ${jobWorkers} where ${jobWorkers.jobId} = ${jobs.id} and ${jobWorkers.userId} = ${workerId})`
      : undefined,
    openOnly ? inArray(jobs.status, [...OPEN_JOB_STATUSES]) : undefined,
    status ? eq(jobs.status, status) : undefined,
  );
  const counted = () =>
    db
      .select({ n: count() })
      .from(jobs)
      .where(where)
      .then(([row]) => row?.n ?? 0);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(jobs)
      .where(where)
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit)
      .offset((page - 1) * limit),
    search || workerId ? counted() : cachedFigures(db, `job count ${status ?? 'all'} ${Boolean(openOnly)}`, counted),
  ]);
  return { rows, total };
}

export async function isAssigned(db: DbOrTx, jobId: string, userId: string): Promise<boolean> {
  const row = await db.query.jobWorkers.findFirst({
    where: and(eq(jobWorkers.jobId, jobId), eq(jobWorkers.userId, userId)),
  });
  return Boolean(row);
}

/** Replaces the job's workers with these. */
export async function setWorkers(tx: DbOrTx, jobId: string, userIds: string[]) {
  await tx.delete(jobWorkers).where(eq(jobWorkers.jobId, jobId));
  if (userIds.length > 0) await tx.insert(jobWorkers).values(userIds.map((userId) => ({ jobId, userId })));
}

/** Completed jobs and the quoted totals they brought in. */
export async function completedJobStats(db: DbOrTx) {
  const [row] = await db.select({ completed: count() }).from(jobs).where(eq(jobs.status, 'Completed'));
  return { completed: row?.completed ?? 0 };
}

/**
 * A client's jobs, newest first: those their requests became and those made for them without a request
 * (a service plan's job), which only the client ties to them.
 */
export function jobsOfClient(db: DbOrTx, clientId: string, quoteRequestIds: string[]) {
  return db
    .select()
    .from(jobs)
    .where(
      quoteRequestIds.length === 0
        ? eq(jobs.clientId, clientId)
        : or(eq(jobs.clientId, clientId), inArray(jobs.quoteRequestId, quoteRequestIds)),
    )
    .orderBy(desc(jobs.createdAt), desc(jobs.id));
}

/** The jobs these requests became, newest first. */
export function jobsOfRequests(db: DbOrTx, quoteRequestIds: string[]) {
  if (quoteRequestIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(jobs)
    .where(inArray(jobs.quoteRequestId, quoteRequestIds))
    .orderBy(desc(jobs.createdAt), desc(jobs.id));
}

/** Puts these workers on the job too (those already on it stay): a visit's crew works the job. */
export async function addJobWorkers(tx: DbOrTx, jobId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx
    .insert(jobWorkers)
    .values(userIds.map((userId) => ({ jobId, userId })))
    .onConflictDoNothing();
}

/**
 * The jobs in these statuses that lack something another feature keeps (a booked visit, an invoice),
 * newest first (the one just sold is the one to schedule), and how many there are. `has` is that feature's own test for one job.
 */
export async function jobsLacking(
  db: DbOrTx,
  statuses: readonly JobStatus[],
  has: (jobId: SQLWrapper) => SQL,
  limit: number,
) {
  const where = and(inArray(jobs.status, [...statuses]), not(has(jobs.id)));
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: jobs.id, name: jobs.contactName, city: jobs.city })
      .from(jobs)
      .where(where)
      .orderBy(desc(jobs.createdAt), desc(jobs.id))
      .limit(limit),
    db.select({ n: count() }).from(jobs).where(where),
  ]);
  return { count: total?.n ?? 0, rows };
}

/** The jobs of these ids that exist, each by its client's name. */
export async function jobNames(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db.select({ id: jobs.id, name: jobs.contactName }).from(jobs).where(inArray(jobs.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Which of these jobs are open (still to do): one read for a list of plans or visits. */
export async function openJobIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.id, ids), inArray(jobs.status, [...OPEN_JOB_STATUSES])));
  return new Set(rows.map((r) => r.id));
}

/** The open jobs at one of a client's service addresses (decision 037: it cannot be removed under them). */
export function openJobsAtAddress(db: DbOrTx, serviceAddressId: string) {
  return db
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(and(eq(jobs.serviceAddressId, serviceAddressId), inArray(jobs.status, [...OPEN_JOB_STATUSES])))
    .orderBy(asc(jobs.createdAt), asc(jobs.id));
}

/**
 * A service address was corrected: the open jobs at it go there too (their copy is what the crew, the
 * calendar and the invoice read). Finished and cancelled jobs keep the address they were done at.
 */
export async function followAddressChange(
  tx: DbOrTx,
  serviceAddressId: string,
  address: { street: string; city: string; state: string; zip: string },
): Promise<void> {
  await tx
    .update(jobs)
    .set({ street: address.street, city: address.city, state: address.state, zip: address.zip })
    .where(and(eq(jobs.serviceAddressId, serviceAddressId), inArray(jobs.status, [...OPEN_JOB_STATUSES])));
}
