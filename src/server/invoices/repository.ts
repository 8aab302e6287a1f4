import { and, asc, desc, eq, inArray, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { INVOICE_STATUSES, type InvoiceKind, type InvoiceStatus } from '#shared/constants';
import type { Db, DbOrTx } from '../db/client';
import { cachedFigures } from '../figures';
import { preparedStatement } from '../db/prepared';
import { newId } from '../db/ids';
import { invoiceCounters, invoiceLines, invoices, payments } from './tables';
import { escapeLike, inKeyOrder, pageWindow } from '../lib/sql';
import { balanceCents } from '#shared/money';

export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;

/** What was paid on the invoice of the row being read: kept on the invoice by a trigger on payments. */
export const paidOnInvoice = invoices.paidCents;

export async function findInvoice(db: DbOrTx, id: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(invoices).where(eq(invoices.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export const linesOf = (db: DbOrTx, invoiceId: string) =>
  db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).orderBy(asc(invoiceLines.position));

export const paymentsOf = (db: DbOrTx, invoiceId: string) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.invoiceId, invoiceId))
    .orderBy(asc(payments.paidOn), asc(payments.createdAt));

/** The payment (or refund) a provider's id names, if recorded. */
export async function paymentByProviderRef(db: DbOrTx, provider: string, providerRef: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerRef, providerRef)));
  return row;
}

export async function paidCents(db: DbOrTx, invoiceId: string): Promise<number> {
  const [row] = await db.select({ paid: invoices.paidCents }).from(invoices).where(eq(invoices.id, invoiceId));
  return row?.paid ?? 0;
}

/**
 * The jobs whose bill is settled: a final invoice is sent and everything sent for the job (its deposit
 * and its bill) is paid in full; with the day of the job's last payment. A subquery to select from
 * (`job_id`, `last_paid`): a paid deposit alone does not settle a job.
 */
export const settledJobs = sql`(
  select i.job_id,
    (select max(p.paid_on) from ${payments} p join ${invoices} x on x.id = p.invoice_id
      where x.job_id = i.job_id and x.state = 'Sent') as last_paid
  from ${invoices} i
  where i.kind = 'final' and i.state = 'Sent'
    and not exists (
      select 1 from ${invoices} o
      where o.job_id = i.job_id and o.state = 'Sent'
        and o.paid_cents < o.total_cents - o.credit_cents))`;

/** A draft's lines as the money rules take them. */
export async function draftLines(db: DbOrTx, invoiceId: string) {
  return (await linesOf(db, invoiceId)).map((l) => ({
    description: l.description,
    quantity: Number(l.quantity),
    unitPriceCents: l.unitPriceCents,
    taxable: l.taxable,
  }));
}

/** The invoices (not void) that take this deposit invoice off their total. */
export const invoicesCrediting = (db: DbOrTx, depositInvoiceId: string) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.creditedInvoiceId, depositInvoiceId), sql`${invoices.state} <> 'Void'`))
    .for('update');

/** What is left to pay on an invoice: its total less the deposit it takes off, less its payments. */
export async function balanceOf(db: DbOrTx, row: Pick<InvoiceRow, 'id' | 'totalCents' | 'creditCents'>) {
  return balanceCents(row.totalCents - row.creditCents, await paidCents(db, row.id));
}

/** Replaces a draft's lines. */
export async function setLines(
  tx: DbOrTx,
  invoiceId: string,
  lines: { description: string; quantity: number; unitPriceCents: number; taxable: boolean }[],
) {
  await tx.delete(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId));
  if (lines.length)
    await tx.insert(invoiceLines).values(
      lines.map((line, position) => ({
        id: newId(),
        invoiceId,
        position,
        description: line.description,
        quantity: String(line.quantity),
        unitPriceCents: line.unitPriceCents,
        taxable: line.taxable,
      })),
    );
}

/** The job's bill (or its deposit invoice) that is not void, if any. */
export async function liveInvoiceOfJob(db: DbOrTx, jobId: string, kind: InvoiceKind = 'final') {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.jobId, jobId), eq(invoices.kind, kind), sql`${invoices.state} <> 'Void'`))
    .limit(1);
  return row;
}

/** A job's invoices from its repeating visits (months or visits), newest first. */
export function planInvoicesOfJob(db: DbOrTx, jobId: string, limit: number) {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.jobId, jobId), eq(invoices.kind, 'plan')))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(limit);
}

