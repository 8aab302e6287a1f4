import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { totalPagesOf } from '#shared/schemas/paging';
import {
  clientDetail,
  clientList,
  clientListQuery,
  clientUpdateInput,
  clientView,
  type ClientHistory,
} from '#shared/schemas/clients';
import type { Db } from '../db/client';
import { notFound } from '../lib/http-errors';
import { clientImportRoutes } from './import-routes';
import { clientViews, findClient, listClients, updateClient } from './repository';

export interface ClientRoutesOptions {
  /** A client's requests, quotes and jobs: given by the app, since those features build on clients. */
  historyOf: (db: Db, clientId: string, today: string) => Promise<ClientHistory>;
}

/** The Clients page: search, paging, one client with everything of theirs. Admins only. */
export async function clientRoutes(app: FastifyInstance, options: ClientRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['clients'];
  const admin = { access: 'admin' as const };
  const idParams = z.object({ id: z.string().max(64) });
  await app.register(clientImportRoutes);

  r.get(
    '/clients',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Clients newest first, by page, searched by name, e-mail, phone or address',
        querystring: clientListQuery,
        response: { 200: clientList },
      },
    },
    async (request) => {
      const { page, limit, search } = request.query;
      const { rows, total } = await listClients(app.db, search || undefined, page, limit);
      return { clients: await clientViews(app.db, rows), totalPages: totalPagesOf(total, limit), total };
    },
  );

  r.get(
    '/clients/:id',
    {
      config: admin,
      schema: {
        tags,
        summary: 'A client with their addresses, every request, quote, job and invoice, and what they owe',
        params: idParams,
        response: { 200: clientDetail, 404: errorResponse },
      },
    },
    async (request) => {
      const row = await findClient(app.db, request.params.id);
      if (!row) throw notFound('Client not found');
      const [view] = await clientViews(app.db, [row]);
      return { ...view!, history: await options.historyOf(app.db, row.id, await app.settings.today()) };
    },
  );

  r.put(
    '/clients/:id',
    {
      config: { ...admin, audit: { kind: 'clients', action: 'Changed a client' } },
      schema: {
        tags,
        summary: "Change a client's name, phone or notes",
        params: idParams,
        body: clientUpdateInput,
        response: { 200: clientView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const row = await updateClient(app.db, request.params.id, request.body);
      if (!row) throw notFound('Client not found');
      const [view] = await clientViews(app.db, [row]);
      return view!;
    },
  );
}
