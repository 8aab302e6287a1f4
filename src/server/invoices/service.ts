import { emitWebhook } from '../webhooks';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, formatShortDay, todayIn, zonedTimeToUtc } from '#shared/dates';
import {
  balanceCents,
  depositParts,
  formatDollars,
  formatMoney,
  invoiceTotals,
  isIncluded,
  materialSubtotalCents,
  quoteBase,
  toCents,
  toDollars,
} from '#shared/money';
import type { QuoteView } from '#shared/schemas/quotes';
import {
  invoiceStatusOf,
  type InvoiceDraftInput,
  type InvoiceSummary,
  type InvoiceView,
  type PaymentInput,
} from '#shared/schemas/invoices';
import type { PaymentMethod } from '#shared/payment-methods';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { invoices, payments } from './tables';
import type { BusinessSettings } from '../lib/business';
import { isUniqueViolation } from '../lib/db-errors';
import { conflict, HttpError, notFound } from '../lib/http-errors';
import { jobExtras } from '../job-records';
import { billingOf } from '../clients';
import { findJobById, jobDetail } from '../jobs';
import { materialPrice } from '../price-book';
import { cancelMail, enqueueMail, toClient } from '../mail';
import { enqueueText } from '../texts';
import { invoiceKey, invoiceMail, overdueReminderMail, receiptMail } from './emails';
import { fingerprint, type DocumentSource } from '../documents';
import { clientInvoiceLink, staffPdfLink } from './links';
import {
  balanceOf,
  draftLines,
  findInvoice,
  invoicesCrediting,
  linesOf,
  liveInvoiceOfJob,
  nextInvoiceNumber,
  paidCents,
  paymentByProviderRef,
  paymentsOf,
  setLines,
  type InvoiceRow,
} from './repository';

type Line = { description: string; quantity: number; unitPriceCents: number; taxable: boolean };

const hundredths = (n: number) => Math.round(n * 100) / 100;

/**
 * The lines a completed job is charged: the sold quote's lines the client chose, the materials the crew
 * used beyond it (priced by the office), and the crew's time beyond the quoted hours at the quote's rate.
 */
async function linesForJob(app: FastifyInstance, jobId: string) {
  const job = await findJobById(app.db, jobId);
  if (!job) throw notFound('Job not found');
  if (job.status !== 'Completed')
    throw conflict('Only a completed job is invoiced: complete it first', 'JOB_NOT_COMPLETED');
  const { quote } = await jobDetail(app.db, job, await app.settings.today());
  const extras = await jobExtras(app.db, jobId);
  const business = await app.settings.current();
  const unpriced = extras.materials.filter((m) => m.unitPriceCents === null).map((m) => m.name);
  if (unpriced.length)
    throw conflict(`Price the materials the crew used first: ${unpriced.join(', ')}`, 'UNPRICED_MATERIALS');
  const lines: Line[] = [];
  const materials = quote?.materials.filter(isIncluded) ?? [];
  const labor = quote?.labor.filter(isIncluded) ?? [];
  for (const m of materials)
    lines.push({ description: m.name, quantity: m.quantity, unitPriceCents: toCents(m.unitPrice), taxable: m.taxable });
  // A flat-price line is billed at its price, once; an hourly one by its hours.
  for (const l of labor)
    lines.push({
      description: l.flat ? l.description || 'Labor' : `${l.description || 'Labor'} (hours)`,
      quantity: l.hours,
      unitPriceCents: toCents(l.hourlyRate),
      taxable: l.taxable,
    });
  // A material the crew added is taxed as its price book entry says, else as the Settings' default.
  for (const m of extras.materials)
    lines.push({
      description: `${m.name} (used on the job)`,
      quantity: m.quantity,
      unitPriceCents: m.unitPriceCents!,
      taxable: (await materialPrice(app.db, m.name))?.taxable ?? business.materialsTaxable,
    });
  // Time beyond the quoted hours, at the first hourly line's rate (a flat price quotes no hours).
  const hourly = labor.filter((l) => !l.flat);
  const quotedHours = hourly.reduce((sum, l) => sum + l.hours, 0);
  const extraHours = hundredths(extras.minutes / 60 - quotedHours);
  if (extraHours > 0 && hourly[0])
    lines.push({
      description: 'Time beyond the quote (hours)',
      quantity: extraHours,
      unitPriceCents: toCents(hourly[0].hourlyRate),
      taxable: hourly[0].taxable,
    });
  return { job, lines, business, taxRateBasisPoints: quote?.taxRateBasisPoints, poNumber: quote?.poNumber ?? '' };
}

