import { arrivalWallTimes } from '#shared/arrival-window';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '#shared/messages';
import { windowTaken } from '#shared/schemas/booking';
import { errorResponse } from '#shared/schemas/errors';
import { createdQuoteRequest, quoteRequestInput, quoteStatusResponse } from '#shared/schemas/quote-request';
import { statusTimelineResponse, type StatusTimeline } from '#shared/schemas/status-timeline';
import type { Db } from '../db/client';
import { notFound } from '../lib/http-errors';
import { publicFormLimit } from '../plugins/rate-limit';
import { processImages } from '../lib/images';
import { findQuoteRequestStatus, listImageSummaries, parseRequestKey, toQuoteRequestView } from './repository';
import { cacheKeyOf } from './status-cache';
import { submitQuoteRequest, type BookEstimate } from './service';

export interface PublicQuoteRequestRoutesOptions {
  /** Books the estimate visit a visitor picked (issue 31): given by the app, since visits build on requests. */
  bookEstimate: BookEstimate;
  /**
   * The request a sent quote answers, by the quote's number (QT…, in the quote e-mail and PDF): given
   * by the app, since quotes build on requests, not the other way.
   */
  requestIdOfQuote: (db: Db, quoteNumber: string) => Promise<string | undefined>;
  /** The next visit booked for the job an accepted request became: given by the app, since visits build on requests. */
  nextVisitOf: (db: Db, quoteRequestId: string) => Promise<{ startsAt: Date; endsAt: Date } | null>;
  /**
   * The client's timeline of a request (quote, visit, report, invoices, payments): given by the app,
   * which composes the features that build on requests. `documents`: with numbers, signed links and balances.
   */
  timelineOf: (
    app: FastifyInstance,
    quoteRequestId: string,
    documents: boolean,
  ) => Promise<Pick<StatusTimeline, 'steps' | 'jobCancelled'>>;
}

export async function publicQuoteRequestRoutes(app: FastifyInstance, options: PublicQuoteRequestRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const statusLimit = { max: app.config.STATUS_RATE_LIMIT_MAX, timeWindow: 60_000 };

  /** A request by its number (Q…), its quote's number (QT…) or its full id. */
  const keyOf = async (typed: string) => {
    const clean = typed.trim().toUpperCase();
    const quoteRequestId = /^QT\d{8}(-\d{1,3})?$/.test(clean)
      ? await options.requestIdOfQuote(app.db, clean)
      : undefined;
    return quoteRequestId ? { id: quoteRequestId } : parseRequestKey(clean);
  };

  r.post(
    '/quoterequest/create',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags: ['quote requests'],
        summary: 'A visitor asks for a quote (photos as data URLs, 3 MB in total)',
        body: quoteRequestInput,
        response: {
          201: createdQuoteRequest,
          400: errorResponse,
          // WINDOW_TAKEN (with the windows free now) or BOOKING_OFF: the request is not stored.
          409: windowTaken.or(errorResponse),
          429: errorResponse,
        },
      },
    },
    async (request, reply) => {
      const images = await processImages(request.body.images);
      const row = await submitQuoteRequest(app, request.body, images, options.bookEstimate);
      const summaries = await listImageSummaries(app.db, [row.id]);
      return reply.code(201).send({ quoteRequest: toQuoteRequestView(row, summaries) });
    },
  );

  r.get(
    '/quoterequest/status/:quoteNumber',
    {
      config: { access: 'public', rateLimit: statusLimit },
      // A 26-byte answer to a request without a body: nothing to compress either way.
      compress: false,
      decompress: false,
      schema: {
        tags: ['quote requests'],
        summary: "The status of a request, by its quote number (Q…), its quote's number (QT…) or its full id",
        params: z.object({ quoteNumber: z.string().max(64) }),
        response: { 200: quoteStatusResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const key = await keyOf(request.params.quoteNumber);
      const found = key && (await app.quoteStatus.get(cacheKeyOf(key), () => findQuoteRequestStatus(app.db, key)));
      if (!found) throw notFound(messages.quoteNumberInvalid);
      const visit = found.quoteStatus === 'Accepted' ? await options.nextVisitOf(app.db, found.id) : null;
      let nextVisit = null;
      if (visit) {
        // As every message to the client gives it: the arrival window (Settings → Visits).
        const { timeZone, arrivalWindowMinutes } = await app.settings.current();
        nextVisit = arrivalWallTimes(visit, arrivalWindowMinutes, timeZone);
      }
      return { quoteStatus: found.status, quoteState: found.quoteStatus, nextVisit };
    },
  );

  r.get(
    '/quoterequest/status/:quoteNumber/timeline',
    {
      config: { access: 'public', rateLimit: statusLimit },
      schema: {
        tags: ['quote requests'],
        summary:
          "The client's status page: the statuses and the timeline to the last payment; links and amounts only by the request's full id (the e-mailed link)",
        params: z.object({ quoteNumber: z.string().max(64) }),
        response: { 200: statusTimelineResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const key = await keyOf(request.params.quoteNumber);
      // Read, not cached: the timeline moves with visits, the crew and payments, which do not clear the cache.
      const found = key && (await findQuoteRequestStatus(app.db, key));
      if (!found) throw notFound(messages.quoteNumberInvalid);
      // A typed number (Q…, QT…) can be guessed; the full id only comes in our e-mails' links.
      const documents = /^q?[0-9a-f]{24}$/i.test(request.params.quoteNumber.trim());
      const { steps, jobCancelled } = await options.timelineOf(app, found.id, documents);
      return { quoteStatus: found.status, quoteState: found.quoteStatus, jobCancelled, documents, steps };
    },
  );
}
