import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { QUOTE_STATUSES, type QuoteStatus } from '../../shared/constants';
import { canMove, QUOTE_TRANSITIONS } from '../../shared/statuses';
import { paths } from '../../shared/paths';
import type { clientAnswerInput, QuoteView, sendQuoteInput } from '../../shared/schemas/quotes';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import { quotes } from '../db/schema';
import { conflict, notFound } from '../lib/http-errors';
import { enqueueMail } from '../mail';
import type { BusinessSettings } from '../lib/business';
import { findQuoteRequestById, transitionQuoteRequest, type QuoteRequestRow } from '../quote-requests';
import { quoteAnswerNotice, quoteMail } from './emails';
import { signClientLink } from './links';
import { renderQuotePdf } from './pdf';
import { findQuoteByNumber, insertQuote, isQuoteNumber, newQuoteNumber, quoteView, type QuoteRow } from './repository';

type ClientAnswer = z.output<typeof clientAnswerInput>;

/** What a client's yes starts, in the same transaction; returns the new job's id. */
export type OnQuoteAccepted = (tx: Tx, quote: QuoteRow, request: QuoteRequestRow) => Promise<string>;

/** The statuses a quote may be in for a client's answer to move it to `to`. */
const answerableFrom = (to: QuoteStatus) => QUOTE_STATUSES.filter((from) => canMove(QUOTE_TRANSITIONS, from, to));

const NEXT: Record<ClientAnswer['action'], QuoteStatus> = {
  accept: 'Accepted',
  decline: 'Declined',
  'more-info': 'Requested More Info',
};

/**
 * The client answers a Pending quote, once: the answer, what it starts (a yes becomes a job at once,
 * through `onAccepted`) and the owner's notice are stored together or not at all.
 */
export async function answerQuote(
  db: Db,
  config: Config,
  business: BusinessSettings,
  row: QuoteRow,
  answer: ClientAnswer,
  onAccepted: OnQuoteAccepted,
): Promise<QuoteView> {
  const message =
    answer.action === 'decline'
      ? answer.reason || undefined
      : answer.action === 'more-info'
        ? answer.message
        : undefined;
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(quotes)
      .set({ status: NEXT[answer.action], clientMessage: message ?? null, answeredAt: new Date() })
      // Only from a status the workflow lets move there (shared/statuses.ts), once: the row is re-checked here.
      .where(and(eq(quotes.id, row.id), inArray(quotes.status, answerableFrom(NEXT[answer.action]))))
      .returning();
    if (!updated)
      throw conflict(
        'This quote has already been answered. Please contact us if something has changed.',
        'QUOTE_ALREADY_ANSWERED',
      );
    const stored = await quoteView(tx, updated);
    let jobId: string | undefined;
    if (answer.action === 'accept') {
      const source = await findQuoteRequestById(tx, updated.quoteRequestId);
      if (!source) throw notFound('Quote request not found');
      jobId = await onAccepted(tx, updated, source);
    }
    await enqueueMail(tx, quoteAnswerNotice(config, business, stored, answer.action, message, jobId));
    return stored;
  });
}

/** A stored quote as a PDF: its own lines, totals and tax rate, with the business's current details. */
export async function quotePdf(app: FastifyInstance, row: QuoteRow): Promise<Buffer> {
  const [view, business, logo] = await Promise.all([
    quoteView(app.db, row),
    app.settings.current(),
    app.settings.logo(),
  ]);
  return renderQuotePdf(view, business, logo);
}

/**
 * Stores the quote and e-mails it, with its PDF and the client's signed link, to the address the
 * client gave with the request (whatever the body says). Only one send wins: the request must still
 * be Accepted when it moves to Quote Sent.
 */
export async function sendQuote(
  app: FastifyInstance,
  quoteRequest: QuoteRequestRow,
  body: z.output<typeof sendQuoteInput>,
): Promise<QuoteView> {
  const wanted = body.quote?.quoteId;
  const number = isQuoteNumber(wanted) && !(await findQuoteByNumber(app.db, wanted)) ? wanted : newQuoteNumber();
  // Priced at today's rate, which the quote keeps whatever the rate becomes.
  const business = await app.settings.current();
  return app.db.transaction(async (tx) => {
    if (!(await transitionQuoteRequest(tx, quoteRequest.id, 'Accepted', 'Quote Sent')))
      throw conflict('This quote was already sent', 'QUOTE_ALREADY_SENT');
    const row = await insertQuote(tx, { ...body, quoteId: number }, business.taxRateBasisPoints);
    const stored = await quoteView(tx, row);
    const token = await signClientLink(app, stored.quoteId, business.quoteValidityDays);
    const link = `${app.config.PUBLIC_URL}${paths.clientQuote(stored.quoteId, token)}`;
    const pdf = await renderQuotePdf(stored, business, await app.settings.logo());
    await enqueueMail(tx, quoteMail(business, quoteRequest.contactEmail, stored, link, pdf));
    return stored;
  });
}
