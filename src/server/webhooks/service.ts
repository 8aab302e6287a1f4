import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  MAX_WEBHOOKS,
  type WebhookCreated,
  type WebhookDeliveryView,
  type WebhookInput,
  type WebhookView,
} from '#shared/schemas/webhooks';
import { newId } from '../db/ids';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import { checkWebhookAddress, ForbiddenAddressError } from './address-guard';
import { WEBHOOK_SEAL } from './relay';
import { newWebhookSecret } from './signing';
import { webhookDeliveries, webhookEndpoints } from './tables';
import { WEBHOOK_QUEUED } from './outbox';
import { afterCommit } from '../db/client';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const stateOf = (d: Pick<DeliveryRow, 'deliveredAt' | 'failedAt' | 'attempts'>) =>
  d.deliveredAt ? 'delivered' : d.failedAt ? 'failed' : d.attempts > 0 ? 'failing' : 'waiting';

const deliveryView = (d: DeliveryRow): WebhookDeliveryView => ({
  _id: d.id,
  event: d.event,
  state: stateOf(d),
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  deliveredAt: d.deliveredAt?.toISOString() ?? null,
});

/** The webhooks, oldest first, each with how its last delivery went. */
export async function listWebhooks(app: FastifyInstance): Promise<WebhookView[]> {
  const endpoints = await app.db.select().from(webhookEndpoints).orderBy(webhookEndpoints.createdAt);
  return Promise.all(
    endpoints.map(async (e) => {
      const [last] = await app.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, e.id))
        .orderBy(desc(webhookDeliveries.createdAt))
        .limit(1);
      return {
        _id: e.id,
        url: e.url,
        events: e.events,
        description: e.description,
        createdAt: e.createdAt.toISOString(),
        lastDelivery: last
          ? { event: last.event, state: stateOf(last), at: (last.deliveredAt ?? last.createdAt).toISOString() }
          : null,
      };
    }),
  );
}

/** A new webhook, its address checked (decision 044); its secret is in this answer only. */
export async function addWebhook(app: FastifyInstance, input: WebhookInput): Promise<WebhookCreated> {
  const { webhooksAllowPrivate } = await app.settings.current();
  try {
    await checkWebhookAddress(input.url, webhooksAllowPrivate);
  } catch (error) {
    if (error instanceof ForbiddenAddressError) throw badRequest(`url: ${error.message}`);
    throw error;
  }
  const secret = newWebhookSecret();
  const id = newId();
  const created = await app.db.transaction(async (tx) => {
    await tx.execute(sql`lock table webhook_endpoints in share row exclusive mode`);
    const [n] = await tx.select({ n: count() }).from(webhookEndpoints);
    if ((n?.n ?? 0) >= MAX_WEBHOOKS)
      throw conflict(`At most ${MAX_WEBHOOKS} webhooks: remove one you no longer use first`);
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        url: input.url,
        secretSealed: app.tokens.seal(WEBHOOK_SEAL, secret),
        events: input.events,
        description: input.description ?? '',
      })
      .returning();
    return row!;
  });
  return {
    _id: created.id,
    url: created.url,
    events: created.events,
    description: created.description,
    createdAt: created.createdAt.toISOString(),
    lastDelivery: null,
    secret,
  };
}

export async function removeWebhook(app: FastifyInstance, id: string): Promise<void> {
  const removed = await app.db.transaction((tx) =>
    tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id }),
  );
  if (removed.length === 0) throw notFound('Webhook not found');
}

/** A webhook's latest deliveries, newest first: the delivery log. */
export async function webhookDeliveryLog(app: FastifyInstance, id: string): Promise<WebhookDeliveryView[]> {
  const [endpoint] = await app.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, id));
  if (!endpoint) throw notFound('Webhook not found');
  const rows = await app.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(50);
  return rows.map(deliveryView);
}

/**
 * "Send again": the same event (same id, for a receiver that tells repeats) as a new delivery, sent
 * at once with its own tries; the old one stays in the log as it went.
 */
export async function sendAgain(
  app: FastifyInstance,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryView> {
  return app.db.transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId)));
    if (!old) throw notFound('Delivery not found');
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({ id: newId(), endpointId, event: old.event, payload: old.payload })
      .returning();
    afterCommit(tx, WEBHOOK_QUEUED);
    return deliveryView(row!);
  });
}
