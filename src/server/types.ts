import type { Config } from './config';
import type { SettingsSource } from './lib/business';
import type { Counters } from './lib/counters';
import type { Database, Db } from './db/client';
import type { DocumentStore } from './documents';
import type { MailRelay } from './mail/relay';
import type { WebhookRelay } from './webhooks/relay';
import type { TextRelay } from './texts/relay';
import type { JobBoard } from './lib/job-board';
import type { Metrics } from './plugins/metrics';
import type { TokenService } from './lib/tokens';
import type { QuoteStatusCache } from './quote-requests/status-cache';
import type { PlanInvoicing } from './lib/plan-invoicing';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    tokens: TokenService;
    mail: MailRelay;
    /** The webhooks' outbox relay (decision 044). */
    webhooks: WebhookRelay;
    /** The text messages' relay (decision 045). */
    texts: TextRelay;
    /** Recently looked-up request statuses (the public status lookup). */
    quoteStatus: QuoteStatusCache;
    /** Expiring counters (sign-in failures), shared through Redis when REDIS_URL is set. */
    counters: Counters;
    /** Whether Redis answers (REDIS_URL set), for /api/health; undefined without REDIS_URL. */
    redisState: () => 'up' | 'down' | undefined;
    /** The business's details and rules as the owner set them on the Settings page. */
    settings: SettingsSource;
    /** PDFs drawn off the event loop and stored once (decision 022). */
    documents: DocumentStore;
    /** The background jobs' last and next runs (the System page, the metrics; decision 039). */
    jobs: JobBoard;
    /** Repeating visits' invoices: the invoices feature's, for the visits feature (decision 047). */
    planInvoices: PlanInvoicing;
    /** Prometheus metrics, when METRICS_PORT is set (decision 039). */
    metrics: Metrics | undefined;
  }
}
