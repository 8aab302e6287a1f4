import type { FastifyInstance, FastifyRequest } from 'fastify';
import { staffName } from '../users';
import type { AuditKind } from '#shared/schemas/audit';
import { describeRefusal, redact } from './describe';
import { recordAudit, type NewAuditEntry } from './repository';
import { carryInNextTransaction, type CarriedWrite } from '../db/client';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the Activity page says a successful call did, in its words: every staff write declares it
     * (checked at start-up, like `access`), and a GET that takes data away (exports, backups) too;
     * false: a write that changes nothing is not recorded (a preview).
     */
    audit?: false | { kind: AuditKind; action: string };
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

/** Whether a route's successful answers go into the trail: the routes that say what they did. */
function audited(request: FastifyRequest): boolean {
  return Boolean(request.routeOptions.config.audit);
}

/**
 * The trail entry for a signed-in staff member's request, or null: a successful action of an audited
 * route, or any request refused with 403 (an attempt at what the role may not do).
 */
export function auditEntryOf(request: FastifyRequest, statusCode: number): NewAuditEntry | null {
  const user = request.user;
  const url = request.routeOptions.url;
  if (!user || !url?.startsWith('/api')) return null;
  const refused = statusCode === 403;
  if (!refused && (statusCode >= 400 || !audited(request))) return null;
  const described = request.routeOptions.config.audit || describeRefusal(request.method, url);
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const { kind } = described;
  // Which export: "Exported data (clients.csv)".
  const action = params.dataset ? `${described.action} (${params.dataset})` : described.action;
  return {
    userId: user.id,
    actorName: staffName(user),
    ip: request.ip,
    kind,
    action: refused ? `Refused: ${action}` : action,
    route: `${request.method} ${url}`,
    target: params.id ?? params.quoteId ?? params.dataset ?? null,
    details: detailsOf(request),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The trail entry waiting for the request's transaction (decision 023). */
    auditCarried: CarriedWrite | null;
  }
}

/**
 * Every staff action that succeeds is in the trail, stored by the transaction that stores the action:
 * an audited route's handler runs with its entry pending, and the first transaction that commits
 * during it writes the entry just before its commit (`carryPendingWrites`), so the change and its
 * entry are kept together or not at all. A request that committed no transaction (a GET that takes
 * data away) gets its entry before its answer leaves; if that fails, the answer is an error.
 * Refusals (403) of a signed-in user are recorded too.
 */
export function registerAudit(app: FastifyInstance): void {
  app.decorateRequest('auditCarried', null);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!url.startsWith('/api') || route.config?.access === 'public') return;
    const methods = [route.method].flat();
    const audit = route.config?.audit;
    if (audit === undefined && methods.some((m) => WRITES.has(m)))
      throw new Error(`Route ${methods.join(',')} ${url} does not say what the audit trail records (config.audit)`);
    if (!audit) return;
    const handler = route.handler;
    route.handler = function auditedHandler(this: FastifyInstance, request, reply) {
      if (!request.user || !audited(request)) return handler.call(this, request, reply);
      const carried: CarriedWrite = {
        state: 'pending',
        write: async (tx) => {
          const entry = auditEntryOf(request, 200);
          if (entry) await recordAudit(tx, entry);
        },
      };
      request.auditCarried = carried;
      const settled = () => {
        if (carried.state === 'pending') carried.state = 'closed';
      };
      const result = carryInNextTransaction(carried, () => handler.call(this, request, reply));
      if (result && typeof (result as Promise<unknown>).then === 'function') {
        return (result as Promise<unknown>).finally(settled);
      }
      settled();
      return result;
    } as typeof handler;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const carried = request.auditCarried;
    if (carried?.state === 'done' || carried?.state === 'carried') return payload;
    const entry = auditEntryOf(request, reply.statusCode);
    if (entry) {
      if (carried) carried.state = 'done';
      if (WRITES.has(request.method) && reply.statusCode < 400)
        request.log.warn(
          { route: entry.route },
          'an audited write committed no transaction: its entry is written after it',
        );
      await recordAudit(app.db, entry);
    }
    return payload;
  });
}
