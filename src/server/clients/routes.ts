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
  serviceAddressInput,
  type ClientHistory,
} from '#shared/schemas/clients';
import type { Db } from '../db/client';
import { jobNumberOf } from '#shared/schemas/jobs';
import { conflict, notFound } from '../lib/http-errors';
import { mobileOrRefuse } from '../lib/phone';
import { clientImportRoutes } from './import-routes';
import {
  addServiceAddress,
  changeServiceAddress,
  clientViews,
  findClient,
  listClients,
  removeServiceAddress,
  updateClient,
  type AddressUsers,
} from './repository';

export interface ClientRoutesOptions {
  /** A client's requests, quotes and jobs: given by the app, since those features build on clients. */
  historyOf: (db: Db, clientId: string, today: string) => Promise<ClientHistory>;
  /** The jobs at a service address (the jobs feature), for changing and removing one. */
  addressUsers: AddressUsers;
}

/** The Clients page: search, paging, one client with everything of theirs. Admins only. */
export async function clientRoutes(app: FastifyInstance, options: ClientRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['clients'];
  const office = { access: 'office' as const };
  const idParams = z.object({ id: z.string().max(64) });
  await app.register(clientImportRoutes);

  r.get(
    '/clients',
    {
      config: office,
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
      config: office,
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
      config: { ...office, audit: { kind: 'clients', action: 'Changed a client' } },
      schema: {
        tags,
        summary:
          "Change a client's name, company, phone, mobile for texts, how they hear from us, notes or billing address",
        params: idParams,
        body: clientUpdateInput,
        response: { 200: clientView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const { mobile, ...fields } = request.body;
      // The one reading of a typed number for texts (lib/phone): '' clears it.
      const row = await updateClient(app.db, request.params.id, {
        ...fields,
        ...(mobile === undefined ? {} : { mobile: mobile === '' ? '' : mobileOrRefuse('mobile', mobile) }),
      });
      if (!row) throw notFound('Client not found');
      const [view] = await clientViews(app.db, [row]);
      return view!;
    },
  );

  r.post(
    '/clients/:id/addresses',
    {
      config: { ...office, audit: { kind: 'clients', action: 'Added a service address' } },
      schema: {
        tags,
        summary: 'Add a service address (a place the client has us work), chosen per request and job',
        params: idParams,
        body: serviceAddressInput,
        response: { 201: clientView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      const row = await findClient(app.db, request.params.id);
      if (!row) throw notFound('Client not found');
      if (!(await addServiceAddress(app.db, row.id, request.body)))
        throw conflict(`${row.name} already has a service address at ${request.body.street}`, 'CONFLICT');
      const [view] = await clientViews(app.db, [row]);
      return reply.code(201).send(view!);
    },
  );

  const addressParams = z.object({ id: z.string().max(64), addressId: z.string().max(64) });

  r.put(
    '/clients/:id/addresses/:addressId',
    {
      config: { ...office, audit: { kind: 'clients', action: 'Changed a service address' } },
      schema: {
        tags,
        summary: 'Rename or correct a service address (open jobs at it follow; requests keep theirs as sent)',
        params: addressParams,
        body: serviceAddressInput,
        response: { 200: clientView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await findClient(app.db, request.params.id);
      if (!row) throw notFound('Client not found');
      const outcome = await changeServiceAddress(
        app.db,
        row.id,
        request.params.addressId,
        request.body,
        options.addressUsers,
      );
      if (outcome === 'missing') throw notFound('Service address not found');
      if (outcome === 'taken')
        throw conflict(`${row.name} already has a service address at ${request.body.street}`, 'CONFLICT');
      const [view] = await clientViews(app.db, [row]);
      return view!;
    },
  );

  r.delete(
    '/clients/:id/addresses/:addressId',
    {
      config: { ...office, audit: { kind: 'clients', action: 'Removed a service address' } },
      schema: {
        tags,
        summary:
          'Remove a service address: requests and finished jobs keep their copy of it; refused (409) while an open job is at it',
        params: addressParams,
        response: { 200: clientView, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const row = await findClient(app.db, request.params.id);
      if (!row) throw notFound('Client not found');
      const { removed, busy } = await removeServiceAddress(
        app.db,
        row.id,
        request.params.addressId,
        options.addressUsers,
      );
      if (busy.length) {
        const jobs = busy.map((j) => `${jobNumberOf(j.id)} (${j.status})`).join(', ');
        throw conflict(
          `This address cannot be removed while ${busy.length === 1 ? 'job' : 'jobs'} ${jobs} ${busy.length === 1 ? 'is' : 'are'} open at it: move ${busy.length === 1 ? 'it' : 'them'} to another address first`,
          'ADDRESS_IN_USE',
        );
      }
      if (!removed) throw notFound('Service address not found');
      const [view] = await clientViews(app.db, [row]);
      return view!;
    },
  );
}