/** Writes a draft's lines and its totals together. */
async function writeDraft(tx: DbOrTx, invoice: InvoiceRow, lines: Line[], fields: Partial<InvoiceRow> = {}) {
  const totals = invoiceTotals(lines, invoice.taxRateBasisPoints, invoice.creditCents);
  await setLines(tx, invoice.id, lines);
  await tx
    .update(invoices)
    .set({
      ...fields,
      subtotalCents: totals.subtotalCents,
      taxCents: totals.taxCents,
      totalCents: totals.totalCents,
      creditCents: totals.creditCents,
      updatedAt: new Date(),
    })
    .where(eq(invoices.id, invoice.id));
}

/** What a final invoice takes off for the job's deposit invoice: its whole total, once (none: nothing). */
const creditOf = (deposit: InvoiceRow | undefined) => ({ creditCents: deposit?.totalCents ?? 0 });

/** A draft invoice for a completed job (one live invoice per job). */
export async function createInvoiceForJob(app: FastifyInstance, jobId: string): Promise<string> {
  const existing = await liveInvoiceOfJob(app.db, jobId);
  if (existing)
    throw conflict(
      `This job already has an invoice${existing.number ? ` (${existing.number})` : ''}`,
      'INVOICE_EXISTS',
    );
  const { job, lines, business, taxRateBasisPoints, poNumber } = await linesForJob(app, jobId);
  const deposit = await liveInvoiceOfJob(app.db, jobId, 'deposit');
  const { billingAddress, companyName } = await billingOf(app.db, job.clientId);
  const id = newId();
  try {
    await app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(invoices)
        .values({
          id,
          jobId,
          clientId: job.clientId,
          clientName: job.contactName,
          clientEmail: job.contactEmail,
          address: `${job.street}, ${job.city}, ${job.state} ${job.zip}`,
          billingAddress,
          companyName,
          poNumber,
          taxRateBasisPoints: taxRateBasisPoints ?? business.taxRateBasisPoints,
        })
        .returning();
      // The deposit invoice is taken off whole, paid or not: the client owes it on its own invoice.
      await writeDraft(tx, { ...row!, ...creditOf(deposit) }, lines, { creditedInvoiceId: deposit?.id ?? null });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This job already has an invoice', 'INVOICE_EXISTS');
    throw error;
  }
  return id;
}

const notDraft = (row: InvoiceRow) =>
  conflict(`Invoice ${row.number ?? ''} is ${row.state}: only a draft changes`.replace('  ', ' '), 'INVOICE_NOT_DRAFT');

export async function updateDraft(app: FastifyInstance, id: string, input: InvoiceDraftInput) {
  await app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, id, { lock: true });
    if (!row) throw notFound('Invoice not found');
    if (row.state !== 'Draft') throw notDraft(row);
    const lines = input.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitPriceCents: toCents(l.unitPrice),
      taxable: l.taxable,
    }));
    const totals = invoiceTotals(lines, row.taxRateBasisPoints);
    if (totals.subtotalCents < 0)
      throw new HttpError(400, 'lines: the discounts are more than the lines', 'VALIDATION_FAILED');
    if (totals.taxableCents < 0)
      throw new HttpError(400, 'lines: the taxed discounts are more than the taxed lines', 'VALIDATION_FAILED');
    await writeDraft(tx, row, lines, {
      dueDays: input.dueDays,
      notes: input.notes,
      ...(input.poNumber === undefined ? {} : { poNumber: input.poNumber }),
    });
  });
}

