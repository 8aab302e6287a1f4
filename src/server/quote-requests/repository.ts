import { and, asc, count, desc, eq, getTableColumns, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { QuoteRequestStatus, QuoteStatus } from '#shared/constants';
import { canMove, QUOTE_REQUEST_TRANSITIONS } from '#shared/statuses';
import { escapeLike, pageWindow } from '../lib/sql';
import { isUniqueViolation } from '../lib/db-errors';
import { quoteNumberOf, type QuoteRequestView } from '#shared/schemas/quote-request';
import { afterCommit, type Db, type DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { newId } from '../db/ids';
import { quoteRequestCounts, quoteRequestImages, quoteRequests } from './tables';
import type { ProcessedImage } from '../lib/images';

export type QuoteRequestRow = typeof quoteRequests.$inferSelect;
export type ImageSummary = Pick<
  typeof quoteRequestImages.$inferSelect,
  'id' | 'quoteRequestId' | 'width' | 'height' | 'position'
>;

/** A new request's columns, from the schema: everything but what the app sets (id, number, status, dates). */
export type NewQuoteRequest = Omit<
  typeof quoteRequests.$inferInsert,
  'id' | 'quoteNumber' | 'status' | 'createdAt' | 'declineReason'
>;

/**
 * Stores a request and its photos. The quote number comes from the id's random tail; in the rare
 * case two ids share it, a new id is drawn (inside a savepoint, so the caller's transaction lives on).
 */
export async function insertQuoteRequest(
  tx: DbOrTx,
  request: NewQuoteRequest,
  images: ProcessedImage[],
): Promise<QuoteRequestRow> {
  for (let attempt = 0; ; attempt++) {
    const id = newId();
    try {
      const row = await tx.transaction(async (sp) => {
        const [inserted] = await sp
          .insert(quoteRequests)
          .values({ id, quoteNumber: quoteNumberOf(id), ...request })
          .returning();
        return inserted!;
      });
      if (images.length > 0) {
        await tx
          .insert(quoteRequestImages)
          .values(images.map((image, position) => ({ id: newId(), quoteRequestId: id, position, ...image })));
      }
      return row;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 4) throw error;
    }
  }
}

/** What a client may type to find a request: its quote number ("Q…", any case, with or without the Q) or its full id. */
export type RequestKey = { id: string } | { quoteNumber: string };

export function parseRequestKey(numberOrId: string): RequestKey | undefined {
  const clean = numberOrId.trim().replace(/^q/i, '');
  if (/^[0-9a-f]{24}$/i.test(clean)) return { id: clean.toLowerCase() };
  if (/^[0-9a-z]{9}$/i.test(clean)) return { quoteNumber: `Q${clean.toUpperCase()}` };
  return undefined;
}

function keyWhere(key: RequestKey) {
  return 'id' in key ? eq(quoteRequests.id, key.id) : eq(quoteRequests.quoteNumber, key.quoteNumber);
}

/** A request's status and, beside it, its current quote's (null before a quote is sent). */
export interface RequestStatus {
  id: string;
  status: QuoteRequestStatus;
  quoteStatus: QuoteStatus | null;
}

/** Just the statuses (the request's and its quote's), for the public status lookup. */
export async function findQuoteRequestStatus(db: DbOrTx, key: RequestKey): Promise<RequestStatus | undefined> {
  const [row] = await db
    .select({ id: quoteRequests.id, status: quoteRequests.status, quoteStatus: quoteRequests.quoteStatus })
    .from(quoteRequests)
    .where(keyWhere(key))
    .limit(1);
  return row;
}

export function findQuoteRequestById(db: DbOrTx, id: string): Promise<QuoteRequestRow | undefined> {
  return db.query.quoteRequests.findFirst({ where: eq(quoteRequests.id, id) });
}

export function listImageSummaries(db: DbOrTx, quoteRequestIds: string[]): Promise<ImageSummary[]> {
  if (quoteRequestIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: quoteRequestImages.id,
      quoteRequestId: quoteRequestImages.quoteRequestId,
      width: quoteRequestImages.width,
      height: quoteRequestImages.height,
      position: quoteRequestImages.position,
    })
    .from(quoteRequestImages)
    .where(inArray(quoteRequestImages.quoteRequestId, quoteRequestIds))
    .orderBy(asc(quoteRequestImages.position));
}

