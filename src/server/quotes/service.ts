import { emitWebhook } from '../webhooks';
import { toCents } from '#shared/money';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { QUOTE_STATUSES, type QuoteStatus } from '#shared/constants';
import { addDays, todayIn } from '#shared/dates';
import { canMove, QUOTE_TRANSITIONS, REVISABLE_QUOTE_STATUSES } from '#shared/statuses';
import type { clientAnswerInput, QuoteView, sendQuoteInput } from '#shared/schemas/quotes';
import { cancelReminders, hasActivitySince, recordActivity, sentReminderDays } from '../activity';
import type { Db, Tx } from '../db/client';
import { quotes } from './tables';
import type { BusinessSettings } from '../lib/business';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-errors';
import { enqueueText } from '../texts';
import { enqueueMail, type OutgoingMail, toClient } from '../mail';
import { findQuoteRequestById, setQuoteStatus, transitionQuoteRequest, type QuoteRequestRow } from '../quote-requests';
import { quoteAcceptedMail, quoteAnswerNotice, quoteKey, quoteMail, quoteReminderMail, quoteReplyMail } from './emails';
import { fingerprint, type DocumentSource } from '../documents';
import { billingOf } from '../clients';
import { clientQuoteLink } from './links';
import {
  findQuoteByNumber,
  findQuoteByRequest,
  insertQuote,
  isExpired,
  isFirstQuoteNumber,
  newQuoteNumber,
  nextVersionOf,
  quoteView,
  storeSelection,
  type QuoteBillTo,
  type QuoteIdentity,
  type QuoteRow,
} from './repository';

type ClientAnswer = z.output<typeof clientAnswerInput>;
type QuoteBody = z.output<typeof sendQuoteInput>;

/**
 * What a client's yes sets off beyond the quote (the job, a deposit invoice), in the acceptance's
 * transaction. `accepted` is the quote as accepted (the chosen lines' totals); the business and its logo
 * were read before the transaction (PGlite has one connection). Returns the new job's id and the
 * client's deposit invoice's id, null without one.
 */
export type OnQuoteAccepted = (
  tx: Tx,
  quote: QuoteRow,
  request: QuoteRequestRow,
  context: { business: BusinessSettings; logo: Buffer | undefined; accepted: QuoteView },
) => Promise<{ jobId: string; depositInvoiceId: string | null }>;

/** The statuses a quote may be in for a move to `to`. */
const movableFrom = (to: QuoteStatus) => QUOTE_STATUSES.filter((from) => canMove(QUOTE_TRANSITIONS, from, to));

const NEXT: Record<ClientAnswer['action'], QuoteStatus> = {
  accept: 'Accepted',
  decline: 'Declined',
  'more-info': 'Requested More Info',
};

/** Today in the business's zone: what valid-until dates are compared with. */
export const businessToday = (business: BusinessSettings) => todayIn(business.timeZone);

/** A valid-until date the owner chose (today at the earliest, a year at most), or the settings' default. */
function validUntilOf(business: BusinessSettings, wanted: string | undefined): string {
  const today = businessToday(business);
  if (!wanted) return addDays(today, business.quoteValidityDays);
  if (wanted < today) throw badRequest('validUntil: must be today or later');
  if (wanted > addDays(today, 365)) throw badRequest('validUntil: must be within a year');
  return wanted;
}

export const viewOf = (app: FastifyInstance, db: Db | Tx, row: QuoteRow, business: BusinessSettings) =>
  quoteView(db, row, businessToday(business));

/** The number and dates a new first quote gets (the number the draft showed, if still free). */
export async function firstIdentity(
  app: FastifyInstance,
  business: BusinessSettings,
  wantedNumber: string | undefined,
  validUntil: string | undefined,
  billTo: QuoteBillTo,
): Promise<QuoteIdentity> {
  let quoteNumber =
    isFirstQuoteNumber(wantedNumber) && !(await findQuoteByNumber(app.db, wantedNumber))
      ? wantedNumber
      : newQuoteNumber();
  while (await findQuoteByNumber(app.db, quoteNumber)) quoteNumber = newQuoteNumber();
  return {
    quoteNumber,
    version: 1,
    validUntil: validUntilOf(business, validUntil),
    taxRateBasisPoints: business.taxRateBasisPoints,
    taxDefaults: { material: business.materialsTaxable, labor: business.laborTaxable },
    billTo,
  };
}

