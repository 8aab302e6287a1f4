import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../shared/schemas/errors';
import { clientAnswerInput, clientQuoteView, quoteView as quoteViewSchema } from '../../shared/schemas/quotes';
import { HttpError, notFound } from '../lib/http-errors';
import { publicFormLimit } from '../plugins/rate-limit';
import { checkClientLink } from './links';
import { findQuoteByNumber, quoteView } from './repository';
import { answerQuote, quotePdf, type OnQuoteAccepted } from './service';

const params = z.object({ quoteId: z.string().max(40) });

export interface ClientQuoteRoutesOptions {
  /** What a client's yes starts (a job): given by the app, since jobs build on quotes, not the other way. */
  onAccepted: OnQuoteAccepted;
}

/**
 * The client's side of a quote, reached from the e-mailed link. Opening it changes nothing (mail
 * scanners open links); only a POST with the signed token answers, once.
 */
export async function clientQuoteRoutes(app: FastifyInstance, options: ClientQuoteRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['client quotes'];

  async function authorizedQuote(quoteId: string, token: string | undefined) {
    const check = await checkClientLink(app, quoteId, token);
    if (check === 'expired')
      throw new HttpError(
        410,
        'This link has expired. Please contact us and we will send you a new one.',
        'LINK_EXPIRED',
      );
    if (check === 'invalid')
      throw new HttpError(
        403,
        'This link is not valid. Please use the link in your e-mail, or contact us.',
        'LINK_INVALID',
      );
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
      const { name, email, phone } = await app.settings.current();
      return { ...(await quoteView(app.db, row)), business: { name, email, phone } };
    },
  );

  r.get(
    '/client-quotes/:quoteId/pdf',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: "A client's quote as a PDF, by the signed link from the e-mail",
        params,
        querystring: z.object({ token: z.string().max(2000).optional() }),
        produces: ['application/pdf'],
        response: { 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request, reply) => {
      const row = await authorizedQuote(request.params.quoteId, request.query.token);
      const pdf = await quotePdf(app, row);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="Quote-${row.quoteId}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf as never); // Bytes as they are: no 200 schema, so nothing serializes them.
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
      const view = await answerQuote(app.db, app.config, await app.settings.current(), row, answer, options.onAccepted);
      app.mail.kick();
      return view;
    },
  );
}