/** Deletes a draft (a sent invoice is voided instead, keeping its number). */
export async function deleteDraft(app: FastifyInstance, id: string) {
  await app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, id, { lock: true });
    if (!row) throw notFound('Invoice not found');
    if (row.state !== 'Draft') throw notDraft(row);
    await tx.delete(invoices).where(eq(invoices.id, id));
  });
}

/** An invoice as the list shows it, from its row alone: no lines, payments or links are read. */
export function invoiceSummaryOf(row: InvoiceRow, today: string): InvoiceSummary {
  const due = row.totalCents - row.creditCents;
  return {
    _id: row.id,
    number: row.number,
    jobId: row.jobId,
    kind: row.kind,
    status: invoiceStatusOf(row.state, due, row.paidCents, row.dueDate, today),
    clientId: row.clientId,
    clientName: row.clientName,
    clientEmail: row.clientEmail,
    total: toDollars(row.totalCents),
    paid: toDollars(row.paidCents),
    balance: toDollars(balanceCents(due, row.paidCents)),
    issueDate: row.issueDate,
    dueDate: row.dueDate,
  };
}

/** The invoice as staff see it. */
export async function invoiceView(
  app: FastifyInstance,
  db: DbOrTx,
  row: InvoiceRow,
  timeZone: string,
): Promise<InvoiceView> {
  // One after another: `db` may be a transaction, one connection, which pg@9 refuses to give two
  // queries at once (pg 8 queues them, with a deprecation warning).
  const lines = await linesOf(db, row.id);
  const paymentRows = await paymentsOf(db, row.id);
  const credited = row.creditedInvoiceId ? await findInvoice(db, row.creditedInvoiceId) : undefined;
  const paid = paymentRows.reduce((sum, p) => sum + p.amountCents, 0);
  const due = row.totalCents - row.creditCents;
  const { taxableCents } = invoiceTotals(
    lines.map((l) => ({ unitPriceCents: l.unitPriceCents, quantity: Number(l.quantity), taxable: l.taxable })),
    row.taxRateBasisPoints,
  );
  return {
    _id: row.id,
    number: row.number,
    jobId: row.jobId,
    kind: row.kind,
    status: invoiceStatusOf(row.state, due, paid, row.dueDate, todayIn(timeZone)),
    clientId: row.clientId,
    clientName: row.clientName,
    clientEmail: row.clientEmail,
    address: row.address,
    billingAddress: row.billingAddress,
    companyName: row.companyName,
    poNumber: row.poNumber,
    lines: lines.map((l) => {
      const quantity = Number(l.quantity);
      return {
        description: l.description,
        quantity,
        unitPrice: toDollars(l.unitPriceCents),
        amount: toDollars(materialSubtotalCents({ unitPriceCents: l.unitPriceCents, quantity })),
        taxable: l.taxable,
      };
    }),
    taxRateBasisPoints: row.taxRateBasisPoints,
    subtotal: toDollars(row.subtotalCents),
    taxable: toDollars(taxableCents),
    tax: toDollars(row.taxCents),
    total: toDollars(row.totalCents),
    credit: toDollars(row.creditCents),
    creditedNumber: credited?.number ?? null,
    creditedDeposit: credited
      ? {
          _id: credited.id,
          number: credited.number,
          total: toDollars(credited.totalCents),
          balance: toDollars(await balanceOf(db, credited)),
        }
      : null,
    paid: toDollars(paid),
    balance: toDollars(balanceCents(due, paid)),
    dueDays: row.dueDays,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    notes: row.notes,
    voidReason: row.voidReason,
    payments: paymentRows.map((p) => ({
      _id: p.id,
      method: p.method,
      reference: p.reference,
      paidOn: p.paidOn,
      amount: toDollars(p.amountCents),
      note: p.note,
      online: p.provider !== null && p.amountCents > 0,
      fee: p.feeCents === null ? null : toDollars(p.feeCents),
      refundable:
        p.amountCents > 0
          ? toDollars(
              p.amountCents + paymentRows.filter((r) => r.refundOf === p.id).reduce((sum, r) => sum + r.amountCents, 0),
            )
          : 0,
    })),
    pdfUrl: row.number ? await staffPdfLink(app, row.id) : null,
  };
}