/** The number and dates the next version of a request's quote gets. */
export function revisionIdentity(
  current: QuoteRow,
  business: BusinessSettings,
  validUntil: string | undefined,
  billTo: QuoteBillTo,
): QuoteIdentity {
  return {
    ...nextVersionOf(current),
    validUntil: validUntilOf(business, validUntil),
    taxRateBasisPoints: business.taxRateBasisPoints,
    taxDefaults: { material: business.materialsTaxable, labor: business.laborTaxable },
    billTo,
  };
}

/**
 * Who a request's quote is for beyond the name: the client's company and billing address as their record
 * has them now, and the property the request is for. Kept on the quote when it is sent.
 */
export async function billToOf(db: Db | Tx, request: QuoteRequestRow): Promise<QuoteBillTo> {
  const { billingAddress, companyName } = await billingOf(db, request.clientId);
  return {
    companyName,
    billingAddress,
    serviceAddress: `${request.street}, ${request.city}, ${request.state} ${request.zip}`,
  };
}

/** A request's current quote, if it may still be revised (409 otherwise). */
export async function revisableQuote(db: Db, quoteRequestId: string): Promise<QuoteRow> {
  const current = await findQuoteByRequest(db, quoteRequestId);
  if (!current) throw notFound('No quote has been sent for this request');
  if (!(REVISABLE_QUOTE_STATUSES as readonly string[]).includes(current.status))
    throw conflict('This quote was accepted: it can no longer be revised', 'QUOTE_NOT_REVISABLE');
  return current;
}

/**
 * Stores a quote version and e-mails it (with its PDF and the client's signed link) to the address
 * the client gave with the request, schedules the reminders, and records it in the timeline.
 */
async function storeAndSend(
  app: FastifyInstance,
  tx: Tx,
  business: BusinessSettings,
  quoteRequest: QuoteRequestRow,
  body: QuoteBody,
  identity: QuoteIdentity,
  userId: string | undefined,
): Promise<QuoteView> {
  const row = await insertQuote(tx, body, identity);
  const stored = await quoteView(tx, row, businessToday(business));
  const link = await clientQuoteLink(app, stored.quoteId, stored.validUntil);
  const mailId = await enqueueMail(tx, toClient(quoteMail(business, quoteRequest.contactEmail, stored, link)));
  // A document goes by e-mail (its PDF and link); a client who takes texts is told by text too (decision 045).
  if (quoteRequest.clientId)
    await enqueueText(tx, business, {
      clientId: quoteRequest.clientId,
      kind: 'quote-sent',
      about: { quoteRequestId: quoteRequest.id },
      body: `${business.name}: your ${identity.version > 1 ? 'updated ' : ''}quote ${stored.quoteId} is ready. See it and answer on your page:`,
      pageLink: true,
    });
  await setQuoteStatus(tx, quoteRequest.id, 'Pending');
  await recordActivity(tx, {
    quoteRequestId: quoteRequest.id,
    kind: identity.version === 1 ? 'quote-sent' : 'quote-revised',
    actor: 'staff',
    userId,
    quoteNumber: stored.quoteId,
    details: { total: stored.totalCostAfterTax, validUntil: stored.validUntil },
    mailId,
  });
  await scheduleReminders(tx, business, quoteRequest, stored, link);
  return stored;
}

/**
 * Reminders for an unanswered quote, in the outbox with a "not before" time: one for each of the
 * settings' days that falls before the quote expires, counted from now (its sending, or the owner's
 * answer to a question, which resumes those not yet sent: `alreadySent`). Any client's answer, revision
 * or acceptance calls them off (cancelReminders); the relay sends each once, whichever process claims it.
 */
async function scheduleReminders(
  tx: Tx,
  business: BusinessSettings,
  quoteRequest: QuoteRequestRow,
  quote: QuoteView,
  link: string,
  alreadySent: readonly number[] = [],
): Promise<void> {
  const from = new Date();
  for (const days of business.quoteReminderDays.slice(0, 2)) {
    if (alreadySent.includes(days)) continue;
    const due = new Date(from.getTime() + days * 86_400_000);
    if (todayIn(business.timeZone, due) > quote.validUntil) continue;
    const mailId = await enqueueMail(tx, {
      ...quoteReminderMail(business, quoteRequest.contactEmail, quote, link),
      notBefore: due,
      clientPage: true,
    });
    // A client without an e-mail gets no reminder: none is shown waiting.
    if (!mailId) continue;
    await recordActivity(tx, {
      quoteRequestId: quoteRequest.id,
      kind: 'reminder',
      actor: 'system',
      quoteNumber: quote.quoteId,
      details: { due: due.toISOString(), afterDays: days },
      mailId,
    });
  }
}