/** The spec's shape of a quote request. */
export function toQuoteRequestView(row: QuoteRequestRow, images: ImageSummary[] = []): QuoteRequestView {
  return {
    _id: row.id,
    quoteNumber: row.quoteNumber,
    contactPerson: { name: row.contactName, email: row.contactEmail, phone: row.contactPhone },
    address: { street: row.street, city: row.city, state: row.state, zip: row.zip },
    notes: row.notes,
    preferredEndDate: row.preferredEndDate,
    quoteStatus: row.status,
    quoteState: row.quoteStatus,
    clientId: row.clientId,
    quoteRequestDate: row.createdAt.toISOString(),
    images: images.map((i) => ({ _id: i.id, width: i.width, height: i.height })),
  };
}

export interface QuoteRequestFilter {
  status?: QuoteRequestStatus | undefined;
  search?: string | undefined;
  quoteState?: QuoteStatus | undefined;
}

/**
 * What a search finds: a request by its number (Q…, as the client quotes it on the phone), by the
 * client's e-mail (anything with an "@"), or by a part of the client's name.
 */
function searchWhere(search: string): SQL {
  const number = /^q?([0-9a-z]{9})$/i.exec(search.trim());
  if (number) return or(eq(quoteRequests.quoteNumber, `Q${number[1]!.toUpperCase()}`), nameLike(search))!;
  if (search.includes('@')) return ilike(quoteRequests.contactEmail, `%${escapeLike(search.trim())}%`);
  return nameLike(search);
}
const nameLike = (search: string) => ilike(quoteRequests.contactName, `%${escapeLike(search)}%`);

function filterWhere({ status, search, quoteState }: QuoteRequestFilter) {
  return and(
    status ? eq(quoteRequests.status, status) : undefined,
    quoteState ? eq(quoteRequests.quoteStatus, quoteState) : undefined,
    search ? searchWhere(search) : undefined,
  );
}

const newestFirst = [desc(quoteRequests.createdAt), desc(quoteRequests.id)];
const oldestFirst = [asc(quoteRequests.createdAt), asc(quoteRequests.id)];

/**
 * How many photos the request of the row being read has: counted on the (request, position) index, for
 * a page's rows only. Qualified by hand: in a one-table select drizzle writes bare column names, which
 * inside the subquery would name the photo's own columns.
 */
const photoCount =
  sql<number>`(select count(*) from ${quoteRequestImages} where ${quoteRequestImages}.${sql.identifier(quoteRequestImages.quoteRequestId.name)} = ${quoteRequests}.${sql.identifier(quoteRequests.id.name)})`
    .mapWith(Number)
    .as('photo_count');

/**
 * A page's rows: its ids from the index alone (a deferred join), then only those rows, newest first,
 * each with its number of photos.
 */
function pageRows(db: DbOrTx, where: SQL | undefined, fromOldest: boolean) {
  const ids = db
    .select({ id: quoteRequests.id })
    .from(quoteRequests)
    .where(where)
    .orderBy(...(fromOldest ? oldestFirst : newestFirst))
    .limit(sql.placeholder('take'))
    .offset(sql.placeholder('skip'));
  return db
    .select({ ...getTableColumns(quoteRequests), photoCount })
    .from(quoteRequests)
    .where(inArray(quoteRequests.id, ids))
    .orderBy(...newestFirst);
}

