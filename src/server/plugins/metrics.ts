import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics port reports: numbers about the machinery, never a person's data (decision 039). */
export interface Metrics {
  registry: Registry;
  /** Starts the metrics server on METRICS_PORT (METRICS_HOST); closed with the app. Returns its address. */
  listen(): Promise<AddressInfo>;
}

/** The outbox's depth, read when the scraper asks (not per request). */
export type OutboxDepth = () => Promise<{ waiting: number; failing: number; scheduled: number }>;

/**
 * Prometheus metrics with prom-client, registered only when METRICS_PORT is set: each request counted
 * and timed by its route's pattern (never its address, which carries ids and tokens), the outbox's
 * depth, and the background jobs' runs. They are served on a port of their own, not the site's.
 */
export function registerMetrics(app: FastifyInstance, outboxDepth: OutboxDepth): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status code',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'mail_outbox_messages',
    help: 'E-mails not yet sent: waiting (due now), failing (tried and failed), scheduled (reminders)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const depth = await outboxDepth();
      this.set({ state: 'waiting' }, depth.waiting);
      this.set({ state: 'failing' }, depth.failing);
      this.set({ state: 'scheduled' }, depth.scheduled);
    },
  });
  const jobRuns = new Counter({
    name: 'background_job_runs_total',
    help: 'Runs of the background jobs (mail relay, backups, payments check, red-line e-mail), by outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'background_job_duration_seconds',
    help: 'Time a background job run took',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 30, 120, 600],
    registers: [registry],
  });
  app.jobs.onRun((job, outcome, seconds) => {
    jobRuns.inc({ job, outcome });
    jobSeconds.observe({ job }, seconds);
  });

  app.addHook('onResponse', (request, reply, done) => {
    // The pattern ("/api/quotes/:id"), bounded by the routes there are; a 404 has none.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  let server: http.Server | undefined;
  app.addHook('onClose', async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  });

  return {
    registry,
    async listen() {
      server = http.createServer((req, res) => {
        if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
          return;
        }
        registry
          .metrics()
          .then((body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body))
          .catch(() => res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read\n'));
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(app.config.METRICS_PORT ?? 0, app.config.METRICS_HOST, () => resolve());
      });
      return server.address() as AddressInfo;
    },
  };
}