/**
 * The next number of a year: one statement adds one to the year's counter, and its row stays locked
 * until the sending transaction ends, so numbers are consecutive and a rolled-back send leaves no gap.
 */
export async function nextInvoiceNumber(tx: DbOrTx, year: number): Promise<string> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.year, set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last });
  return `INV-${year}-${String(row!.last).padStart(4, '0')}`;
}

export interface InvoiceFilter {
  /** Part of the number, the client's name or e-mail. */
  search?: string | undefined;
  status?: InvoiceStatus | undefined;
  /** The business's today, for Overdue. */
  today: string;
}

// The money rules every figure uses (the invoice list, the dashboard, Reports): one SQL fragment each.

/** Only sent invoices count for money: a draft is not owed yet and a void one never was. */
const countsForMoney = sql`${invoices.state} = 'Sent'`;
/** What an invoice still owes: its total less the deposit credited and what was paid on it. */
const balanceDue = sql`(${invoices.totalCents} - ${invoices.creditCents} - ${paidOnInvoice})`;
/** The business's today: a date, or a prepared statement's placeholder for one. */
type Today = string | Placeholder;
/** Past its due date in the business's today. */
const pastDue = (today: Today) => sql`(${invoices.dueDate} is not null and ${invoices.dueDate} < ${today}::date)`;
/** A sent invoice that still owes something past its due date. */
const overdue = (today: Today) => sql`${countsForMoney} and ${balanceDue} > 0 and ${pastDue(today)}`;
/** Revenue: a payment without its share of sales tax (each payment carries tax in the proportion its invoice does). */
const netOfTax = sql`${payments.amountCents} - round(${payments.amountCents}::numeric * ${invoices.taxCents} / nullif(${invoices.totalCents}, 0))`;

/**
 * The rule of `invoiceStatusOf` as SQL, so the list filters in the database: the state decides Draft
 * and Void; a sent invoice is Paid when paid in full, else Overdue past its due date, else Partially Paid
 * or Sent. `tests/api/invoices.test.ts` checks the two agree on every status, and with the dashboard.
 */
function statusWhere(status: InvoiceStatus, today: Today): SQL {
  if (status === 'Draft' || status === 'Void') return sql`${invoices.state} = ${status}`;
  if (status === 'Paid') return sql`${countsForMoney} and ${balanceDue} <= 0`;
  if (status === 'Overdue') return overdue(today);
  const open = sql`${countsForMoney} and ${balanceDue} > 0 and not ${pastDue(today)}`;
  return sql`${open} and ${paidOnInvoice} ${sql.raw(status === 'Partially Paid' ? '> 0' : '= 0')}`;
}

function filterWhere({ search, status, today }: InvoiceFilter): SQL | undefined {
  const like = search ? `%${escapeLike(search.toLowerCase())}%` : null;
  return and(
    like
      ? sql`lower(coalesce(${invoices.number}, '') || ' ' || ${invoices.clientName} || ' ' || ${invoices.clientEmail}) like ${like}`
      : undefined,
    status ? statusWhere(status, today) : undefined,
  );
}

/** A client's invoices, newest first (their page; a client has tens, not thousands). */
export function invoicesOfClient(db: DbOrTx, clientId: string) {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.clientId, clientId))
    .orderBy(desc(invoices.createdAt), desc(invoices.id));
}

/** A page's ids from one end of the creation-order index, then those rows newest first (a deferred join). */
function pageOf(
  db: Db,
  where: SQL | undefined,
  fromOldest: boolean,
  take: number | Placeholder,
  skip: number | Placeholder,
) {
  const ids = db
    .select({ id: invoices.id })
    .from(invoices)
    .where(where)
    .orderBy(
      ...(fromOldest ? [asc(invoices.createdAt), asc(invoices.id)] : [desc(invoices.createdAt), desc(invoices.id)]),
    )
    .limit(take)
    .offset(skip);
  return newestFirst(db, ids);
}

/** Invoices by id (a list, or a query of ids), newest first. */
const newestFirst = (db: Db, ids: string[] | SQLWrapper) =>
  db.select().from(invoices).where(inArray(invoices.id, ids)).orderBy(desc(invoices.createdAt), desc(invoices.id));

const pageKey = (status: InvoiceStatus | undefined, fromOldest: boolean) => `${status ?? 'all'} ${fromOldest}`;

/**
 * The pages without a search, each status (or none) from either end: prepared, as the request list's
 * are (decision 006). PostgreSQL planned a page in longer than it ran it.
 */