/** The first quote for an Accepted request; only one send wins (the request moves to Quote Sent). */
export async function sendQuote(
  app: FastifyInstance,
  quoteRequest: QuoteRequestRow,
  body: QuoteBody,
  userId: string | undefined,
): Promise<QuoteView> {
  // Priced at today's rate, which the quote keeps whatever the rate becomes.
  const business = await app.settings.current();
  const identity = await firstIdentity(
    app,
    business,
    body.quote?.quoteId,
    body.validUntil,
    await billToOf(app.db, quoteRequest),
  );
  const sent = await app.db.transaction(async (tx) => {
    if (!(await transitionQuoteRequest(tx, quoteRequest.id, 'Accepted', 'Quote Sent')))
      throw conflict('This quote was already sent', 'QUOTE_ALREADY_SENT');
    return storeAndSend(app, tx, business, quoteRequest, body, identity, userId);
  });
  drawSoon(app, sent.quoteId);
  return sent;
}

/**
 * A new version of a sent quote (after a question, a decline, or anytime before acceptance): the
 * current version is marked replaced in the same transaction, so two revisions cannot both win
 * and an acceptance racing it either lands first (and the revision is refused) or finds it replaced.
 */
export async function reviseQuote(
  app: FastifyInstance,
  quoteRequest: QuoteRequestRow,
  body: QuoteBody,
  userId: string | undefined,
): Promise<QuoteView> {
  const business = await app.settings.current();
  const current = await revisableQuote(app.db, quoteRequest.id);
  const identity = revisionIdentity(current, business, body.validUntil, await billToOf(app.db, quoteRequest));
  const revised = await app.db.transaction(async (tx) => {
    const [replaced] = await tx
      .update(quotes)
      .set({ replacedAt: new Date() })
      .where(
        and(
          eq(quotes.id, current.id),
          isNull(quotes.replacedAt),
          inArray(quotes.status, [...REVISABLE_QUOTE_STATUSES]),
        ),
      )
      .returning();
    if (!replaced)
      throw conflict('This quote changed meanwhile (accepted or revised): reload the page', 'QUOTE_NOT_REVISABLE');
    await cancelReminders(tx, quoteRequest.id);
    return storeAndSend(app, tx, business, quoteRequest, body, identity, userId);
  });
  drawSoon(app, revised.quoteId);
  return revised;
}

/** The client's answer may not be taken: replaced by a newer version, or past its valid-until date. */
function refuseStale(row: QuoteRow, business: BusinessSettings) {
  if (row.replacedAt)
    throw conflict(
      'This quote was replaced by a newer version. Please open the newest one to answer.',
      'QUOTE_REPLACED',
    );
  if (isExpired(row, businessToday(business)))
    throw new HttpError(
      410,
      'This quote has expired. You can ask us for an updated quote on its page.',
      'QUOTE_EXPIRED',
    );
}

/** The owner's notice of what a client did: a reply to it goes to that client. */
async function enqueueNotice(tx: Tx, quoteRequestId: string, notice: OutgoingMail): Promise<string | null> {
  const client = await findQuoteRequestById(tx, quoteRequestId);
  return enqueueMail(tx, client ? { ...notice, replyTo: client.contactEmail } : notice);
}

/**
 * The client answers the current version: a question keeps it open; a yes (with the typed name, the
 * chosen options and the network address) becomes a job at once, through `onAccepted`; a no is
 * final for this version. The answer, its timeline entry and its e-mails commit together. After a yes,
 * also the client's deposit invoice's id (null without a deposit, and after any other answer).
 */
