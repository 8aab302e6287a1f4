import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { onCommitted, type Db } from '../db/client';
import type { TokenService } from '../lib/tokens';
import { backoffMs } from '../lib/backoff';
import { PollingLoop } from '../lib/polling-loop';
import { ForbiddenAddressError, guardedLookup, isPrivateAddress } from './address-guard';
import { SIGNATURE_HEADER, signatureHeader } from './signing';
import { webhookDeliveries, webhookEndpoints } from './tables';
import { WEBHOOK_QUEUED } from './outbox';

/** The purpose a webhook's secret is sealed for. */
export const WEBHOOK_SEAL = 'webhook-secret';
/** Tries before a delivery is given up (about a day with the default backoff). */
export const MAX_WEBHOOK_ATTEMPTS = 8;
const TIMEOUT_MS = 10_000;

export interface WebhookRelayOptions {
  db: Db;
  tokens: TokenService;
  log: FastifyBaseLogger;
  /** Whether the owner allows this machine and private networks (Settings → Webhooks). */
  allowPrivate: () => Promise<boolean>;
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  claimSeconds?: number;
}

type Attempt = { status: number | null; error: string | null };

/** POSTs the body to the URL with the headers; resolves with the status, or the error that stopped it. */
function post(url: string, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<Attempt> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  // An address written as an IP is connected to without a lookup: checked here instead.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(literal) && isPrivateAddress(literal))
    return Promise.resolve({ status: null, error: new ForbiddenAddressError(literal).message });
  return new Promise((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        lookup: guardedLookup(allowPrivate),
        timeout: TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? null, error: null });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`No answer within ${TIMEOUT_MS / 1000} seconds`)));
    request.on('error', (error) => resolve({ status: null, error: error.message }));
    request.end(body);
  });
}

/**
 * Sends the webhooks' outbox, as the mail relay sends mail: claims due deliveries (several processes
 * share one database; a claimed one is theirs for a while), signs and POSTs each, and retries a
 * failure with backoff until MAX_WEBHOOK_ATTEMPTS. A 2xx answer is a delivery; a redirect is not
 * followed (it counts as a failure).
 */
export class WebhookRelay {
  private readonly loop: PollingLoop;
  private stopListening: (() => void) | undefined;

  constructor(private readonly options: WebhookRelayOptions) {
    this.loop = new PollingLoop({
      work: () => this.deliverDue(),
      pollMs: options.pollMs,
      failed: (error) => options.log.warn({ err: error }, 'webhook relay could not read its outbox'),
    });
  }

  start(): void {
    if (this.loop.started) return;
    this.stopListening = onCommitted(this.options.db, WEBHOOK_QUEUED, () => this.kick());
    this.loop.start();
  }

  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    this.stopListening?.();
    await this.loop.stop();
  }

  /** Sends every delivery due now; returns how many were tried. */
  async deliverDue(): Promise<number> {
    const batch = await this.claim();
    if (batch.length === 0) return 0;
    const allowPrivate = await this.options.allowPrivate();
    for (const { id } of batch) await this.deliverOne(id, allowPrivate);
    return batch.length;
  }

  private async claim(): Promise<{ id: string }[]> {
    const { db } = this.options;
    const now = sql`now()`;
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          isNull(webhookDeliveries.deliveredAt),
          isNull(webhookDeliveries.failedAt),
          lte(webhookDeliveries.nextAttemptAt, now),
          or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.createdAt))
      .limit(10)
      .for('update', { skipLocked: true });
    return db
      .update(webhookDeliveries)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${this.options.claimSeconds ?? 60})` })
      .where(inArray(webhookDeliveries.id, due))
      .returning({ id: webhookDeliveries.id });
  }

  private async deliverOne(id: string, allowPrivate: boolean): Promise<void> {
    const { db, tokens, log, retryBaseMs, retryMaxMs } = this.options;
    const [row] = await db
      .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, secretSealed: webhookEndpoints.secretSealed })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, id));
    if (!row) return;
    const secret = tokens.unseal(WEBHOOK_SEAL, row.secretSealed);
    const body = JSON.stringify(row.delivery.payload);
    const attempt: Attempt = secret
      ? await post(
          row.url,
          body,
          {
            [SIGNATURE_HEADER]: signatureHeader(secret, Math.floor(Date.now() / 1000), body),
            'x-handyman-event': row.delivery.event,
            'x-handyman-delivery': row.delivery.id,
            'user-agent': 'Handyman-Webhooks/1',
          },
          allowPrivate,
        )
      : { status: null, error: 'The signing secret cannot be read on this install: make the webhook again' };
    const attempts = row.delivery.attempts + 1;
    const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
    if (ok) {
      await db
        .update(webhookDeliveries)
        .set({ deliveredAt: sql`now()`, attempts, lastStatus: attempt.status, lastError: null, lockedUntil: null })
        .where(eq(webhookDeliveries.id, id));
      return;
    }
    const reason = attempt.error ?? `The receiver answered ${attempt.status}`;
    const giveUp = attempts >= MAX_WEBHOOK_ATTEMPTS;
    const delay = backoffMs(attempts, retryBaseMs, retryMaxMs);
    log.warn(
      { deliveryId: id, attempts, reason },
      giveUp ? 'webhook delivery failed; given up' : 'webhook delivery failed; will retry',
    );
    await db
      .update(webhookDeliveries)
      .set({
        attempts,
        lastStatus: attempt.status,
        lastError: reason.slice(0, 500),
        lockedUntil: null,
        ...(giveUp ? { failedAt: sql`now()` } : { nextAttemptAt: sql`now() + make_interval(secs => ${delay / 1000})` }),
      })
      .where(eq(webhookDeliveries.id, id));
    // Due again then, whatever the poll.
    if (!giveUp) this.loop.kickIn(delay + 50);
  }
}
