import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  clientPageMessages,
  clientPageView,
  confirmVisitAnswer,
  confirmVisitInput,
  freshLinkRequest,
  pageLinkAnswer,
  pageLinkRequest,
  type ClientPageView,
} from '#shared/schemas/client-page';
import { notFound } from '../lib/http-errors';
import { publicFormLimit } from '../plugins/rate-limit';
import { clientOfPageLink, sendPageLink } from './page-link';
import { findClient, type ClientRow } from './repository';

export interface ClientPageRoutesOptions {
  /** Everything of a client's for their page: given by the app, since those features build on clients. */
  pageOf: (
    app: FastifyInstance,
    client: ClientRow,
    access: { readOnly: boolean; validUntil: Date | null },
  ) => Promise<ClientPageView>;
  /** Confirm on the page: the visit's window, or null when it is not this client's visit to confirm. */
  confirmVisit: (app: FastifyInstance, visitId: string, clientId: string) => Promise<string | null>;
}

/**
 * The client's own page (decision 036): opened by a link signed for that client, asked for again by
 * e-mail ("E-mail me my link", the same answer whether or not the address is known), and opened by
 * staff as the client sees it (read-only, in the trail).
 */
export async function clientPageRoutes(app: FastifyInstance, options: ClientPageRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['client page'];
  const idParams = z.object({ id: z.string().max(64) });
  const pageLimit = { rateLimit: { max: app.config.STATUS_RATE_LIMIT_MAX, timeWindow: 60_000 } };
  const answer = { message: clientPageMessages.linkSent };

  r.get(
    '/client-page/:id',
    {
      config: { access: 'public', ...pageLimit },
      schema: {
        tags,
        summary: "The client's own page by its signed link: requests, quotes, visits, reports, invoices",
        params: idParams,
        querystring: z.object({ token: z.string().max(2000).optional() }),
        response: { 200: clientPageView, 403: errorResponse, 410: errorResponse },
      },
    },
    async (request, reply) => {
      const { client, validUntil } = await clientOfPageLink(app, request.params.id, request.query.token);
      reply.header('cache-control', 'private, no-store');
      return options.pageOf(app, client, { readOnly: false, validUntil });
    },
  );

  r.post(
    '/client-page/:id/visits/:visitId/confirm',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'The client confirms a visit of theirs still to come, by their page link',
        params: z.object({ id: z.string().max(64), visitId: z.string().max(64) }),
        body: confirmVisitInput,
        response: { 200: confirmVisitAnswer, 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request) => {
      const { client } = await clientOfPageLink(app, request.params.id, request.body.token);
      const when = await options.confirmVisit(app, request.params.visitId, client.id);
      if (!when) throw notFound('This visit cannot be confirmed: it has passed, moved or been cancelled');
      return { confirmed: true as const, when };
    },
  );

  r.post(
    '/client-page/link',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'E-mail me my link: sent only to an address on file; the same answer whether or not it is',
        body: pageLinkRequest,
        response: { 202: pageLinkAnswer, 400: errorResponse },
      },
    },
    async (request, reply) => {
      await sendPageLink(app, { email: request.body.email });
      return reply.code(202).send(answer);
    },
  );

  r.post(
    '/client-page/:id/fresh-link',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: "An expired link's 'E-mail me a fresh link': to the client's address on file",
        params: idParams,
        body: freshLinkRequest,
        response: { 202: pageLinkAnswer, 400: errorResponse },
      },
    },
    async (request, reply) => {
      // A link signed for this client, however old: the fresh one goes to their address, never elsewhere.
      const found = await clientOfPageLink(app, request.params.id, request.body.token, { expiredToo: true }).catch(
        () => undefined,
      );
      if (found) await sendPageLink(app, { client: found.client });
      return reply.code(202).send(answer);
    },
  );

  r.get(
    '/clients/:id/their-page',
    {
      config: { access: 'office', audit: { kind: 'clients', action: "Opened the client's own page as they see it" } },
      schema: {
        tags,
        summary: "A client's own page as they see it, for staff: read-only, recorded in the trail",
        params: idParams,
        response: { 200: clientPageView, 404: errorResponse },
      },
    },
    async (request) => {
      const client = await findClient(app.db, request.params.id);
      if (!client) throw notFound('Client not found');
      return options.pageOf(app, client, { readOnly: true, validUntil: null });
    },
  );
}