const preparedPages = preparedStatement((db) => {
  const pages = new Map<string, ReturnType<ReturnType<typeof pageOf>['prepare']>>();
  for (const status of [undefined, ...INVOICE_STATUSES])
    for (const fromOldest of [false, true]) {
      const where = status ? statusWhere(status, sql.placeholder('today')) : undefined;
      const name = `invoice_page_${(status ?? 'all').toLowerCase().replace(' ', '_')}_${fromOldest ? 'oldest' : 'newest'}`;
      pages.set(
        pageKey(status, fromOldest),
        pageOf(db, where, fromOldest, sql.placeholder('take'), sql.placeholder('skip')).prepare(name),
      );
    }
  return pages;
});

/**
 * One page of invoices, newest first, and how many match. A search matching few invoices is paged from
 * its matches (fewMatchesPage); any other page is found from the nearer end of the creation-order index
 * (pageWindow). Without a search the count is kept while the figures' version stands (every change to
 * an invoice or a payment moves it): counting 15,000 invoices took PostgreSQL 1.3 ms on every page
 * (decision 028, session 45).
 */
export async function listInvoices(
  db: Db,
  { page, limit, ...filter }: InvoiceFilter & { page: number; limit: number },
  sortedAtMost = SEARCH_SORTED_AT_MOST,
) {
  if (filter.search) {
    const few = await fewMatchesPage(db, filter, page, limit, sortedAtMost);
    if (few) return few;
  }
  const total = filter.search
    ? await countInvoices(db, filter)
    : await cachedFigures(db, `invoice count ${filter.status ?? 'all'} ${filter.today}`, () =>
        countInvoices(db, filter),
      );
  const window = pageWindow(page, limit, total);
  if (!window) return { rows: [], total };
  const rows = filter.search
    ? await pageOf(db, filterWhere(filter), window.fromOldest, window.take, window.skip)
    : await preparedPages(db)
        .get(pageKey(filter.status, window.fromOldest))!
        .execute({ today: filter.today, take: window.take, skip: window.skip });
  return { rows, total };
}

/**
 * A search matching at most this many invoices is paged from its matches: found through the search
 * index, counted, sorted and paged in one statement, then the page's rows read by id. Counting the
 * matches and then walking the creation-order index to the page read every invoice between ten
 * scattered matches ("client 123" in the bench: 395 against 560 a second in pgbench at 4 clients,
 * decision 028, session 47). Past it the matches are dense, and the count and the walk cost less than
 * sorting them all.
 */
export const SEARCH_SORTED_AT_MOST = 1000;

