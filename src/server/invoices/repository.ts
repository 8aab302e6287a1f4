import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { InvoiceStatus } from '../../shared/constants';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { invoiceCounters, invoiceLines, invoices, payments } from '../db/schema';
import { escapeLike } from '../lib/sql';
import { balanceCents } from '../../shared/money';

export type InvoiceRow = typeof invoices.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;

/**
 * What was paid on the invoice of the row being read. The invoice's id is named with its table on
 * purpose: in a select from one table drizzle leaves columns unqualified, and a bare "id" inside the
 * subquery would be the payment's.
 */
export const paidOnInvoice = sql<string>`coalesce((select sum(p.amount_cents) from ${payments} p where p.invoice_id = ${invoices}.id), 0)`;

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

export async function paidCents(db: DbOrTx, invoiceId: string): Promise<number> {
  const [row] = await db
    .select({ paid: sql<string>`coalesce(sum(${payments.amountCents}), 0)` })
    .from(payments)
    .where(eq(payments.invoiceId, invoiceId));
  return Number(row?.paid ?? 0);
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
        and coalesce((select sum(p.amount_cents) from ${payments} p where p.invoice_id = o.id), 0)
          < o.total_cents - o.credit_cents))`;

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
export async function liveInvoiceOfJob(db: DbOrTx, jobId: string, kind: 'final' | 'deposit' = 'final') {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.jobId, jobId), eq(invoices.kind, kind), sql`${invoices.state} <> 'Void'`))
    .limit(1);
  return row;
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

/**
 * The rule of `invoiceStatusOf` as SQL, so the list filters in the database: the state decides Draft
 * and Void; a sent invoice is Paid when paid in full, else Overdue past its due date, else Partially Paid
 * or Sent. `tests/api/invoices.test.ts` checks the two agree on every status.
 */
function statusWhere(status: InvoiceStatus, today: string): SQL {
  if (status === 'Draft' || status === 'Void') return sql`${invoices.state} = ${status}`;
  const due = sql`(${invoices.totalCents} - ${invoices.creditCents})`;
  const sent = sql`${invoices.state} = 'Sent'`;
  if (status === 'Paid') return sql`${sent} and ${paidOnInvoice} >= ${due}`;
  const unpaid = sql`${sent} and ${paidOnInvoice} < ${due}`;
  const late = sql`${invoices.dueDate} is not null and ${invoices.dueDate} < ${today}::date`;
  if (status === 'Overdue') return sql`${unpaid} and ${late}`;
  return sql`${unpaid} and not (${late}) and ${paidOnInvoice} ${sql.raw(status === 'Partially Paid' ? '> 0' : '= 0')}`;
}

function filterWhere({ search, status, today }: InvoiceFilter): SQL | undefined {
  const like = search ? `%${escapeLike(search.toLowerCase())}%` : null;
  return and(
    like
      ? sql`(lower(coalesce(${invoices.number}, '')) like ${like} or lower(${invoices.clientName}) like ${like} or lower(${invoices.clientEmail}) like ${like})`
      : undefined,
    status ? statusWhere(status, today) : undefined,
  );
}

export function listInvoices(db: DbOrTx, { page, limit, ...filter }: InvoiceFilter & { page: number; limit: number }) {
  return db
    .select({
      invoice: invoices,
      paid: paidOnInvoice,
    })
    .from(invoices)
    .where(filterWhere(filter))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(limit)
    .offset((page - 1) * limit);
}

export async function countInvoices(db: DbOrTx, filter: InvoiceFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(invoices)
    .where(filterWhere(filter));
  return Number(row?.n ?? 0);
}

/**
 * The money figures of the dashboard: payments received without their share of sales tax (each payment
 * carries tax in the proportion its invoice does), all time and since `monthStart`; what sent invoices
 * still owe; how many are past their due date.
 */
export async function invoiceFigures(db: DbOrTx, today: string, monthStart: string) {
  const net = sql`${payments.amountCents} - round(${payments.amountCents}::numeric * ${invoices.taxCents} / nullif(${invoices.totalCents}, 0))`;
  const [received] = await db
    .select({
      allTime: sql<string>`coalesce(sum(${net}), 0)`,
      thisMonth: sql<string>`coalesce(sum(${net}) filter (where ${payments.paidOn} >= ${monthStart}::date), 0)`,
    })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .where(sql`${invoices.state} = 'Sent'`);
  const balance = sql`${invoices.totalCents} - ${invoices.creditCents} - ${paidOnInvoice}`;
  const [open] = await db
    .select({
      outstanding: sql<string>`coalesce(sum(${balance}), 0)`,
      overdue: sql<string>`count(*) filter (where ${invoices.dueDate} < ${today}::date and ${balance} > 0)`,
    })
    .from(invoices)
    .where(sql`${invoices.state} = 'Sent'`);
  return {
    receivedCents: Number(received?.allTime ?? 0),
    receivedThisMonthCents: Number(received?.thisMonth ?? 0),
    outstandingCents: Number(open?.outstanding ?? 0),
    overdue: Number(open?.overdue ?? 0),
  };
}

/** Every invoice with what was paid on it, oldest first (the CSV download). */
export function allInvoices(db: DbOrTx) {
  return db
    .select({
      invoice: invoices,
      paid: paidOnInvoice,
    })
    .from(invoices)
    .orderBy(asc(invoices.createdAt), asc(invoices.id));
}

/** Every payment with its invoice's number and client, in date order (the CSV download). */
export function allPayments(db: DbOrTx) {
  return db
    .select({ payment: payments, number: invoices.number, clientName: invoices.clientName })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .orderBy(asc(payments.paidOn), asc(payments.createdAt));
}
