import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bookingSettingsInput,
  bookingSettingsView,
  cancelByClientAnswer,
  cancelByClientInput,
  estimateWindows,
  rescheduleAnswer,
  rescheduleInput,
  visitChangeOptions,
  windowTaken,
} from '#shared/schemas/booking';
import { errorResponse } from '#shared/schemas/errors';
import { clientOfPageLink } from '../clients';
import { publicFormLimit } from '../plugins/rate-limit';
import { bookingRules, saveBookingRules } from './repository';
import { estimateWindows as estimateWindowsOf } from './estimates';
import { cancelClientVisit, rescheduleVisit, visitChangeOptions as optionsOf } from './service';

/** Settings → Online booking, and a client moving or cancelling their own visit from their page (decision 046). */
export async function bookingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const owner = { access: 'owner' as const };
  const tags = ['booking'];
  const visitParams = z.object({ id: z.string().max(64), visitId: z.string().max(64) });
  const pageLimit = { rateLimit: { max: app.config.STATUS_RATE_LIMIT_MAX, timeWindow: 60_000 } };
  const clientErrors = { 403: errorResponse, 404: errorResponse, 410: errorResponse };

  r.get(
    '/settings/booking',
    {
      config: owner,
      schema: {
        tags,
        summary: 'The booking windows and what clients may change of their visits',
        response: { 200: bookingSettingsView },
      },
    },
    () => bookingRules(app.db),
  );

  r.put(
    '/settings/booking',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Changed online booking' } },
      schema: {
        tags,
        summary: 'Save the booking windows, the days they are offered on, and the rules of client changes',
        body: bookingSettingsInput,
        response: { 200: bookingSettingsView, 400: errorResponse },
      },
    },
    (request) => app.db.transaction((tx) => saveBookingRules(tx, request.body)),
  );

  r.get(
    '/booking/windows',
    {
      config: { access: 'public', ...pageLimit },
      schema: {
        tags,
        summary: 'Whether visitors may book an estimate visit, and the windows free now (Get a Quote)',
        response: { 200: estimateWindows },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return estimateWindowsOf(app);
    },
  );

  r.get(
    '/client-page/:id/visits/:visitId/changes',
    {
      config: { access: 'public', ...pageLimit },
      schema: {
        tags,
        summary: 'Whether the client may move or cancel their visit now, and the windows it may move to',
        params: visitParams,
        querystring: z.object({ token: z.string().max(2000).optional() }),
        response: { 200: visitChangeOptions, ...clientErrors },
      },
    },
    async (request, reply) => {
      const { client } = await clientOfPageLink(app, request.params.id, request.query.token);
      reply.header('cache-control', 'private, no-store');
      return optionsOf(app, client.id, request.params.visitId);
    },
  );

  r.post(
    '/client-page/:id/visits/:visitId/reschedule',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'The client moves their visit to a free window (409 WINDOW_TAKEN with fresh windows if taken first)',
        params: visitParams,
        body: rescheduleInput,
        response: { 200: rescheduleAnswer, 400: errorResponse, ...clientErrors, 409: windowTaken.or(errorResponse) },
      },
    },
    async (request) => {
      const { client } = await clientOfPageLink(app, request.params.id, request.body.token);
      const when = await rescheduleVisit(app, client.id, request.params.visitId, request.body, {
        ip: request.ip,
        route: `POST ${request.routeOptions.url ?? ''}`,
      });
      return { when };
    },
  );

  r.post(
    '/client-page/:id/visits/:visitId/cancel',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'The client cancels their visit, saying why, until the cut-off',
        params: visitParams,
        body: cancelByClientInput,
        response: { 200: cancelByClientAnswer, 400: errorResponse, ...clientErrors, 409: errorResponse },
      },
    },
    async (request) => {
      const { client } = await clientOfPageLink(app, request.params.id, request.body.token);
      await cancelClientVisit(app, client.id, request.params.visitId, request.body.reason, {
        ip: request.ip,
        route: `POST ${request.routeOptions.url ?? ''}`,
      });
      return { cancelled: true as const };
    },
  );
}
