import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../shared/messages';
import { errorResponse } from '../../shared/schemas/errors';
import { quoteRequestInput, quoteRequestView, quoteStatusResponse } from '../../shared/schemas/quote-request';
import { notFound } from '../lib/http-errors';
import { publicFormLimit } from '../plugins/rate-limit';
import { processImages } from '../lib/images';
import { findQuoteRequestStatus, listImageSummaries, parseRequestKey, toQuoteRequestView } from './repository';
import { cacheKeyOf } from './status-cache';
import { submitQuoteRequest } from './service';

export async function publicQuoteRequestRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/quoterequest/create',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags: ['quote requests'],
        summary: 'A visitor asks for a quote (photos as data URLs, 3 MB in total)',
        body: quoteRequestInput,
        response: { 201: z.object({ quoteRequest: quoteRequestView }), 400: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const images = await processImages(request.body.images);
      const row = await submitQuoteRequest(app.db, app.config, await app.settings.current(), request.body, images);
      app.mail.kick();
      const summaries = await listImageSummaries(app.db, [row.id]);
      return reply.code(201).send({ quoteRequest: toQuoteRequestView(row, summaries) });
    },
  );

  r.get(
    '/quoterequest/status/:quoteNumber',
    {
      config: { access: 'public', rateLimit: { max: app.config.STATUS_RATE_LIMIT_MAX, timeWindow: 60_000 } },
      // A 26-byte answer to a request without a body: nothing to compress either way.
      compress: false,
      decompress: false,
      schema: {
        tags: ['quote requests'],
        summary: 'The status of a request, by its quote number (Q…) or full id',
        params: z.object({ quoteNumber: z.string().max(64) }),
        response: { 200: quoteStatusResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const key = parseRequestKey(request.params.quoteNumber);
      const status = key && (await app.quoteStatus.get(cacheKeyOf(key), () => findQuoteRequestStatus(app.db, key)));
      if (!status) throw notFound(messages.quoteNumberInvalid);
      return { quoteStatus: status };
    },
  );
}