/**
 * Sends a draft: its number (the year's next, in the same transaction), the dates, and the e-mail with
 * a signed link and the PDF by reference, written together. The PDF is drawn after the commit, in the
 * PDF worker, and stored: the e-mail and the client's link carry those bytes (decision 022).
 */
export async function sendInvoice(app: FastifyInstance, id: string): Promise<InvoiceRow> {
  const business = await app.settings.current();
  const sent = await app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, id, { lock: true });
    if (!row) throw notFound('Invoice not found');
    if (row.state !== 'Draft') throw notDraft(row);
    // The deposit is taken off as it stands now (once: the job has one live bill).
    if (row.kind === 'final' && row.jobId) {
      const deposit = await liveInvoiceOfJob(tx, row.jobId, 'deposit');
      const credit = Math.min(creditOf(deposit).creditCents, row.totalCents);
      if (credit !== row.creditCents || (deposit?.id ?? null) !== row.creditedInvoiceId)
        await tx
          .update(invoices)
          .set({ creditCents: credit, creditedInvoiceId: deposit?.id ?? null })
          .where(eq(invoices.id, id));
    }
    return sendInTx(app, tx, id, business);
  });
  app.documents.soon(invoiceKey(id), (error: unknown) =>
    app.log.error({ err: error, invoiceId: id }, 'the invoice PDF could not be drawn'),
  );
  return sent;
}

/**
 * An issued invoice as a stored document: its version is a fingerprint of all it prints (the view, the
 * business's details and logo), so it is drawn again only after a change (a payment, a void).
 */
export const invoiceSource =
  (app: FastifyInstance) =>
  async (id: string): Promise<DocumentSource | undefined> => {
    const row = await findInvoice(app.db, id);
    if (!row?.number) return undefined;
    const [business, logo] = await Promise.all([app.settings.current(), app.settings.logo()]);
    const view = await invoiceView(app, app.db, row, business.timeZone);
    const { pdfUrl: _signed, ...printed } = view;
    return {
      version: fingerprint(printed, business, logo),
      filename: `${row.number}.pdf`,
      draw: () => app.documents.draw('invoice', [view, business, logo]),
    };
  };

