import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  clientQuoteView,
  createQuoteInput,
  quoteDraft,
  quoteReplyInput,
  quoteTemplate,
  quoteTemplateInput,
  quoteTemplateList,
  quoteTemplateRename,
  quoteView,
  sendQuoteInput,
} from '#shared/schemas/quotes';
import { conflict, notFound } from '../lib/http-errors';
import { findQuoteRequestById } from '../quote-requests';
import {
  billToOf,
  firstIdentity,
  replyToQuestion,
  reviseQuote,
  revisableQuote,
  revisionIdentity,
  sendQuote,
  viewOf,
} from './service';
import { draftOf, findQuoteByNumber, findQuoteByRequest, previewOf } from './repository';
import { deleteTemplate, getTemplate, listTemplates, renameTemplate, saveTemplate } from './templates';

const templateParams = z.object({ id: z.string().max(64) });

/** Building, sending, revising and discussing quotes: admins only. */
export async function quoteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quotes'];
  const office = { access: 'office' as const };

  async function requestIn(quoteRequestId: string, status: 'Accepted' | 'Quote Sent') {
    const request = await findQuoteRequestById(app.db, quoteRequestId);
    if (!request) throw notFound('Quote request not found');
    if (request.status !== status)
      throw conflict(
        status === 'Accepted'
          ? `This request is ${request.status}: a quote can be sent only for an Accepted request`
          : `This request is ${request.status}: only a sent quote can be revised`,
        'REQUEST_NOT_PENDING',
      );
    return request;
  }

  r.post(
    '/quotes/createNew',
    {
      // Stores nothing (the quote is recorded when it is sent): the trail has nothing to record.
      config: { ...office, audit: false },
      schema: {
        tags,
        summary: 'A draft quote or revision: its number and totals (nothing is stored or sent)',
        body: createQuoteInput,
        response: { 200: quoteDraft, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const business = await app.settings.current();
      const quoteRequest = await findQuoteRequestById(app.db, body.quoteRequestId);
      if (!quoteRequest) throw notFound('Quote request not found');
      if (quoteRequest.status === 'Quote Sent') {
        const current = await revisableQuote(app.db, quoteRequest.id);
        return draftOf(
          body,
          revisionIdentity(current, business, body.validUntil, await billToOf(app.db, quoteRequest)),
        );
      }
      await requestIn(body.quoteRequestId, 'Accepted');
      const billTo = await billToOf(app.db, quoteRequest);
      return draftOf(body, await firstIdentity(app, business, undefined, body.validUntil, billTo));
    },
  );

  r.post(
    '/quotes/preview',
    {
      // Changes nothing: the trail has nothing to record.
      config: { ...office, audit: false },
      schema: {
        tags,
        summary: "A draft quote exactly as the client's page will show it, without storing or sending it",
        body: createQuoteInput,
        response: { 200: clientQuoteView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const business = await app.settings.current();
      const quoteRequest = await findQuoteRequestById(app.db, body.quoteRequestId);
      if (!quoteRequest) throw notFound('Quote request not found');
      const billTo = await billToOf(app.db, quoteRequest);
      const identity =
        quoteRequest.status === 'Quote Sent'
          ? revisionIdentity(await revisableQuote(app.db, quoteRequest.id), business, body.validUntil, billTo)
          : await firstIdentity(app, business, undefined, body.validUntil, billTo);
      return previewOf(body, identity, { name: business.name, email: business.email, phone: business.phone });
    },
  );

  r.get(
    '/quote-templates',
    {
      config: office,
      schema: { tags, summary: 'The quote templates, by name', response: { 200: quoteTemplateList } },
    },
    async () => ({ templates: await listTemplates(app.db) }),
  );

  r.get(
    '/quote-templates/:id',
    {
      config: office,
      schema: {
        tags,
        summary: 'A template: the lines and client notes a new quote starts from',
        params: templateParams,
        response: { 200: quoteTemplate, 404: errorResponse },
      },
    },
    (request) => getTemplate(app.db, request.params.id),
  );

  r.post(
    '/quote-templates',
    {
      config: { ...office, audit: { kind: 'quotes', action: 'Saved a quote template' } },
      schema: {
        tags,
        summary: "Keep a quote's lines and client notes as a template (never its internal notes)",
        body: quoteTemplateInput,
        response: { 201: quoteTemplate, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await saveTemplate(app.db, request.body)),
  );

  r.patch(
    '/quote-templates/:id',
    {
      config: { ...office, audit: { kind: 'quotes', action: 'Renamed a quote template' } },
      schema: {
        tags,
        summary: 'Rename a template',
        params: templateParams,
        body: quoteTemplateRename,
        response: { 200: quoteTemplate, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    (request) => renameTemplate(app.db, request.params.id, request.body.name),
  );

  r.delete(
    '/quote-templates/:id',
    {
      config: { ...office, audit: { kind: 'quotes', action: 'Deleted a quote template' } },
      schema: {
        tags,
        summary: 'Delete a template (quotes started from it keep their lines)',
        params: templateParams,
        response: { 200: z.object({ ok: z.literal(true) }), 404: errorResponse },
      },
    },
    async (request) => {
      await deleteTemplate(app.db, request.params.id);
      return { ok: true as const };
    },
  );

  r.post(
    '/quotes/sendQuote',
    {
      config: { ...office, audit: { kind: 'quotes', action: 'Sent a quote' } },
      schema: {
        tags,
        summary: 'Store the quote and e-mail it (with a PDF) to the client; the request becomes Quote Sent',
        body: sendQuoteInput,
        response: { 201: quoteView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const quoteRequest = await requestIn(body.quoteRequestId, 'Accepted');
      const view = await sendQuote(app, quoteRequest, body, request.user?.id);
      return reply.code(201).send(view);
    },
  );

  r.post(
    '/quotes/revise',
    {
      config: { ...office, audit: { kind: 'quotes', action: 'Revised a quote' } },
      schema: {
        tags,
        summary: 'Send a new version of a sent quote (QT…-2); the old link then points to it',
        body: sendQuoteInput,
        response: { 201: quoteView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const quoteRequest = await requestIn(body.quoteRequestId, 'Quote Sent');
      const view = await reviseQuote(app, quoteRequest, body, request.user?.id);
      return reply.code(201).send(view);
    },
  );

  r.post(
    '/quotes/:quoteId/reply',
    {
      config: { ...office, audit: { kind: 'quotes', action: "Answered a client's question" } },
      schema: {
        tags,
        summary: "Answer the client's question (e-mailed to them; the quote awaits them again)",
        params: z.object({ quoteId: z.string().max(40) }),
        body: quoteReplyInput,
        response: { 200: quoteView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await findQuoteByNumber(app.db, request.params.quoteId);
      if (!row) throw notFound('Quote not found');
      return replyToQuestion(app, row, request.body.message, request.user?.id);
    },
  );

  r.get(
    '/quotes/by-quote-request/:quoteRequestId',
    {
      config: office,
      schema: {
        tags,
        summary: 'The current quote of a request (its newest version)',
        params: z.object({ quoteRequestId: z.string().max(64) }),
        response: { 200: quoteView, 404: errorResponse },
      },
    },
    async (request) => {
      const row = await findQuoteByRequest(app.db, request.params.quoteRequestId);
      if (!row) throw notFound('No quote has been sent for this request');
      return viewOf(app, app.db, row, await app.settings.current());
    },
  );

  r.get(
    '/quotes/:quoteId',
    {
      config: office,
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
      return viewOf(app, app.db, row, await app.settings.current());
    },
  );
}