/** Paging without a search is what the office does all day: those pages and counts are prepared. */
const preparedPages = preparedStatement((db) => {
  const byStatus = eq(quoteRequests.status, sql.placeholder('status'));
  return {
    all: {
      newest: pageRows(db, undefined, false).prepare('qr_page_newest'),
      oldest: pageRows(db, undefined, true).prepare('qr_page_oldest'),
    },
    byStatus: {
      newest: pageRows(db, byStatus, false).prepare('qr_status_page_newest'),
      oldest: pageRows(db, byStatus, true).prepare('qr_status_page_oldest'),
    },
    countAll: db
      .select({ n: sql<string>`coalesce(sum(${quoteRequestCounts.n}), 0)` })
      .from(quoteRequestCounts)
      .prepare('qr_count_all'),
    countByStatus: db
      .select({ n: sql<string>`coalesce(sum(${quoteRequestCounts.n}), 0)` })
      .from(quoteRequestCounts)
      .where(eq(quoteRequestCounts.status, sql.placeholder('status')))
      .prepare('qr_count_status'),
  };
});

/**
 * One page of requests, newest first. Pages past the middle are read from the oldest end, so no
 * page walks more than half the index (decision 004). A name search is planned each time: its best
 * plan depends on how rare the name is, which a prepared (generic) plan cannot know.
 */
export async function listQuoteRequests(db: Db, filter: QuoteRequestFilter, page: number, limit: number) {
  const prepared = preparedPages(db);
  const { status, search } = filter;
  const total = await countQuoteRequests(db, filter);
  const window = pageWindow(page, limit, total);
  if (!window) return { rows: [], total };
  const { fromOldest, take, skip } = window;
  const values = { take, skip, status };
  const direction = fromOldest ? 'oldest' : 'newest';
  const rows =
    search || filter.quoteState
      ? await pageRows(db, filterWhere(filter), fromOldest).execute(values)
      : await (status ? prepared.byStatus : prepared.all)[direction].execute(values);
  return { rows, total };
}

/** Without a name search the trigger-kept counts answer at once; a search counts its (few) matches. */
async function countQuoteRequests(db: Db, filter: QuoteRequestFilter): Promise<number> {
  if (filter.search || filter.quoteState) {
    const [row] = await db.select({ n: count() }).from(quoteRequests).where(filterWhere(filter));
    return row?.n ?? 0;
  }
  const prepared = preparedPages(db);
  const [row] = filter.status
    ? await prepared.countByStatus.execute({ status: filter.status })
    : await prepared.countAll.execute();
  return Number(row?.n ?? 0);
}

export function findImage(db: DbOrTx, imageId: string) {
  return db.query.quoteRequestImages.findFirst({ where: eq(quoteRequestImages.id, imageId) });
}

/** Moves a request from one status to another; undefined when it is not in `from` (or does not exist). */
export async function transitionQuoteRequest(
  tx: DbOrTx,
  id: string,
  from: QuoteRequestStatus,
  to: QuoteRequestStatus,
  extra: Partial<QuoteRequestRow> = {},
) {
  if (!canMove(QUOTE_REQUEST_TRANSITIONS, from, to)) throw new Error(`A request cannot move from ${from} to ${to}`);
  const [row] = await tx
    .update(quoteRequests)
    .set({ status: to, ...extra })
    .where(and(eq(quoteRequests.id, id), eq(quoteRequests.status, from)))
    .returning();
  if (row) afterCommit(tx, REQUEST_STATUS_CHANGED, { id: row.id, quoteNumber: row.quoteNumber });
  return row;
}

/** The two kept counts the dashboard and Reports open with, in one prepared statement. */
const keptCounts = preparedStatement((db) =>
  db
    .select({
      all: sql<string>`coalesce(sum(${quoteRequestCounts.n}), 0)`,
      pending: sql<string>`coalesce(sum(${quoteRequestCounts.n}) filter (where ${quoteRequestCounts.status} = ${'Pending' satisfies QuoteRequestStatus}), 0)`,
    })
    .from(quoteRequestCounts)
    .prepare('qr_kept_counts'),
);

