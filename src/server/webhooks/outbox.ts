import { sql } from 'drizzle-orm';
import type { WebhookEvent } from '#shared/schemas/webhooks';
import { afterCommit, type DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { webhookDeliveries, webhookEndpoints } from './tables';

/** Told after a commit that queued deliveries: the relay looks at once. */
export const WEBHOOK_QUEUED = 'webhook-queued';

/**
 * An event for the webhooks that want it, written in the transaction of the change that makes it (a
 * rolled-back change sends nothing). Every endpoint gets the same event id, to tell a repeat by.
 */
export async function emitWebhook(tx: DbOrTx, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(sql`${event} = any(${webhookEndpoints.events})`);
  if (endpoints.length === 0) return;
  const payload = { id: newId(), event, occurredAt: new Date().toISOString(), data };
  await tx.insert(webhookDeliveries).values(endpoints.map((e) => ({ id: newId(), endpointId: e.id, event, payload })));
  afterCommit(tx, WEBHOOK_QUEUED);
}
