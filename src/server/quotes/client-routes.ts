import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  clientAnswerInput,
  clientAnswerResult,
  clientQuoteView,
  requestUpdateInput,
  updateRequested,
} from '#shared/schemas/quotes';
import { hasActivitySince } from '../activity';
import { notFound } from '../lib/http-errors';
import { documentLimit, publicFormLimit } from '../plugins/rate-limit';
import { checkClientLink, clientQuoteLink, clientQuotePdfPath } from './links';
import { findQuoteByNumber, findQuoteByRequest } from './repository';
import {
  answerQuote,
  noteOpened,
  quotePdf,
  quoteSource,
  requestUpdatedQuote,
  viewOf,
  type OnQuoteAccepted,
} from './service';

const params = z.object({ quoteId: z.string().max(40) });

export interface ClientQuoteRoutesOptions {
  /** What a client's yes starts (a job): given by the app, since jobs build on quotes, not the other way. */
  onAccepted: OnQuoteAccepted;
  /** Whether a deposit can be paid online (decision 035): the accept button says "Accept and pay the deposit". */
  depositPaysOnline: () => Promise<boolean>;
  /** The deposit invoice's page and, when it can be paid online now, where its checkout starts. */
  depositDocuments: (invoiceId: string) => Promise<{ page: string; checkout: string | null }>;
}

/**
 * The client's side of a quote, reached from the e-mailed link, which is signed for one version.
 * Reading it changes nothing: a mail scanner or a browser's prefetch fetches the page (and the server
 * renders it with its data), so the first visit is noted by the page itself once it runs in the
 * client's browser (POST …/opened). Only a POST with the signed token answers.
 */
export async function clientQuoteRoutes(app: FastifyInstance, options: ClientQuoteRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['client quotes'];
  app.documents.register('quote', quoteSource(app));

  async function authorizedQuote(quoteId: string, token: string | undefined) {
    await checkClientLink(app, quoteId, token);
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
        summary: "A client's quote, by the signed link from the e-mail (a replaced one names its newer version)",
        params,
        querystring: z.object({ token: z.string().max(2000).optional() }),
        response: { 200: clientQuoteView, 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request) => {
      const row = await authorizedQuote(request.params.quoteId, request.query.token);
      const business = await app.settings.current();
      // The holder of an old version's link may follow it to the newest version, and to nothing else.
      const newest = row.replacedAt ? await findQuoteByRequest(app.db, row.quoteRequestId) : undefined;
      // No internal ids, no network address, no "opened" for the client (the response schema drops them too).
      const {
        _id: _internal,
        quoteRequestId: _request,
        acceptedIp: _ip,
        openedAt: _opened,
        internalNotes: _office,
        ...view
      } = await viewOf(app, app.db, row, business);
      return {
        ...view,
        business: { name: business.name, email: business.email, phone: business.phone },
        depositOnline: view.deposit !== null && (await options.depositPaysOnline()),
        replacedBy: newest
          ? { quoteId: newest.quoteNumber, link: await clientQuoteLink(app, newest.quoteNumber, newest.validUntil) }
          : null,
        updateRequested:
          view.expired && (await hasActivitySince(app.db, row.quoteRequestId, 'update-requested', row.quoteDate)),
      };
    },
  );

  r.get(
    '/client-quotes/:quoteId/pdf',
    {
      config: { access: 'public', ...documentLimit },
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
        .header('content-disposition', `attachment; filename="Quote-${row.quoteNumber}.pdf"`)
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
        summary:
          'The client accepts (with their typed name and chosen options), declines, or asks a question; a yes answers with the signed PDF’s and the deposit invoice’s addresses',
        params,
        body: clientAnswerInput,
        response: {
          200: clientAnswerResult,
          400: errorResponse,
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
      const { quote, depositInvoiceId } = await answerQuote(app, row, answer, request.ip, options.onAccepted);
      const { internalNotes: _office, ...forClient } = quote;
      // Read after the acceptance committed: the deposit invoice is there to be paid.
      const deposit = depositInvoiceId ? await options.depositDocuments(depositInvoiceId) : null;
      return {
        ...forClient,
        documents:
          answer.action === 'accept'
            ? {
                signedQuotePdf: clientQuotePdfPath(row.quoteNumber, answer.token),
                depositInvoice: deposit?.page ?? null,
                depositCheckout: deposit?.checkout ?? null,
              }
            : null,
      };
    },
  );

  r.post(
    '/client-quotes/:quoteId/opened',
    {
      // A page that opens the quote sends this once; more than that from one address is not a person.
      config: { access: 'public', rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'The quote page, now running in the client’s browser, notes the first opening (once)',
        params,
        body: requestUpdateInput,
        response: { 204: z.null(), 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request, reply) => {
      const row = await authorizedQuote(request.params.quoteId, request.body.token);
      if (!row.replacedAt) await noteOpened(app.db, row);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/client-quotes/:quoteId/request-update',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'The client of an expired quote asks for an updated one (the owner is told once)',
        params,
        body: requestUpdateInput,
        response: {
          200: updateRequested,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          410: errorResponse,
        },
      },
    },
    async (request) => {
      const row = await authorizedQuote(request.params.quoteId, request.body.token);
      return requestUpdatedQuote(app, row);
    },
  );
}
