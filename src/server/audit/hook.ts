import type { FastifyInstance, FastifyRequest } from 'fastify';
import { staffName } from '../users';
import { describeRoute, redact } from './describe';
import { recordAudit, type NewAuditEntry } from './repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * true: record a successful GET too (exports, backups: reading that takes data away); false: do not
     * record this POST (a preview that changes nothing).
     */
    audit?: boolean;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function detailsOf(request: FastifyRequest): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  const body = request.body;
  if (Buffer.isBuffer(body)) details.file = `(${body.length} bytes)`;
  else if (body && typeof body === 'object') details.changes = redact(body);
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query === 'object' && Object.keys(query).length > 0) details.query = redact(query);
  const params = request.params as Record<string, unknown> | undefined;
  if (params && typeof params === 'object' && Object.keys(params).length > 1) details.params = redact(params);
  return details;
}

/** The trail entry for a request, or null when it is not a staff action that succeeded. */
export function auditEntryOf(request: FastifyRequest, statusCode: number): NewAuditEntry | null {
  const user = request.user;
  const url = request.routeOptions.url;
  if (!user || !url?.startsWith('/api') || statusCode >= 400) return null;
  const audit = request.routeOptions.config.audit;
  if (audit === false || (!WRITES.has(request.method) && !audit)) return null;
  const described = describeRoute(request.method, url);
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const { kind } = described;
  // Which export: "Exported data (clients.csv)".
  const action = params.dataset ? `${described.action} (${params.dataset})` : described.action;
  return {
    userId: user.id,
    actorName: staffName(user),
    ip: request.ip,
    kind,
    action,
    route: `${request.method} ${url}`,
    target: params.id ?? params.quoteId ?? params.dataset ?? null,
    details: detailsOf(request),
  };
}

/**
 * Every staff action that succeeds is written to the trail before its answer leaves, so the answer
 * the office sees means the trail has it. The route's own transaction has committed by then; if the
 * trail cannot be written the answer becomes an error (the change stays: decision 018).
 */
export function registerAudit(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const entry = auditEntryOf(request, reply.statusCode);
    if (entry) await recordAudit(app.db, entry);
    return payload;
  });
}
