import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../shared/schemas/errors';
import { createQuoteInput, quoteDraft, quoteView, sendQuoteInput } from '../../shared/schemas/quotes';
import { conflict, notFound } from '../lib/http-errors';
import { findQuoteRequestById } from '../quote-requests';
import { sendQuote } from './service';
import {
  draftOf,
  findQuoteByNumber,
  findQuoteByRequest,
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
      throw conflict(
        `This request is ${request.status}: a quote can be sent only for an Accepted request`,
        'REQUEST_NOT_PENDING',
      );
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
      return draftOf(request.body, number, (await app.settings.current()).taxRateBasisPoints);
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
      const view = await sendQuote(app, quoteRequest, body);
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
