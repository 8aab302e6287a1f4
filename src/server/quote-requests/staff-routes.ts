import { count, eq, gte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toDollars } from '../../shared/money';
import { errorResponse } from '../../shared/schemas/errors';
import { totalPagesOf } from '../../shared/schemas/paging';
import { quoteRequestStatus, quoteRequestView } from '../../shared/schemas/quote-request';
import {
  dashboardStats,
  declineInput,
  quoteRequestDetail,
  quoteRequestList,
  quoteRequestListQuery,
} from '../../shared/schemas/staff-quote-requests';
import { quoteRequests } from '../db/schema';
import { completedJobStats } from '../jobs/repository';
import { enqueueMail } from '../mail/outbox';
import { conflict, notFound } from '../plugins/errors';
import { quoteRequestAcceptedMail, quoteRequestDeclinedMail } from './emails';
import { signedImageUrls, verifyImageSignature } from './image-links';
import {
  findImage,
  findQuoteRequestById,
  listImageSummaries,
  listQuoteRequests,
  toQuoteRequestView,
  transitionQuoteRequest,
} from './repository';

const idParams = z.object({ id: z.string().max(64) });

/** The back office's view of quote requests: lists, detail with photos, accept and decline. */
export async function staffQuoteRequestRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quote requests'];
  const admin = { access: 'admin' as const };

  r.get(
    '/quoterequest/all',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Requests newest first, by page, with optional status and name search',
        querystring: quoteRequestListQuery,
        response: { 200: quoteRequestList },
      },
    },
    async (request) => {
      const { page, limit, search, status } = request.query;
      const { rows, total } = await listQuoteRequests(
        app.db,
        { search, status: status === 'All' ? undefined : status },
        page,
        limit,
      );
      return {
        quoteRequests: rows.map((row) => toQuoteRequestView(row)),
        totalPages: totalPagesOf(total, limit),
        total,
      };
    },
  );

  r.get(
    '/quoterequest/byStatus',
    {
      config: admin,
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
    '/dashboard',
    {
      config: admin,
      schema: { tags: ['dashboard'], summary: 'Figures for the admin dashboard', response: { 200: dashboardStats } },
    },
    async () => {
      const countWhere = async (where: ReturnType<typeof eq>) =>
        (await app.db.select({ n: count() }).from(quoteRequests).where(where))[0]?.n ?? 0;
      const [jobsDone, pending, week, month] = await Promise.all([
        completedJobStats(app.db),
        countWhere(eq(quoteRequests.status, 'Pending')),
        countWhere(gte(quoteRequests.createdAt, sql`now() - interval '7 days'`)),
        countWhere(gte(quoteRequests.createdAt, sql`now() - interval '1 month'`)),
      ]);
      return {
        completedJobs: jobsDone.completed,
        revenue: toDollars(jobsDone.revenueCents),
        pendingQuoteRequests: pending,
        newThisWeek: week,
        newThisMonth: month,
      };
    },
  );

  r.get(
    '/quoterequest/:id',
    {
      config: admin,
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
      const summaries = await listImageSummaries(app.db, [row.id]);
      const images = await Promise.all(
        summaries.map(async (i) => ({
          _id: i.id,
          width: i.width,
          height: i.height,
          ...(await signedImageUrls(app.tokens, i.id)),
        })),
      );
      return { ...toQuoteRequestView(row), images };
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
        return reply
          .code(401)
          .send({ statusCode: 401, error: 'Unauthorized', message: 'This photo link is missing, wrong or expired' });
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
      config: admin,
      schema: {
        tags,
        summary: 'Accept a pending request and tell the client a quote is coming',
        params: idParams,
        response: { 200: quoteRequestView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await app.db.transaction(async (tx) => {
        const accepted = await transitionQuoteRequest(tx, request.params.id, 'Pending', 'Accepted');
        if (accepted) await enqueueMail(tx, quoteRequestAcceptedMail(app.config, accepted));
        return accepted;
      });
      if (!row) throw await notPending(request.params.id);
      app.quoteStatus.forget(row);
      app.mail.kick();
      return toQuoteRequestView(row);
    },
  );

  r.post(
    '/quoterequest/markDeclined',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Decline a pending request and e-mail the client the reason',
        body: declineInput,
        response: { 200: quoteRequestView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const { quoteRequestId, reasonForDecline } = request.body;
      const row = await app.db.transaction(async (tx) => {
        const declined = await transitionQuoteRequest(tx, quoteRequestId, 'Pending', 'Declined', {
          declineReason: reasonForDecline,
        });
        // The reason goes to the address the client gave, never to one named in the request body.
        if (declined) await enqueueMail(tx, quoteRequestDeclinedMail(app.config, declined, reasonForDecline));
        return declined;
      });
      if (!row) throw await notPending(quoteRequestId);
      app.quoteStatus.forget(row);
      app.mail.kick();
      return toQuoteRequestView(row);
    },
  );

  async function notPending(id: string) {
    const current = await findQuoteRequestById(app.db, id);
    return current
      ? conflict(`This request is ${current.status}: only a Pending request can be accepted or declined`)
      : notFound('Quote request not found');
  }
}