/**
 * How many requests there are, and how many are Pending: the trigger-kept counts, exact and cheap, read
 * in one statement (two were a round trip more on every opening of the dashboard, decision 006).
 */
export async function requestKeptCounts(db: Db) {
  const [row] = await keptCounts(db).execute();
  return { all: Number(row?.all ?? 0), pending: Number(row?.pending ?? 0) };
}

/**
 * The dashboard's other request figures: new this week and month, and where the requests' quotes
 * stand. They change only with a new request (a new total) or a quote's step (a write to quotes).
 */
export async function requestWindowCounts(db: DbOrTx) {
  const countWhere = async (where: SQL) =>
    (await db.select({ n: count() }).from(quoteRequests).where(where))[0]?.n ?? 0;
  const [week, month, quoteStates] = await Promise.all([
    countWhere(gte(quoteRequests.createdAt, sql`now() - interval '7 days'`)),
    countWhere(gte(quoteRequests.createdAt, sql`now() - interval '1 month'`)),
    db
      .select({ state: quoteRequests.quoteStatus, n: count() })
      .from(quoteRequests)
      .where(sql`${quoteRequests.quoteStatus} is not null`)
      .groupBy(quoteRequests.quoteStatus),
  ]);
  const of = (state: QuoteStatus) => quoteStates.find((s) => s.state === state)?.n ?? 0;
  return {
    week,
    month,
    quotes: {
      awaiting: of('Pending'),
      questions: of('Requested More Info'),
      accepted: of('Accepted'),
      declined: of('Declined'),
    },
  };
}

/** Records where the request's current quote stands (beside the request's own status). */
export async function setQuoteStatus(tx: DbOrTx, id: string, quoteStatus: QuoteStatus): Promise<void> {
  const [row] = await tx
    .update(quoteRequests)
    .set({ quoteStatus })
    .where(eq(quoteRequests.id, id))
    .returning({ id: quoteRequests.id, quoteNumber: quoteRequests.quoteNumber });
  if (row) afterCommit(tx, REQUEST_STATUS_CHANGED, row);
}

/**
 * Told after a commit that changed a request's status or its quote's: the status page's cache forgets
 * it (status-cache.ts), so this process never answers the old one.
 */
export const REQUEST_STATUS_CHANGED = 'quote-request-status-changed';

/** A client's requests, newest first. */
export function requestsOfClient(db: DbOrTx, clientId: string) {
  return db
    .select()
    .from(quoteRequests)
    .where(eq(quoteRequests.clientId, clientId))
    .orderBy(...newestFirst)
    .limit(500);
}

/** The requests accepted for quoting whose quote is not sent yet, newest first, and how many there are. */
export async function requestsAwaitingQuote(db: DbOrTx, limit: number) {
  const where = eq(quoteRequests.status, 'Accepted');
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: quoteRequests.id,
        quoteNumber: quoteRequests.quoteNumber,
        name: quoteRequests.contactName,
        city: quoteRequests.city,
      })
      .from(quoteRequests)
      .where(where)
      .orderBy(desc(quoteRequests.createdAt), desc(quoteRequests.id))
      .limit(limit),
    db.select({ n: count() }).from(quoteRequests).where(where),
  ]);
  return { count: total?.n ?? 0, rows };
}

/** The requests of these ids that exist, each by its number and its client's name. */
export async function requestNames(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return new Map<string, { quoteNumber: string; name: string }>();
  const rows = await db
    .select({ id: quoteRequests.id, quoteNumber: quoteRequests.quoteNumber, name: quoteRequests.contactName })
    .from(quoteRequests)
    .where(inArray(quoteRequests.id, ids));
  return new Map(rows.map((r) => [r.id, { quoteNumber: r.quoteNumber, name: r.name }]));
}