/** Numbers a draft, dates it, and queues its e-mail (PDF and link) and its reminders, in `tx`. */
async function sendInTx(
  app: FastifyInstance,
  tx: DbOrTx,
  id: string,
  business: BusinessSettings,
  forQuote?: string,
): Promise<InvoiceRow> {
  const today = todayIn(business.timeZone);
  const number = await nextInvoiceNumber(tx, Number(today.slice(0, 4)));
  // A draft bills the client as their record stands when it goes out (an edited company or billing address).
  const [draft] = await tx.select({ clientId: invoices.clientId }).from(invoices).where(eq(invoices.id, id));
  const billTo = draft?.clientId ? await billingOf(tx, draft.clientId) : {};
  const [sent] = await tx
    .update(invoices)
    .set({ ...billTo, number, state: 'Sent', issueDate: today, sentAt: new Date(), updatedAt: new Date() })
    .where(eq(invoices.id, id))
    .returning();
  const dueDate = addDays(today, sent!.dueDays);
  await tx.update(invoices).set({ dueDate }).where(eq(invoices.id, id));
  const view = await invoiceView(app, tx, { ...sent!, dueDate }, business.timeZone);
  const link = await clientInvoiceLink(app, id);
  await enqueueMail(tx, toClient(invoiceMail(business, view, link, forQuote)));
  // A client who takes texts is told by text too, with the figure the e-mail gives (decision 045).
  if (sent!.clientId) {
    const job = sent!.jobId ? await findJobById(tx, sent!.jobId) : undefined;
    await enqueueText(tx, business, {
      clientId: sent!.clientId,
      kind: 'invoice-sent',
      about: { quoteRequestId: job?.quoteRequestId ?? null, jobId: sent!.jobId },
      body: `${business.name}: ${view.kind === 'deposit' ? 'deposit invoice' : 'invoice'} ${view.number} is ready, ${formatDollars(view.balance)} due${view.dueDate ? ` ${formatShortDay(view.dueDate).replace(/^\w+, /, '')}` : ''}. See and pay it on your page:`,
      pageLink: true,
    });
  }
  // Reminders wait in the outbox for their day (09:00 in the business's zone after the due date).
  const reminderMailIds: string[] = [];
  for (const days of business.invoiceReminderDays.slice(0, 3)) {
    const reminderId = await enqueueMail(tx, {
      ...overdueReminderMail(business, view, link),
      notBefore: zonedTimeToUtc(addDays(dueDate, days), '09:00', business.timeZone),
      clientPage: true,
    });
    if (reminderId) reminderMailIds.push(reminderId);
  }
  const [done] = await tx.update(invoices).set({ reminderMailIds }).where(eq(invoices.id, id)).returning();
  await emitWebhook(tx, 'invoice.sent', {
    invoiceId: id,
    number,
    kind: done!.kind,
    jobId: done!.jobId,
    clientName: done!.clientName,
    clientEmail: done!.clientEmail,
    issueDate: today,
    dueDate,
    totalCents: done!.totalCents,
    taxCents: done!.taxCents,
    creditCents: done!.creditCents,
    dueCents: done!.totalCents - done!.creditCents,
  });
  return done!;
}

/**
 * The deposit a quote asked, invoiced and e-mailed when the client accepts (in the acceptance's
 * transaction): one line at the quote's tax rate (`depositParts`), due at once. The final invoice takes
 * what was paid on it off its total. Returns its id (undefined when the quote asks none).
 */
export async function issueDepositInvoice(
  app: FastifyInstance,
  tx: DbOrTx,
  jobId: string,
  context: { business: BusinessSettings; logo: Buffer | undefined; accepted: QuoteView },
): Promise<string | undefined> {
  const { accepted, business } = context;
  if (!accepted.deposit || accepted.deposit.due <= 0) return undefined;
  const job = await findJobById(tx, jobId);
  if (!job) throw notFound('Job not found');
  const id = newId();
  const label =
    accepted.deposit.kind === 'percent'
      ? `Deposit for quote ${accepted.quoteId} (${accepted.deposit.value}% of ${formatDollars(accepted.totalCostAfterTax)})`
      : `Deposit for quote ${accepted.quoteId}`;
  const parts = depositParts(quoteBase(accepted), accepted.taxRateBasisPoints, accepted.deposit);
  // Its share of the work, taxed as the quote's lines are: received, it splits into revenue and tax.
  const both = parts.taxableCents > 0 && parts.exemptCents > 0;
  const lines: Line[] = [
    {
      description: both ? `${label}: taxed part` : label,
      quantity: 1,
      unitPriceCents: parts.taxableCents,
      taxable: true,
    },
    {
      description: both ? `${label}: part not taxed` : label,
      quantity: 1,
      unitPriceCents: parts.exemptCents,
      taxable: false,
    },
  ].filter((line) => line.unitPriceCents > 0);
  const [row] = await tx
    .insert(invoices)
    .values({
      id,
      jobId,
      kind: 'deposit',
      clientId: job.clientId,
      clientName: job.contactName,
      clientEmail: job.contactEmail,
      address: `${job.street}, ${job.city}, ${job.state} ${job.zip}`,
      ...(await billingOf(tx, job.clientId)),
      poNumber: accepted.poNumber,
      taxRateBasisPoints: accepted.taxRateBasisPoints,
      dueDays: 0,
    })
    .returning();
  await writeDraft(tx, row!, lines);
  await sendInTx(app, tx, id, business, accepted.quoteId);
  return id;
}