export async function answerQuote(
  app: FastifyInstance,
  row: QuoteRow,
  answer: ClientAnswer,
  clientIp: string,
  onAccepted: OnQuoteAccepted,
): Promise<{ quote: QuoteView; depositInvoiceId: string | null }> {
  const business = await app.settings.current();
  refuseStale(row, business);
  const message =
    answer.action === 'decline'
      ? answer.reason || undefined
      : answer.action === 'more-info'
        ? answer.message
        : undefined;
  const accepting = answer.action === 'accept' ? answer : undefined;
  const logo = accepting ? await app.settings.logo() : undefined;
  const result = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(quotes)
      .set({
        status: NEXT[answer.action],
        clientMessage: message ?? null,
        answeredAt: new Date(),
        ...(accepting ? { acceptedName: accepting.signatureName, acceptedIp: clientIp } : {}),
      })
      // Only the current version, from a status the workflow lets move there: re-checked on the row.
      .where(
        and(eq(quotes.id, row.id), isNull(quotes.replacedAt), inArray(quotes.status, movableFrom(NEXT[answer.action]))),
      )
      .returning();
    if (!updated)
      throw conflict(
        'This quote has already been answered. Please contact us if something has changed.',
        'QUOTE_ALREADY_ANSWERED',
      );
    if (accepting) await storeSelection(tx, updated.id, accepting.selection);
    // The stored totals become those of what the client chose.
    let stored = await quoteView(tx, updated, businessToday(business));
    if (accepting) {
      const [repriced] = await tx
        .update(quotes)
        .set({
          subtotalCents: Math.round(stored.totalCostBeforeTax * 100),
          taxCents: Math.round(stored.taxCost * 100),
          totalCents: Math.round(stored.totalCostAfterTax * 100),
        })
        .where(eq(quotes.id, updated.id))
        .returning();
      stored = await quoteView(tx, repriced!, businessToday(business));
    }
    await cancelReminders(tx, row.quoteRequestId);
    await setQuoteStatus(tx, row.quoteRequestId, updated.status);
    const kind = { accept: 'quote-accepted', decline: 'quote-declined', 'more-info': 'question' } as const;
    let clientMailId: string | null | undefined;
    let jobId: string | undefined;
    let depositInvoiceId: string | null = null;
    if (accepting) {
      const source = await findQuoteRequestById(tx, updated.quoteRequestId);
      if (!source) throw notFound('Quote request not found');
      ({ jobId, depositInvoiceId } = await onAccepted(tx, updated, source, { business, logo, accepted: stored }));
      clientMailId = await enqueueMail(tx, toClient(quoteAcceptedMail(business, source.contactEmail, stored)));
      await emitWebhook(tx, 'quote.accepted', {
        quoteNumber: row.quoteNumber,
        quoteRequestId: row.quoteRequestId,
        jobId,
        depositInvoiceId,
        clientName: source.contactName,
        signatureName: accepting.signatureName,
        totalCents: toCents(stored.totalCostAfterTax),
      });
    }
    const notice = await enqueueNotice(
      tx,
      row.quoteRequestId,
      quoteAnswerNotice(app.config, business, stored, answer.action, message, jobId),
    );
    await recordActivity(tx, {
      quoteRequestId: row.quoteRequestId,
      kind: kind[answer.action],
      actor: 'client',
      quoteNumber: row.quoteNumber,
      message: message ?? null,
      details: accepting
        ? { signatureName: accepting.signatureName, ip: clientIp, total: stored.totalCostAfterTax }
        : {},
      mailId: clientMailId ?? notice,
    });
    if (jobId)
      await recordActivity(tx, {
        quoteRequestId: row.quoteRequestId,
        kind: 'job-created',
        actor: 'system',
        quoteNumber: row.quoteNumber,
        details: { jobId },
      });
    return { quote: stored, depositInvoiceId };
  });
  if (accepting) drawSoon(app, row.quoteNumber);
  return result;
}

/**
 * The owner answers the client's question: e-mailed with a fresh link, kept in the timeline; the quote
 * awaits the client again, its reminders resumed from the answer.
 */
