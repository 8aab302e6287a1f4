import { and, count, desc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm';
import { encodeAuditCursor, type AuditCursor, type AuditEntry, type AuditKind } from '#shared/schemas/audit';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { preparedStatement } from '../db/prepared';
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

/** The numbered pages reach this many entries (the count stops there); `before` goes on past them. */
export const AUDIT_COUNT_CAP = 10_000;

/**
 * The filters (who, what kind, from, to) whose count has passed the cap, per database: the trail is
 * append-only (its trigger refuses any change or removal, migration 0015), so such a count never falls
 * back under it, and reading 10,001 index entries again for every page was the Activity page's costliest
 * query on the embedded database. At most CAPPED_KEPT filters are remembered, the oldest forgotten first.
 */
const cappedByDatabase = new WeakMap<object, Set<string>>();
const CAPPED_KEPT = 500;

function cappedCounts(db: Db): Set<string> {
  let capped = cappedByDatabase.get(db);
  if (!capped) cappedByDatabase.set(db, (capped = new Set()));
  return capped;
}

function remember(capped: Set<string>, key: string) {
  capped.add(key);
  if (capped.size > CAPPED_KEPT) capped.delete(capped.values().next().value!);
}

const keyOf = (filter: AuditFilter) =>
  [filter.userId ?? '', filter.kind ?? '', filter.from?.toISOString() ?? '', filter.to?.toISOString() ?? ''].join('|');

/** Which page: numbered from the newest (by OFFSET, for the first pages), or the entries older than a cursor. */
export type AuditPage = { page: number; before?: undefined } | { before: AuditCursor };

const pageColumns = {
  ...getTableColumns(auditLog),
  // The time as PostgreSQL keeps it, to the microsecond, for the cursor.
  exactAt: sql<string>`to_char(${auditLog.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};
const pageOf = (db: Db, where: SQL | undefined) =>
  db.select(pageColumns).from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.seq)).$dynamic();
/** The numbered pages without a filter, which the Activity page opens on: prepared (decision 006). */
const everyonePage = preparedStatement((db) =>
  pageOf(db, undefined).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare('audit_page'),
);

/**
 * One page of the trail, newest first (`at desc, seq desc`), and the cursor of the next older page.
 * Older than a cursor is a row comparison on (at, seq): the trail's time index (audit_log_at_idx), or
 * the person's or kind's (user_id, at / kind, at) from the cursor's time on, so a page 200,000 entries
 * back costs what the first does.
 */
export async function listAudit(db: Db, filter: AuditFilter, which: AuditPage, limit: number) {
  const where = whereOf(filter);
  const older = which.before
    ? sql`(${auditLog.at}, ${auditLog.seq}) < (${which.before.at}::timestamptz, ${which.before.seq}::bigint)`
    : undefined;
  const capped = cappedCounts(db);
  const filterKey = keyOf(filter);
  const offset = which.before ? 0 : (which.page - 1) * limit;
  const [rows, [total]] = await Promise.all([
    // One more than the page: whether anything older matches.
    where || older
      ? pageOf(db, and(where, older))
          .limit(limit + 1)
          .offset(offset)
      : everyonePage(db).execute({ limit: limit + 1, offset }),
    // Counted up to one past the cap: a count of 200,000 entries would cost more than the page. A
    // filter already counted past it is not counted again (cappedCounts).
    capped.has(filterKey)
      ? [{ n: AUDIT_COUNT_CAP + 1 }]
      : db.select({ n: count() }).from(
          db
            .select({ one: sql`1` })
            .from(auditLog)
            .where(where)
            .limit(AUDIT_COUNT_CAP + 1)
            .as('capped'),
        ),
  ]);
  if ((total?.n ?? 0) > AUDIT_COUNT_CAP) remember(capped, filterKey);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const entries: AuditEntry[] = page.map((r) => ({
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
    record: null,
  }));
  const n = total?.n ?? 0;
  return {
    entries,
    total: Math.min(n, AUDIT_COUNT_CAP),
    capped: n > AUDIT_COUNT_CAP,
    nextBefore: rows.length > limit && last ? encodeAuditCursor({ at: last.exactAt, seq: last.seq }) : null,
  };
}

const people = preparedStatement((db) =>
  db.select({ userId: auditPeople.userId, name: auditPeople.name }).from(auditPeople).prepare('audit_people'),
);
/** Everyone in the trail, by the name they last had there (a deleted user included): the kept list. */
export async function listAuditPeople(db: Db): Promise<{ userId: string; name: string }[]> {
  const rows = await people(db).execute();
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}