/**
 * Repeating work's invoice (issue 31, decision 047): a month of a plan or one of its visits, in `tx`,
 * numbered and e-mailed as any invoice is (with its reminders), due after the Settings' days. `sourceKey`
 * names what it bills: the same key makes nothing a second time (two servers, a retry). Answers the
 * invoice's id, new or the one made before for that key.
 */
export async function issuePlanInvoice(
  app: FastifyInstance,
  tx: DbOrTx,
  bill: { jobId: string; sourceKey: string; lines: Line[]; business: BusinessSettings },
): Promise<string> {
  const job = await findJobById(tx, bill.jobId);
  if (!job) throw notFound('Job not found');
  const [row] = await tx
    .insert(invoices)
    .values({
      id: newId(),
      jobId: bill.jobId,
      kind: 'plan',
      sourceKey: bill.sourceKey,
      clientId: job.clientId,
      clientName: job.contactName,
      clientEmail: job.contactEmail,
      address: `${job.street}, ${job.city}, ${job.state} ${job.zip}`,
      ...(await billingOf(tx, job.clientId)),
      taxRateBasisPoints: bill.business.taxRateBasisPoints,
    })
    .onConflictDoNothing({ target: invoices.sourceKey, where: sql`${invoices.sourceKey} is not null` })
    .returning();
  if (!row) {
    const [made] = await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.sourceKey, bill.sourceKey));
    return made!.id;
  }
  await writeDraft(tx, row, bill.lines);
  await sendInTx(app, tx, row.id, bill.business);
  return row.id;
}

/** A payment row's values (the invoice's own, its amount in cents; a refund is negative). */
interface NewPayment {
  method: PaymentMethod;
  reference: string;
  paidOn: string;
  amountCents: number;
  note: string;
  recordedBy: string | null;
  provider?: string;
  providerRef?: string;
  feeCents?: number | null;
  refundOf?: string;
}

/**
 * The one step every payment goes through, by hand or online, in `tx` with the invoice row locked: the
 * row, the reminders called off when paid in full, and the client's receipt.
 */
async function addPayment(
  app: FastifyInstance,
  tx: DbOrTx,
  row: InvoiceRow,
  business: BusinessSettings,
  p: NewPayment,
) {
  const paymentId = newId();
  await tx.insert(payments).values({
    id: paymentId,
    invoiceId: row.id,
    method: p.method,
    reference: p.reference,
    paidOn: p.paidOn,
    amountCents: p.amountCents,
    note: p.note,
    recordedBy: p.recordedBy,
    provider: p.provider ?? null,
    providerRef: p.providerRef ?? null,
    feeCents: p.feeCents ?? null,
    refundOf: p.refundOf ?? null,
  });
  const view = await invoiceView(app, tx, row, business.timeZone);
  // A refund is a payment of a negative amount: the same event, its amount below zero.
  await emitWebhook(tx, 'payment.recorded', {
    paymentId,
    invoiceId: row.id,
    invoiceNumber: row.number,
    jobId: row.jobId,
    clientName: row.clientName,
    method: p.method,
    paidOn: p.paidOn,
    amountCents: p.amountCents,
    refund: p.amountCents < 0,
    balanceCents: toCents(view.balance),
  });
  // Paid in full: the overdue reminders are called off.
  if (view.balance === 0) for (const mailId of row.reminderMailIds) await cancelMail(tx, mailId);
  if (view.clientEmail)
    await enqueueMail(
      tx,
      toClient(
        receiptMail(
          business,
          view,
          view.payments.find((x) => x._id === paymentId)!,
          await clientInvoiceLink(app, row.id),
        ),
      ),
    );
  return paymentId;
}

