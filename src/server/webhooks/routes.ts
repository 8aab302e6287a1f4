import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { webhookCreated, webhookDeliveryView, webhookInput, webhookView } from '#shared/schemas/webhooks';
import { addWebhook, listWebhooks, removeWebhook, sendAgain, webhookDeliveryLog } from './service';

/** Settings → Webhooks (decision 044): the Owner's. */
export async function webhookRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];
  const owner = { access: 'owner' as const };
  const idParams = z.object({ id: z.string().max(64) });

  r.get(
    '/webhooks',
    {
      config: owner,
      schema: {
        tags,
        summary: 'The webhooks, each with its last delivery',
        response: { 200: z.object({ webhooks: z.array(webhookView) }) },
      },
    },
    async () => ({ webhooks: await listWebhooks(app) }),
  );
  r.post(
    '/webhooks',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Made a webhook' } },
      schema: {
        tags,
        summary:
          'Make a webhook: its signing secret is in this answer only (never to this machine or a private network unless Settings allow it)',
        body: webhookInput,
        response: { 201: webhookCreated, 400: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await addWebhook(app, request.body));
    },
  );
  r.delete(
    '/webhooks/:id',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Removed a webhook' } },
      schema: {
        tags,
        summary: 'Remove a webhook and its delivery log',
        params: idParams,
        response: { 200: z.object({ ok: z.literal(true) }), 404: errorResponse },
      },
    },
    async (request) => {
      await removeWebhook(app, request.params.id);
      return { ok: true as const };
    },
  );
  r.get(
    '/webhooks/:id/deliveries',
    {
      config: owner,
      schema: {
        tags,
        summary: "A webhook's latest 50 deliveries, newest first",
        params: idParams,
        response: { 200: z.object({ deliveries: z.array(webhookDeliveryView) }), 404: errorResponse },
      },
    },
    async (request) => ({ deliveries: await webhookDeliveryLog(app, request.params.id) }),
  );
  r.post(
    '/webhooks/:id/deliveries/:deliveryId/send-again',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Sent a webhook again' } },
      schema: {
        tags,
        summary: 'Send a delivery again: the same event, as a new delivery',
        params: z.object({ id: z.string().max(64), deliveryId: z.string().max(64) }),
        response: { 200: webhookDeliveryView, 404: errorResponse },
      },
    },
    async (request) => sendAgain(app, request.params.id, request.params.deliveryId),
  );
}
