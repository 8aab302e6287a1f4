import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { QuoteStatus } from '../../shared/constants';
import { errorResponse } from '../../shared/schemas/errors';
import { clientAnswerInput, clientQuoteView, quoteView as quoteViewSchema } from '../../shared/schemas/quotes';
import { newId } from '../db/ids';
import { jobs, quotes } from '../db/schema';
import { enqueueMail } from '../mail/outbox';
import { conflict, HttpError, notFound } from '../plugins/errors';
import { publicFormLimit } from '../plugins/rate-limit';
import { businessOf } from '../lib/business';
import { findQuoteRequestById } from '../quote-requests/repository';
import { quoteAnswerNotice } from './emails';
import { checkClientLink } from './links';
import { findQuoteByNumber, quoteView } from './repository';

const params = z.object({ quoteId: z.string().max(40) });
const NEXT: Record<z.infer<typeof clientAnswerInput>['action'], QuoteStatus> = {
  accept: 'Accepted',
  decline: 'Declined',
  'more-info': 'Requested More Info',
};

/**
 * The client's side of a quote, reached from the e-mailed link. Opening it changes nothing (mail
 * scanners open links); only a POST with the signed token answers, once.
 */
export async function clientQuoteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['client quotes'];

  async function authorizedQuote(quoteId: string, token: string | undefined) {
    const check = await checkClientLink(app, quoteId, token);
    if (check === 'expired')
      throw new HttpError(410, 'This link has expired. Please contact us and we will send you a new one.');
    if (check === 'invalid')
      throw new HttpError(403, 'This link is not valid. Please use the link in your e-mail, or contact us.');
    const row = await findQuoteByNumber(app.db, quoteId);
    if (!row) throw notFound('Quote not found');
    return row;
  }

  r.get(
    '/client-quotes/:quoteId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A client's quote, by the signed link from the e-mail",
        params,
        querystring: z.object({ token: z.string().max(2000).optional() }),
        response: { 200: clientQuoteView, 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request) => {
      const row = await authorizedQuote(request.params.quoteId, request.query.token);
      return { ...(await quoteView(app.db, row)), business: businessOf(app.config) };
    },
  );

  r.post(
    '/client-quotes/:quoteId/answer',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'The client accepts, declines, or asks for more information (once)',
        params,
        body: clientAnswerInput,
        response: {
          200: quoteViewSchema,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          410: errorResponse,
        },
      },
    },
    async (request) => {
      const answer = request.body;
      const row = await authorizedQuote(request.params.quoteId, answer.token);
      const message =
        answer.action === 'decline'
          ? answer.reason || undefined
          : answer.action === 'more-info'
            ? answer.message
            : undefined;
      const view = await app.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(quotes)
          .set({ status: NEXT[answer.action], clientMessage: message ?? null, answeredAt: new Date() })
          .where(and(eq(quotes.id, row.id), eq(quotes.status, 'Pending')))
          .returning();
        if (!updated)
          throw conflict('This quote has already been answered. Please contact us if something has changed.');
        const stored = await quoteView(tx, updated);
        let jobId: string | undefined;
        if (answer.action === 'accept') {
          // The yes becomes a job at once, with the request's contact and address.
          const source = await findQuoteRequestById(tx, updated.quoteRequestId);
          if (!source) throw notFound('Quote request not found');
          jobId = newId();
          await tx.insert(jobs).values({
            id: jobId,
            quoteId: updated.id,
            quoteRequestId: source.id,
            contactName: source.contactName,
            contactEmail: source.contactEmail,
            contactPhone: source.contactPhone,
            street: source.street,
            city: source.city,
            state: source.state,
            zip: source.zip,
            notes: source.notes,
          });
        }
        await enqueueMail(tx, quoteAnswerNotice(app.config, stored, answer.action, message, jobId));
        return stored;
      });
      app.mail.kick();
      return view;
    },
  );
}
