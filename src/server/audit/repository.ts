import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditKind } from '../../shared/schemas/audit';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { auditLog } from '../db/schema';

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

/** One page of the trail, newest first. */
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
    db.select({ n: count() }).from(auditLog).where(where),
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
  return { entries, total: total?.n ?? 0 };
}

/** Everyone in the trail, by the name they last had there (a deleted user included). */
export async function auditPeople(db: Db): Promise<{ userId: string; name: string }[]> {
  const result = (await db.execute(sql`
    select distinct on (user_id) user_id as "userId", actor_name as "name"
    from ${auditLog} where user_id is not null
    order by user_id, at desc`)) as { rows: { userId: string; name: string }[] };
  return result.rows.sort((a, b) => a.name.localeCompare(b.name));
}
