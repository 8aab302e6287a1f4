import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  planOfferInput,
  planOfferList,
  planOfferView,
  planSignInput,
  servicePlanInput,
  servicePlanList,
  servicePlanView,
} from '#shared/schemas/service-plans';
import { documentLimit, publicFormLimit } from '../plugins/rate-limit';
import {
  archiveServicePlan,
  clientOffer,
  createServicePlan,
  listServicePlans,
  offerServicePlan,
  offersOfClient,
  signOffer,
  updateServicePlan,
  withdrawOffer,
} from './service-plans';

const tags = ['service plans'];
const idParams = z.object({ id: z.string().max(64) });

/**
 * Service plans (issue 31): the plans the business sells (Price book), offered to a client from their
 * page, read and signed by the client from their link; signing makes the job and its repeating visits.
 */
export async function servicePlanRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const office = { access: 'office' as const };

  r.get(
    '/service-plans',
    {
      config: office,
      schema: { tags, summary: 'The service plans, those offered first', response: { 200: servicePlanList } },
    },
    async () => ({ servicePlans: await listServicePlans(app.db) }),
  );

  r.post(
    '/service-plans',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Added a service plan' } },
      schema: {
        tags,
        summary: 'Add a service plan to sell: what it includes, how often, its price and term',
        body: servicePlanInput,
        response: { 201: servicePlanView, 400: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await createServicePlan(app.db, request.body)),
  );

  r.put(
    '/service-plans/:id',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Changed a service plan' } },
      schema: {
        tags,
        summary: 'Change a service plan (offers already made keep what they said)',
        params: idParams,
        body: servicePlanInput,
        response: { 200: servicePlanView, 400: errorResponse, 404: errorResponse },
      },
    },
    async (request) => updateServicePlan(app.db, request.params.id, request.body),
  );

  r.post(
    '/service-plans/:id/archive',
    {
      config: { ...office, audit: { kind: 'visits', action: 'Archived or restored a service plan' } },
      schema: {
        tags,
        summary: 'Stop offering a service plan, or offer it again (signed plans go on)',
        params: idParams,
        body: z.object({ archived: z.boolean() }),
        response: { 200: servicePlanView, 404: errorResponse },
      },
    },
    async (request) => archiveServicePlan(app.db, request.params.id, request.body.archived),
  );

  r.get(
    '/clients/:id/plan-offers',
    {
      config: office,
      schema: {
        tags,
        summary: 'The service plans offered to a client, newest first',
        params: idParams,
        response: { 200: planOfferList, 404: errorResponse },
      },
    },
    async (request) => ({ offers: await offersOfClient(app.db, request.params.id) }),
  );

  r.post(
    '/clients/:id/plan-offers',
    {
      config: { ...office, audit: { kind: 'clients', action: 'Offered a service plan' } },
      schema: {
        tags,
        summary: 'Offer a service plan to a client from a first visit’s date: they are e-mailed a link to sign it',
        params: idParams,
        body: planOfferInput,
        response: { 201: planOfferView, 400: errorResponse, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await offerServicePlan(app, request.params.id, request.body)),
  );

  r.post(
    '/plan-offers/:id/withdraw',
    {
      config: { ...office, audit: { kind: 'clients', action: 'Withdrew a service plan offer' } },
      schema: {
        tags,
        summary: 'Withdraw an offer not yet signed: its link then says so',
        params: idParams,
        response: { 204: z.null(), 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      await withdrawOffer(app.db, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/client-plan-offers/:id',
    {
      config: { access: 'public', ...documentLimit },
      schema: {
        tags,
        summary: 'A service plan offered to a client, as they read it from their link',
        params: idParams,
        querystring: z.object({ token: z.string().max(2000).optional() }),
        response: { 200: planOfferView, 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request) => clientOffer(app, request.params.id, request.query.token),
  );

  r.post(
    '/client-plan-offers/:id/sign',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'The client signs the plan with their typed name: its job and visits start, the owner is told',
        params: idParams,
        body: planSignInput,
        response: {
          200: planOfferView,
          400: errorResponse,
          403: errorResponse,
          404: errorResponse,
          409: errorResponse,
          410: errorResponse,
        },
      },
    },
    async (request) => signOffer(app, request.params.id, request.body),
  );
}
