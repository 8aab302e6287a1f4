import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paths } from '../../shared/paths';
import { errorResponse } from '../../shared/schemas/errors';
import { createQuoteInput, quoteDraft, quoteView, sendQuoteInput } from '../../shared/schemas/quotes';
import { enqueueMail } from '../mail/outbox';
import { conflict, notFound } from '../plugins/errors';
import { businessOf } from '../lib/business';
import { findQuoteRequestById, transitionQuoteRequest } from '../quote-requests/repository';
import { quoteMail } from './emails';
import { signClientLink } from './links';
import { renderQuotePdf } from './pdf';
import {
  draftOf,
  findQuoteByNumber,
  findQuoteByRequest,
  insertQuote,
  isQuoteNumber,
  newQuoteNumber,
  quoteView as loadQuoteView,
} from './repository';

/** Building and sending quotes: admins only. */
export async function quoteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quotes'];
  const admin = { access: 'admin' as const };

  async function requireAccepted(quoteRequestId: string) {
    const request = await findQuoteRequestById(app.db, quoteRequestId);
    if (!request) throw notFound('Quote request not found');
    if (request.status !== 'Accepted')
      throw conflict(`This request is ${request.status}: a quote can be sent only for an Accepted request`);
    return request;
  }

  r.post(
    '/quotes/createNew',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A draft quote: its number and totals (nothing is stored or sent)',
        body: createQuoteInput,
        response: { 200: quoteDraft, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      await requireAccepted(request.body.quoteRequestId);
      let number = newQuoteNumber();
      while (await findQuoteByNumber(app.db, number)) number = newQuoteNumber();
      return draftOf(request.body, number);
    },
  );

  r.post(
    '/quotes/sendQuote',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Store the quote and e-mail it (with a PDF) to the client; the request becomes Quote Sent',
        body: sendQuoteInput,
        response: { 201: quoteView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const quoteRequest = await requireAccepted(body.quoteRequestId);
      const wanted = body.quote?.quoteId;
      const number = isQuoteNumber(wanted) && !(await findQuoteByNumber(app.db, wanted)) ? wanted : newQuoteNumber();
      const view = await app.db.transaction(async (tx) => {
        // Only one send wins: the request must still be Accepted when it moves to Quote Sent.
        if (!(await transitionQuoteRequest(tx, quoteRequest.id, 'Accepted', 'Quote Sent')))
          throw conflict('This quote was already sent');
        const row = await insertQuote(tx, { ...body, quoteId: number });
        const stored = await loadQuoteView(tx, row);
        const link = `${app.config.PUBLIC_URL}${paths.clientQuote(stored.quoteId, await signClientLink(app, stored.quoteId))}`;
        const pdf = await renderQuotePdf(stored, businessOf(app.config));
        // The quote goes to the address the client gave with the request, whatever the body says.
        await enqueueMail(tx, quoteMail(app.config, quoteRequest.contactEmail, stored, link, pdf));
        return stored;
      });
      app.quoteStatus.forget(quoteRequest);
      app.mail.kick();
      return reply.code(201).send(view);
    },
  );

  r.get(
    '/quotes/by-quote-request/:quoteRequestId',
    {
      config: admin,
      schema: {
        tags,
        summary: 'The quote sent for a request',
        params: z.object({ quoteRequestId: z.string().max(64) }),
        response: { 200: quoteView, 404: errorResponse },
      },
    },
    async (request) => {
      const row = await findQuoteByRequest(app.db, request.params.quoteRequestId);
      if (!row) throw notFound('No quote has been sent for this request');
      return loadQuoteView(app.db, row);
    },
  );

  r.get(
    '/quotes/:quoteId',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A quote by its number',
        params: z.object({ quoteId: z.string().max(40) }),
        response: { 200: quoteView, 404: errorResponse },
      },
    },
    async (request) => {
      const row = await findQuoteByNumber(app.db, request.params.quoteId);
      if (!row) throw notFound('Quote not found');
      return loadQuoteView(app.db, row);
    },
  );
}