async function lockedPayable(tx: DbOrTx, id: string) {
  const row = await findInvoice(tx, id, { lock: true });
  if (!row) throw notFound('Invoice not found');
  if (row.state !== 'Sent')
    throw conflict(`A ${row.state.toLowerCase()} invoice takes no payment`, 'INVOICE_NOT_PAYABLE');
  return row;
}

/**
 * Records a payment on a sent invoice: never more than the balance (the invoice row is locked, so two
 * payments at once cannot together pay too much); the client gets a receipt.
 */
export async function recordPayment(app: FastifyInstance, id: string, input: PaymentInput, userId: string) {
  const business: BusinessSettings = await app.settings.current();
  return app.db.transaction(async (tx) => {
    const row = await lockedPayable(tx, id);
    const amountCents = toCents(input.amount);
    const balance = await balanceOf(tx, row);
    if (amountCents > balance)
      throw conflict(`This payment is more than the balance of ${formatMoney(balance)}`, 'OVERPAYMENT');
    if (input.paidOn > todayIn(business.timeZone))
      throw new HttpError(400, 'paidOn: a payment cannot be dated in the future', 'VALIDATION_FAILED');
    await addPayment(app, tx, row, business, {
      method: input.method,
      reference: input.reference ?? '',
      paidOn: input.paidOn,
      amountCents,
      note: input.note ?? '',
      recordedBy: userId,
    });
    return row;
  });
}

/** What a client owes on an invoice now, in cents, and whether it takes a payment (sent, not void). */
export async function payableBalance(app: FastifyInstance, id: string) {
  const row = await findInvoice(app.db, id);
  if (!row?.number) return undefined;
  return {
    number: row.number,
    kind: row.kind,
    clientEmail: row.clientEmail,
    payable: row.state === 'Sent',
    balanceCents: await balanceOf(app.db, row),
  };
}

export interface ProviderPayment {
  provider: string;
  /** The provider's id for the money: the idempotency of this step (a unique index). */
  providerRef: string;
  amountCents: number;
  feeCents: number | null;
}

/**
 * A payment taken online, recorded once whoever delivers it (the client's return, the reconciler, the
 * webhook; a unique index on provider and reference): exactly as one recorded by hand (receipt,
 * reminders, the deposit's job, the trail). Returns 'recorded', 'known' (already there), and how much
 * went beyond the balance ('excessCents': two clients paid at once, or a payment by hand came first),
 * which the caller gives back through the provider.
 */
export async function recordProviderPayment(
  app: FastifyInstance,
  id: string,
  payment: ProviderPayment,
  onRecorded?: (tx: DbOrTx, invoice: { id: string; number: string | null }) => Promise<void>,
): Promise<{ outcome: 'recorded' | 'known'; excessCents: number; paymentId: string | null }> {
  const business: BusinessSettings = await app.settings.current();
  try {
    return await app.db.transaction(async (tx) => {
      const row = await findInvoice(tx, id, { lock: true });
      if (!row) throw notFound('Invoice not found');
      const known = await paymentByProviderRef(tx, payment.provider, payment.providerRef);
      if (known) return { outcome: 'known' as const, excessCents: 0, paymentId: known.id };
      // Money received is recorded even on a void or paid invoice; what is beyond the balance goes back.
      const balance = row.state === 'Sent' ? await balanceOf(tx, row) : 0;
      const paymentId = await addPayment(app, tx, row, business, {
        method: 'card online',
        reference: payment.providerRef,
        paidOn: todayIn(business.timeZone),
        amountCents: payment.amountCents,
        note: '',
        recordedBy: null,
        provider: payment.provider,
        providerRef: payment.providerRef,
        feeCents: payment.feeCents,
      });
      // The trail, in the same transaction (the caller words it: invoices does not reach into audit).
      await onRecorded?.(tx, { id: row.id, number: row.number });
      return { outcome: 'recorded' as const, excessCents: Math.max(0, payment.amountCents - balance), paymentId };
    });
  } catch (error) {
    // Two deliveries at once: the second meets the unique index and finds the first's row.
    if (isUniqueViolation(error)) {
      const known = await paymentByProviderRef(app.db, payment.provider, payment.providerRef);
      return { outcome: 'known', excessCents: 0, paymentId: known?.id ?? null };
    }
    throw error;
  }
}

