import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { totalPagesOf } from '#shared/schemas/paging';
import { createdQuoteRequest, quoteRequestStatus, quoteRequestView } from '#shared/schemas/quote-request';
import {
  declineInput,
  quoteRequestDetail,
  quoteRequestList,
  quoteRequestListQuery,
  staffQuoteRequestInput,
} from '#shared/schemas/staff-quote-requests';
import { billingOf } from '../clients';
import { errorBody, notFound } from '../lib/http-errors';
import { requestPhotos, verifyImageSignature } from './image-links';
import { acceptQuoteRequest, declineQuoteRequest, enterQuoteRequest, type DeclineStep } from './service';
import { processImages } from '../lib/images';
import { findImage, findQuoteRequestById, listQuoteRequests, toQuoteRequestView } from './repository';

const idParams = z.object({ id: z.string().max(64) });

/** What building on requests does when one is declined (its estimate visits are called off: the visits feature). */
export interface StaffRequestOptions {
  declined?: DeclineStep;
}

/** The back office's view of quote requests: lists, detail with photos, accept and decline. */
export async function staffQuoteRequestRoutes(app: FastifyInstance, options: StaffRequestOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quote requests'];
  const office = { access: 'office' as const };

  r.get(
    '/quoterequest/all',
    {
      config: office,
      schema: {
        tags,
        summary: 'Requests newest first, by page, with optional status and name search',
        querystring: quoteRequestListQuery,
        response: { 200: quoteRequestList },
      },
    },
    async (request) => {
      const { page, limit, search, status, quoteState } = request.query;
      const { rows, total } = await listQuoteRequests(
        app.db,
        { search, status: status === 'All' ? undefined : status, quoteState },
        page,
        limit,
      );
      return {
        quoteRequests: rows.map((row) => ({ ...toQuoteRequestView(row), photoCount: row.photoCount })),
        totalPages: totalPagesOf(total, limit),
        total,
      };
    },
  );

  r.post(
    '/quoterequest/staff-entry',
    {
      config: { ...office, audit: { kind: 'requests', action: 'Entered a request' } },
      schema: {
        tags,
        summary: 'Enter a request for a client who phoned (photos optional, e-mail to the client optional)',
        body: staffQuoteRequestInput,
        response: { 201: createdQuoteRequest, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request, reply) => {
      const { emailClient, images: photos, clientId, serviceAddressId, ...body } = request.body;
      const images = await processImages(photos);
      const row = await enterQuoteRequest(app, body, images, {
        emailClient,
        userId: request.user?.id,
        chosen: clientId && serviceAddressId ? { clientId, serviceAddressId } : undefined,
      });
      return reply.code(201).send({ quoteRequest: toQuoteRequestView(row) });
    },
  );

  r.get(
    '/quoterequest/byStatus',
    {
      config: office,
      schema: {
        tags,
        summary: 'The newest requests in one status (limit 0: all)',
        querystring: z.object({
          status: quoteRequestStatus,
          limit: z.coerce.number().int().min(0).max(1000).default(0),
        }),
        response: { 200: z.array(quoteRequestView) },
      },
    },
    async (request) => {
      const { status, limit } = request.query;
      const { rows } = await listQuoteRequests(app.db, { status }, 1, limit || 1000);
      return rows.map((row) => toQuoteRequestView(row));
    },
  );

  r.get(
    '/quoterequest/:id',
    {
      config: office,
      schema: {
        tags,
        summary: 'One request with signed addresses of its photos',
        params: idParams,
        response: { 200: quoteRequestDetail, 404: errorResponse },
      },
    },
    async (request) => {
      const row = await findQuoteRequestById(app.db, request.params.id);
      if (!row) throw notFound('Quote request not found');
      const photos = await requestPhotos(app.db, app.tokens, [row.id]);
      const billTo = await billingOf(app.db, row.clientId);
      return { ...toQuoteRequestView(row), images: photos.get(row.id) ?? [], ...billTo };
    },
  );

  // Reached from <img> tags, which cannot send the bearer token: the signed address is the permission.
  r.get(
    '/quoterequest/images/:imageId',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'A photo of a request (needs the signed address from the detail)',
        params: z.object({ imageId: z.string().max(64) }),
        querystring: z.object({
          sig: z.string().max(2000).optional(),
          size: z.enum(['full', 'thumb']).default('full'),
        }),
      },
    },
    async (request, reply) => {
      const { imageId } = request.params;
      if (!(await verifyImageSignature(app.tokens, imageId, request.query.sig))) {
        return reply.code(401).send(errorBody(401, 'This photo link is missing, wrong or expired', 'LINK_INVALID'));
      }
      const image = await findImage(app.db, imageId);
      if (!image) throw notFound('Image not found');
      const thumb = request.query.size === 'thumb';
      return reply
        .type(thumb ? 'image/webp' : image.mimeType)
        .header('cache-control', 'private, max-age=600')
        .send(thumb ? image.thumbnail : image.data);
    },
  );

  r.put(
    '/quoterequest/markAccepted/:id',
    {
      config: { ...office, audit: { kind: 'requests', action: 'Accepted a request' } },
      schema: {
        tags,
        summary: 'Accept a pending request and tell the client a quote is coming',
        params: idParams,
        response: { 200: quoteRequestView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await acceptQuoteRequest(app, request.params.id, request.user?.id);
      return toQuoteRequestView(row);
    },
  );

  r.post(
    '/quoterequest/markDeclined',
    {
      config: { ...office, audit: { kind: 'requests', action: 'Declined a request' } },
      schema: {
        tags,
        summary: 'Decline a pending request and e-mail the client the reason',
        body: declineInput,
        response: { 200: quoteRequestView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await declineQuoteRequest(
        app,
        request.body.quoteRequestId,
        request.body.reasonForDecline,
        request.user?.id,
        options.declined,
      );
      return toQuoteRequestView(row);
    },
  );
}