export async function replyToQuestion(
  app: FastifyInstance,
  row: QuoteRow,
  message: string,
  userId: string | undefined,
): Promise<QuoteView> {
  const business = await app.settings.current();
  const request = await findQuoteRequestById(app.db, row.quoteRequestId);
  if (!request) throw notFound('Quote request not found');
  const result = await app.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(quotes)
      .set({ status: 'Pending' })
      .where(and(eq(quotes.id, row.id), isNull(quotes.replacedAt), eq(quotes.status, 'Requested More Info')))
      .returning();
    if (!updated) throw conflict('There is no open question on this quote', 'NO_QUESTION');
    const stored = await quoteView(tx, updated, businessToday(business));
    const link = await clientQuoteLink(app, stored.quoteId, stored.validUntil);
    const mailId = await enqueueMail(
      tx,
      toClient(quoteReplyMail(business, request.contactEmail, stored, message, link)),
    );
    await setQuoteStatus(tx, request.id, 'Pending');
    await recordActivity(tx, {
      quoteRequestId: request.id,
      kind: 'answer',
      actor: 'staff',
      userId,
      quoteNumber: stored.quoteId,
      message,
      mailId,
    });
    // The quote awaits the client again, and so do its reminders (the question called them off).
    await scheduleReminders(
      tx,
      business,
      request,
      stored,
      link,
      await sentReminderDays(tx, request.id, stored.quoteId),
    );
    return stored;
  });
  return result;
}

/** The client first opens the quote's page: noted once (a later visit changes nothing). */
export async function noteOpened(db: Db, row: QuoteRow): Promise<void> {
  if (row.openedAt) return;
  await db.transaction(async (tx) => {
    const [first] = await tx
      .update(quotes)
      .set({ openedAt: new Date() })
      .where(and(eq(quotes.id, row.id), isNull(quotes.openedAt)))
      .returning({ id: quotes.id });
    if (first)
      await recordActivity(tx, {
        quoteRequestId: row.quoteRequestId,
        kind: 'quote-opened',
        actor: 'client',
        quoteNumber: row.quoteNumber,
      });
  });
}

/**
 * An expired quote's client asks for an updated one: the owner is told once per version (a second
 * press answers the same without another e-mail).
 */
export async function requestUpdatedQuote(app: FastifyInstance, row: QuoteRow): Promise<{ alreadyAsked: boolean }> {
  const business = await app.settings.current();
  if (row.replacedAt)
    throw conflict('This quote was replaced by a newer version. Please open the newest one.', 'QUOTE_REPLACED');
  if (!isExpired(row, businessToday(business)))
    throw conflict('This quote is still open: you can answer it on its page', 'CONFLICT');
  const alreadyAsked = await app.db.transaction(async (tx) => {
    // Locks the quote row, so two presses at once send one notice.
    await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.id, row.id)).for('update');
    if (await hasActivitySince(tx, row.quoteRequestId, 'update-requested', row.quoteDate)) return true;
    const stored = await quoteView(tx, row, businessToday(business));
    const mailId = await enqueueNotice(
      tx,
      row.quoteRequestId,
      quoteAnswerNotice(app.config, business, stored, 'update-request', undefined),
    );
    await recordActivity(tx, {
      quoteRequestId: row.quoteRequestId,
      kind: 'update-requested',
      actor: 'client',
      quoteNumber: row.quoteNumber,
      mailId,
    });
    return false;
  });
  return { alreadyAsked };
}

/**
 * A quote version as a stored document: its version is a fingerprint of all it prints (the stored quote,
 * the business's details and logo), so it is drawn again only after a change (its acceptance).
 */
export const quoteSource =
  (app: FastifyInstance) =>
  async (quoteId: string): Promise<DocumentSource | undefined> => {
    const row = await findQuoteByNumber(app.db, quoteId);
    if (!row) return undefined;
    const [business, logo] = await Promise.all([app.settings.current(), app.settings.logo()]);
    const view = await quoteView(app.db, row, businessToday(business));
    // When the client opened it, and from where they accepted, are not printed.
    const { openedAt: _opened, acceptedIp: _ip, internalNotes: _office, ...printed } = view;
    return {
      version: fingerprint(printed, business, logo),
      filename: `Quote-${row.quoteNumber}.pdf`,
      draw: () => app.documents.draw('quote', [view, business, logo]),
    };
  };

/** Draws a quote's PDF after the commit, in the worker: the relay and the client's link find it stored. */
function drawSoon(app: FastifyInstance, quoteId: string) {
  app.documents.soon(quoteKey(quoteId), (error: unknown) =>
    app.log.error({ err: error, quoteId }, 'the quote PDF could not be drawn'),
  );
}

/** A stored quote's PDF, as e-mailed (drawn in the worker only when it changed). */
export async function quotePdf(app: FastifyInstance, row: QuoteRow): Promise<Buffer> {
  const document = await app.documents.current(quoteKey(row.quoteNumber));
  if (!document) throw notFound('Quote not found');
  return document.bytes;
}