/** An online payment as the refund step needs it (its invoice, its reference, what is left to give back). */
export async function refundablePayment(app: FastifyInstance, invoiceId: string, paymentId: string) {
  const rows = await paymentsOf(app.db, invoiceId);
  const payment = rows.find((p) => p.id === paymentId);
  if (!payment) throw notFound('Payment not found');
  const refunded = rows.filter((p) => p.refundOf === paymentId).reduce((sum, p) => sum - p.amountCents, 0);
  return { payment, refundableCents: payment.amountCents - refunded };
}

/**
 * A refund recorded as a negative payment, once per provider refund id: the balance, the reports and a
 * receipt follow. Never more than what is left of the payment it gives back on.
 */
export async function recordRefund(
  app: FastifyInstance,
  invoiceId: string,
  refund: {
    paymentId: string;
    amountCents: number;
    provider: string | null;
    providerRef: string | null;
    userId: string | null;
    note: string;
  },
) {
  const business: BusinessSettings = await app.settings.current();
  return app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, invoiceId, { lock: true });
    if (!row) throw notFound('Invoice not found');
    if (refund.provider && refund.providerRef) {
      const known = await paymentByProviderRef(tx, refund.provider, refund.providerRef);
      if (known) return known.id;
    }
    const rows = await paymentsOf(tx, invoiceId);
    const original = rows.find((p) => p.id === refund.paymentId);
    if (!original || original.amountCents <= 0) throw notFound('Payment not found');
    const left =
      original.amountCents + rows.filter((p) => p.refundOf === original.id).reduce((s, p) => s + p.amountCents, 0);
    if (refund.amountCents <= 0 || refund.amountCents > left)
      throw conflict(`At most ${formatMoney(left)} of this payment can be refunded`, 'OVERPAYMENT');
    return addPayment(app, tx, row, business, {
      method: 'refund',
      reference: refund.providerRef ?? '',
      paidOn: todayIn(business.timeZone),
      amountCents: -refund.amountCents,
      note: refund.note,
      recordedBy: refund.userId,
      ...(refund.provider && refund.providerRef ? { provider: refund.provider, providerRef: refund.providerRef } : {}),
      refundOf: original.id,
    });
  });
}

/**
 * Voids a sent invoice with a reason; it keeps its number. One with payments is not voided, nor a deposit
 * that a sent final invoice takes off (void that one first); a draft that takes it off no longer does.
 */
export async function voidInvoice(app: FastifyInstance, id: string, reason: string) {
  return app.db.transaction(async (tx) => {
    const row = await findInvoice(tx, id, { lock: true });
    if (!row) throw notFound('Invoice not found');
    if (row.state !== 'Sent')
      throw conflict(`Only a sent invoice is voided (a draft is deleted)`, 'INVOICE_NOT_PAYABLE');
    if ((await paidCents(tx, id)) > 0)
      throw conflict('This invoice has payments: it cannot be voided', 'INVOICE_NOT_PAYABLE');
    for (const crediting of await invoicesCrediting(tx, id)) {
      if (crediting.state === 'Sent')
        throw conflict(
          `Invoice ${crediting.number} takes this deposit off: void it first, then this one`,
          'INVOICE_NOT_PAYABLE',
        );
      await writeDraft(tx, { ...crediting, creditCents: 0 }, await draftLines(tx, crediting.id), {
        creditedInvoiceId: null,
      });
    }
    for (const mailId of row.reminderMailIds) await cancelMail(tx, mailId);
    const [voided] = await tx
      .update(invoices)
      .set({ state: 'Void', voidReason: reason, updatedAt: new Date() })
      .where(eq(invoices.id, id))
      .returning();
    return voided!;
  });
}
