import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditKind } from '#shared/schemas/audit';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { auditLog, auditPeople } from './tables';

export interface NewAuditEntry {
  userId: string | null;
  actorName: string;
  ip: string;
  kind: AuditKind;
  action: string;
  route?: string;
  target?: string | null;
  details?: Record<string, unknown>;
}

/** Adds an entry to the trail (the only statement the app ever runs on it besides reading). */
export async function recordAudit(db: DbOrTx, entry: NewAuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    id: newId(),
    userId: entry.userId,
    actorName: entry.actorName.slice(0, 200),
    ip: entry.ip.slice(0, 100),
    kind: entry.kind,
    action: entry.action,
    route: entry.route ?? '',
    target: entry.target ?? null,
    details: entry.details ?? {},
  });
}

export interface AuditFilter {
  userId?: string | undefined;
  kind?: AuditKind | undefined;
  /** Instants: from included, to excluded. */
  from?: Date | undefined;
  to?: Date | undefined;
}

function whereOf(filter: AuditFilter): SQL | undefined {
  return and(
    filter.userId ? eq(auditLog.userId, filter.userId) : undefined,
    filter.kind ? eq(auditLog.kind, filter.kind) : undefined,
    filter.from ? gte(auditLog.at, filter.from) : undefined,
    filter.to ? lt(auditLog.at, filter.to) : undefined,
  );
}

/** The trail's pages reach this many entries; older ones are found by narrowing the dates. */
export const AUDIT_COUNT_CAP = 10_000;

/** One page of the trail, newest first (within the newest AUDIT_COUNT_CAP entries that match). */
export async function listAudit(db: Db, filter: AuditFilter, page: number, limit: number) {
  const where = whereOf(filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.seq))
      .limit(limit)
      .offset((page - 1) * limit),
    // Counted up to one past the cap: a count of 200,000 entries would cost more than the page.
    db.select({ n: count() }).from(
      db
        .select({ one: sql`1` })
        .from(auditLog)
        .where(where)
        .limit(AUDIT_COUNT_CAP + 1)
        .as('capped'),
    ),
  ]);
  const entries: AuditEntry[] = rows.map((r) => ({
    _id: r.id,
    at: r.at.toISOString(),
    userId: r.userId,
    actorName: r.actorName,
    ip: r.ip,
    kind: r.kind,
    action: r.action,
    route: r.route,
    target: r.target,
    details: r.details,
  }));
  const n = total?.n ?? 0;
  return { entries, total: Math.min(n, AUDIT_COUNT_CAP), capped: n > AUDIT_COUNT_CAP };
}

/** Everyone in the trail, by the name they last had there (a deleted user included): the kept list. */
export async function listAuditPeople(db: Db): Promise<{ userId: string; name: string }[]> {
  const rows = await db.select({ userId: auditPeople.userId, name: auditPeople.name }).from(auditPeople);
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}
