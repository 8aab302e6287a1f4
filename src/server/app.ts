import compress from '@fastify/compress';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import './types';
import { apiKeyRoutes, authRoutes, registerAuth, sessionRoutes, twoStepRoutes } from './auth';
import { auditRoutes, registerAudit } from './audit';
import { pinClientAddress } from './lib/client-address';
import { backupRoutes } from './backups';
import { bookEstimate, bookingRoutes } from './booking';
import { exportRoutes } from './exports';
import { JobBoard } from './lib/job-board';
import { createTokenService, loadSigningKey } from './lib/tokens';
import type { PlanInvoicing } from './lib/plan-invoicing';
import type { Config } from './config';
import type { Database } from './db/client';
import { contactRoutes } from './contact';
import { healthRoutes } from './health';
import { systemRoutes } from './system';
import { publicQuoteRequestRoutes, requestStatusCache, staffQuoteRequestRoutes } from './quote-requests';
import { scheduleRoutes, sealLegacyFeedTokens, userRoutes } from './users';
import {
  createJobForAcceptedQuote,
  employeeRoutes,
  followAddressChange,
  jobRoutes,
  openJobsAtAddress,
  type CompleteJob,
  type JobLifecycle,
} from './jobs';
import { clientQuoteRoutes, quoteRoutes, requestIdOfQuote, type OnQuoteAccepted } from './quotes';
import { dashboardRoutes } from './dashboard';
import { activityRoutes } from './activity';
import { clientPageBlock, clientPageRoutes, clientRoutes, notePageLinkSent } from './clients';
import { clientPageOf } from './client-page';
import { clientHistory } from './client-history';
import { clientTimeline } from './client-status';
import {
  confirmVisit,
  endComingVisits,
  endEstimateVisits,
  nextVisitOfRequest,
  restoreComingVisits,
  servicePlanRoutes,
  visitRoutes,
} from './visits';
import { completeJob, jobRecordRoutes } from './job-records';
import {
  clientInvoicePaths,
  invoiceRoutes,
  issueDepositInvoice,
  issuePlanInvoice,
  noticeOpenDeposit,
} from './invoices';
import { onlineState, paymentRoutes, paysOnline } from './payments';
import { reportRoutes } from './reports';
import { logoRoutes, settingsRoutes, SettingsStore } from './settings';
import { priceBookRoutes } from './price-book';
import { DocumentStore } from './documents';
import { fileTransport, mailRoutes, MailRelay, outboxState, smtpTransport, type MailTransport } from './mail';
import { emitWebhook, webhookRoutes, WebhookRelay } from './webhooks';
import {
  emailInsteadOfText,
  parseQuietHours,
  STATUS_CALLBACK_PATH,
  textAccountNow,
  textLinkRoutes,
  textRoutes,
  TextRelay,
} from './texts';
import { registerMetrics } from './plugins/metrics';
import { registerApiDocs } from './plugins/docs';
import { registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { connectRedis, REDIS_TIMEOUT_MS, redisReady, registerRateLimit } from './plugins/rate-limit';
import { memoryCounters, resilientCounters } from './lib/counters';
import { registerSecurityHeaders } from './plugins/security';
import { registerWeb, siteRoutes } from './site';
import { webDistDir } from './paths';
import { loggerOptions } from './lib/logging';
import path from 'node:path';

export interface AppOptions {
  config: Config;
  database: Database;
  /** Where mail goes; defaults to SMTP_URL, or .eml files under DATA_DIR/mail. */
  mailTransport?: MailTransport;
  logger?: FastifyServerOptions['logger'];
  /** The built web app to serve; defaults to dist/web. */
  webRoot?: string;
}

/**
 * Fastify's own hop count refuses every proxy (it cannot check the peer); a hop count here trusts
 * that many hops, as proxy-addr defines it, for a proxy whose address changes. Addresses are safer.
 */
export function trustProxyOption(
  setting: Config['TRUST_PROXY'],
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** 3 MB of photos grow by a third as data URLs, plus the form's text. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * Builds the app in a fixed order: external plugins, then the app's shared objects (database,
 * tokens, mail relay, the access guard), then the feature routes, then the web app.
 */
export async function buildApp(options: AppOptions) {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.LOG_LEVEL),
    bodyLimit: BODY_LIMIT_BYTES,
    // A client that trickles its headers or body cannot hold a connection for minutes; Node checks
    // every second rather than every 30.
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    http: { headersTimeout: config.HEADERS_TIMEOUT_SECONDS * 1000, connectionsCheckingInterval: 1000 },
    // Only the proxies TRUST_PROXY names may set the client's address; by default the socket's counts.
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true },
  });
  pinClientAddress(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  registerSecurityHeaders(app, config);
  await app.register(compress, { threshold: 1024 });
  const redis = await connectRedis(app, config);
  await registerRateLimit(app, redis);
  app.decorate('counters', redis ? resilientCounters(redis, 'handyman-ctr:', REDIS_TIMEOUT_MS) : memoryCounters());
  app.decorate('redisState', () => (redis ? (redisReady(redis) ? 'up' : 'down') : undefined));
  await registerApiDocs(app);

  const transport =
    options.mailTransport ??
    (config.SMTP_URL
      ? smtpTransport(config.SMTP_URL, config.MAIL_FROM)
      : fileTransport(path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM, app.log));
  // The business's details live in the database; BUSINESS_* only seed them on the first start.
  const settings = new SettingsStore(database.db, config, database.kind === 'pglite');
  await settings.seed();
  await settings.load();
  const documents = new DocumentStore(database.db);
  const jobs = new JobBoard();
  const relay = new MailRelay({
    db: database.db,
    transport,
    log: app.log.child({ component: 'mail-relay' }),
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    retryMaxMs: config.MAIL_RETRY_MAX_MS,
    pollMs: config.MAIL_POLL_MS,
    claimSeconds: config.MAIL_CLAIM_SECONDS,
    // Mail comes from the business by its current name (MAIL_FROM gives the address); replies go to
    // the business's e-mail, not to MAIL_FROM's no-reply address.
    sender: async () => {
      const { name, email } = await settings.current();
      return { name, replyTo: email };
    },
    // A PDF attached by reference is read (or drawn) when its message is sent, one message at a time.
    document: (key, drawn) => documents.ifReady(key, drawn),
    // A message to a client carries the signed link to their own page (decision 036).
    clientPage: (to) => clientPageBlock(app, to),
    board: jobs,
  });
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate(
    'tokens',
    createTokenService(loadSigningKey(config.JWT_SECRET, config.DATA_DIR), config.TOKEN_TTL_HOURS),
  );
  // Calendar feeds made before their tokens were sealed keep their addresses (decision 024).
  await sealLegacyFeedTokens(database.db, app.tokens);
  // A document drawn after its commit wakes the relay, whose message may be waiting for it.
  documents.whenDrawn(() => relay.kick());
  app.decorate('mail', relay);
  // The webhooks' outbox, sent like mail (decision 044): started with the mail relay.
  app.decorate(
    'webhooks',
    new WebhookRelay({
      db: database.db,
      tokens: app.tokens,
      log: app.log.child({ component: 'webhook-relay' }),
      allowPrivate: async () => (await settings.current()).webhooksAllowPrivate,
      pollMs: config.MAIL_POLL_MS,
      retryBaseMs: config.MAIL_RETRY_BASE_MS,
      retryMaxMs: config.MAIL_RETRY_MAX_MS,
    }),
  );
  // Texts to clients, sent like mail (decision 045): started with the mail relay.
  app.decorate(
    'texts',
    new TextRelay({
      db: database.db,
      log: app.log.child({ component: 'text-relay' }),
      provider: () => textAccountNow(app),
      timeZone: async () => (await settings.current()).timeZone,
      quietHours: parseQuietHours(config.TEXTS_QUIET_HOURS),
      emailInstead: (row) => emailInsteadOfText(app, row),
      statusCallback: `${config.PUBLIC_URL}${STATUS_CALLBACK_PATH}`,
      publicUrl: config.PUBLIC_URL,
      pollMs: config.MAIL_POLL_MS,
      retryBaseMs: config.MAIL_RETRY_BASE_MS,
      retryMaxMs: config.MAIL_RETRY_MAX_MS,
      claimSeconds: config.MAIL_CLAIM_SECONDS,
      pageLinkSent: (clientId) => notePageLinkSent(app, clientId),
      board: jobs,
    }),
  );
  app.decorate('quoteStatus', requestStatusCache(database.db));
  app.decorate('settings', settings);
  app.decorate('documents', documents);
  app.decorate('jobs', jobs);
  app.decorate('planInvoices', { issue: (tx, bill) => issuePlanInvoice(app, tx, bill) } satisfies PlanInvoicing);
  // Prometheus metrics on a port of their own, only when METRICS_PORT is set (decision 039).
  app.decorate(
    'metrics',
    config.METRICS_PORT === undefined
      ? undefined
      : registerMetrics(app, async () => {
          const state = await outboxState(database.db);
          return { waiting: state.waiting, failing: state.failing, scheduled: state.reminders.scheduled };
        }),
  );
  // While shutting down, answers close their connection so keep-alive sockets do not hold the exit.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // Closing the app lets the relay finish the message it is sending; the database is closed by its owner.
  app.addHook('onClose', async () => {
    await Promise.all([relay.stop(), app.webhooks.stop(), app.texts.stop()]);
  });
  registerAuth(app);
  registerAudit(app);
  registerInputGuard(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(twoStepRoutes);
      await api.register(sessionRoutes);
      await api.register(apiKeyRoutes);
      // The public status lookup also takes a quote's number (QT…), which the quotes feature resolves.
      // … and shows the next visit, which the visits feature knows; the status page's timeline reads
      // the features that build on requests.
      await api.register(publicQuoteRequestRoutes, {
        bookEstimate: (tx, request, pick) => bookEstimate(app, tx, request, pick),
        requestIdOfQuote,
        nextVisitOf: nextVisitOfRequest,
        timelineOf: clientTimeline,
      });
      await api.register(contactRoutes);
      // A declined request's estimate visit is called off, the client's calendar entry with it.
      await api.register(staffQuoteRequestRoutes, { declined: endEstimateVisits });
      await api.register(userRoutes);
      // A job's end calls off its visits still to come (the client told) and their reminders, and tells
      // the office of an open deposit; reopening it books those visits again, with their reminders. Whoever ends it (the crew, the office), the same steps.
      const lifecycle: JobLifecycle = {
        closed: async (tx, job, how, business) => {
          await endComingVisits(tx, business, job, how);
          await noticeOpenDeposit(app, tx, job, how, business);
          if (how === 'Completed')
            await emitWebhook(tx, 'job.completed', {
              jobId: job.id,
              quoteRequestId: job.quoteRequestId,
              clientName: job.contactName,
              address: { street: job.street, city: job.city, state: job.state, zip: job.zip },
            });
        },
        reopened: async (tx, job, business) => restoreComingVisits(tx, business, job),
      };
      const complete: CompleteJob = (app, jobId, options) => completeJob(app, jobId, { ...options, lifecycle });
      await api.register(jobRoutes, { completeJob: complete, lifecycle });
      await api.register(employeeRoutes, { completeJob: complete });
      await api.register(jobRecordRoutes, { lifecycle });
      await api.register(invoiceRoutes);
      await api.register(paymentRoutes);
      await api.register(reportRoutes);
      await api.register(scheduleRoutes);
      await api.register(quoteRoutes);
      // Jobs build on quotes: the app tells the client's answer what a yes starts.
      // A client's yes: the job, and the deposit's invoice when the quote asks one, in one transaction.
      const onAccepted: OnQuoteAccepted = async (tx, quote, request, context) => {
        const jobId = await createJobForAcceptedQuote(tx, quote, request);
        const depositInvoiceId = await issueDepositInvoice(app, tx, jobId, context);
        return { jobId, depositInvoiceId: depositInvoiceId ?? null };
      };
      // … and whether the deposit is paid online (payments build on invoices): "Accept and pay the deposit".
      await api.register(clientQuoteRoutes, {
        onAccepted,
        depositPaysOnline: () => paysOnline(app, 'deposit'),
        depositDocuments: async (invoiceId) => {
          const links = await clientInvoicePaths(app, invoiceId);
          return { page: links.page, checkout: (await onlineState(app, invoiceId)).available ? links.checkout : null };
        },
      });
      await api.register(dashboardRoutes);
      await api.register(settingsRoutes, { store: settings });
      await api.register(priceBookRoutes);
      await api.register(activityRoutes);
      await api.register(auditRoutes);
      await api.register(backupRoutes);
      await api.register(exportRoutes);
      await api.register(mailRoutes);
      await api.register(webhookRoutes);
      await api.register(bookingRoutes);
      await api.register(textRoutes, {
        confirmVisit: (visitId, clientId, remindedAt) => confirmVisit(app, visitId, clientId, 'text', remindedAt),
      });
      // A client's page lists their requests, quotes and jobs: features that build on clients.
      await api.register(clientRoutes, {
        historyOf: clientHistory,
        addressUsers: { openJobsAt: openJobsAtAddress, followChange: followAddressChange },
      });
      // … and their own page, behind one signed link (decision 036).
      await api.register(clientPageRoutes, {
        pageOf: clientPageOf,
        confirmVisit: (app, visitId, clientId) => confirmVisit(app, visitId, clientId, 'page'),
      });
      await api.register(visitRoutes);
      await api.register(servicePlanRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(siteRoutes);
  await app.register(textLinkRoutes);
  await app.register(logoRoutes, { store: settings });
  await registerWeb(app, options.webRoot ?? webDistDir);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