/** A searched page and its count when the search matches at most `sortedAtMost` invoices; else undefined. */
export async function fewMatchesPage(
  db: Db,
  filter: InvoiceFilter,
  page: number,
  limit: number,
  sortedAtMost = SEARCH_SORTED_AT_MOST,
) {
  const matched = db
    .select({ id: invoices.id, createdAt: invoices.createdAt })
    .from(invoices)
    .where(filterWhere(filter))
    .limit(sortedAtMost + 1)
    .as('matched');
  const found = await db
    .select({ id: matched.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(matched)
    .orderBy(desc(matched.createdAt), desc(matched.id))
    .limit(limit)
    .offset((page - 1) * limit);
  // An empty page carries no count: none match when it is the first, else the matches are counted (up
  // to the same bound).
  const total = found.length
    ? found[0]!.total
    : page === 1
      ? 0
      : await db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(matched)
          .then(([row]) => row?.n ?? 0);
  if (total > sortedAtMost) return undefined;
  const rows = found.length
    ? await newestFirst(
        db,
        found.map((row) => row.id),
      )
    : [];
  return { rows, total };
}

export async function countInvoices(db: DbOrTx, filter: InvoiceFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(invoices)
    .where(filterWhere(filter));
  return Number(row?.n ?? 0);
}

/**
 * The money figures of the dashboard: revenue (payments without their sales tax) all time and since
 * `monthStart`; what sent invoices still owe; how many are overdue.
 */
export async function invoiceFigures(db: DbOrTx, today: string, monthStart: string) {
  const [received] = await db
    .select({
      allTime: sql<string>`coalesce(sum(${netOfTax}), 0)`,
      thisMonth: sql<string>`coalesce(sum(${netOfTax}) filter (where ${payments.paidOn} >= ${monthStart}::date), 0)`,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(countsForMoney);
  const [open] = await db
    .select({
      outstanding: sql<string>`coalesce(sum(${balanceDue}), 0)`,
      overdue: sql<string>`count(*) filter (where ${overdue(today)})`,
    })
    .from(invoices)
    .where(countsForMoney);
  return {
    receivedCents: Number(received?.allTime ?? 0),
    receivedThisMonthCents: Number(received?.thisMonth ?? 0),
    outstandingCents: Number(open?.outstanding ?? 0),
    overdue: Number(open?.overdue ?? 0),
  };
}

/** Revenue (as the dashboard counts it) by month ('YYYY-MM'), from the first day `since` on. */
export async function revenueByMonth(db: DbOrTx, since: string): Promise<Map<string, number>> {
  const month = sql<string>`to_char(${payments.paidOn}, 'YYYY-MM')`;
  const rows = await db
    .select({ month, cents: sql<string>`sum(${netOfTax})` })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(and(countsForMoney, sql`${payments.paidOn} >= ${since}::date`))
    .groupBy(month);
  return new Map(rows.map((row) => [row.month, Number(row.cents)]));
}

/** Every invoice with what was paid on it, oldest first (the CSV download). */
/** How many rows one query of a download reads. */
const DOWNLOAD_BATCH = 500;

/**
 * Every invoice in creation order, in batches (the CSV download, decision 028): each batch the next
 * rows after the last one's key, read back as text so its timestamp keeps its microseconds.
 */
export function invoiceBatches(db: DbOrTx, batchSize = DOWNLOAD_BATCH) {
  return inKeyOrder((last: { invoice: typeof invoices.$inferSelect; key: string } | undefined) =>
    db
      .select({ invoice: invoices, key: sql<string>`${invoices.createdAt}::text` })
      .from(invoices)
      .where(last ? sql`(${invoices.createdAt}, ${invoices.id}) > (${last.key}, ${last.invoice.id})` : undefined)
      .orderBy(asc(invoices.createdAt), asc(invoices.id))
      .limit(batchSize),
  );
}

/** Every payment with its invoice's number and client, in date order, in batches (the CSV download). */
export function paymentBatches(db: DbOrTx, batchSize = DOWNLOAD_BATCH) {
  const paymentRows = () =>
    db
      .select({
        payment: payments,
        number: invoices.number,
        clientName: invoices.clientName,
        key: sql<string>`${payments.createdAt}::text`,
      })
      .from(payments)
      .innerJoin(invoices, eq(invoices.id, payments.invoiceId));
  return inKeyOrder((last: Awaited<ReturnType<typeof paymentRows>>[number] | undefined) =>
    paymentRows()
      .where(
        last
          ? sql`(${payments.paidOn}, ${payments.createdAt}, ${payments.id}) > (${last.payment.paidOn}, ${last.key}, ${last.payment.id})`
          : undefined,
      )
      .orderBy(asc(payments.paidOn), asc(payments.createdAt), asc(payments.id))
      .limit(batchSize),
  );
}

/** Whether the job `jobId` has its bill (a final invoice, draft or sent, not void): for the jobs still to invoice. */
export const hasFinalInvoice = (jobId: SQLWrapper): SQL =>
  sql`exists (select 1 from ${invoices} where ${invoices.jobId} = ${jobId} and ${invoices.kind} = 'final' and ${invoices.state} <> 'Void')`;

/** The sent deposit invoices that still owe something, oldest due first, and how many there are. */
export async function unpaidDeposits(db: DbOrTx, limit: number) {
  const owed = sql<number>`${invoices.totalCents} - ${invoices.creditCents} - ${invoices.paidCents}`;
  const where = and(eq(invoices.kind, 'deposit'), eq(invoices.state, 'Sent'), sql`${owed} > 0`);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        name: invoices.clientName,
        owedCents: owed.mapWith(Number),
        dueDate: invoices.dueDate,
      })
      .from(invoices)
      .where(where)
      .orderBy(asc(invoices.dueDate), asc(invoices.id))
      .limit(limit),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(invoices)
      .where(where),
  ]);
  return { count: total?.n ?? 0, rows };
}

/** The invoices of these ids that exist, each by its number (null while a draft) and its client. */
export async function invoiceNames(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return new Map<string, { number: string | null; name: string }>();
  const rows = await db
    .select({ id: invoices.id, number: invoices.number, name: invoices.clientName })
    .from(invoices)
    .where(inArray(invoices.id, ids));
  return new Map(rows.map((r) => [r.id, { number: r.number, name: r.name }]));
}
