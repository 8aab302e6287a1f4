import { z } from 'zod';
import { isoDate } from './fields';

/** The parts of the business an audit entry can be about: the Activity page's "Kind" filter. */
export const AUDIT_KINDS = [
  'sign-in',
  'users',
  'clients',
  'requests',
  'quotes',
  'jobs',
  'crew',
  'visits',
  'invoices',
  'settings',
  'mail',
  'data',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  'sign-in': 'Sign-in',
  users: 'Users',
  clients: 'Clients',
  requests: 'Requests',
  quotes: 'Quotes',
  jobs: 'Jobs',
  crew: "The crew's record",
  visits: 'Visits',
  invoices: 'Invoices and payments',
  settings: 'Settings',
  mail: 'E-mail',
  data: 'Backups, exports and imports',
};

const day = isoDate;

/**
 * Where a page of the trail ends, for the next older page: its last entry's time to the microsecond,
 * as PostgreSQL wrote it (a JavaScript date keeps milliseconds, and entries a microsecond apart would
 * be skipped or shown twice), and its seq, which orders entries written at the same time.
 */
export interface AuditCursor {
  /** 2026-11-24T17:03:12.123456Z */
  at: string;
  seq: number;
}

const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})\d{3}Z~(\d{1,15})$/;

/** The cursor as the API hands it out: opaque, safe in an address (base64url, no padding). */
export function encodeAuditCursor(cursor: AuditCursor): string {
  return btoa(`${cursor.at}~${cursor.seq}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The cursor a `before` holds, or null when it is not one this API gave (a real instant and a seq). */
export function decodeAuditCursor(value: string): AuditCursor | null {
  let text: string;
  try {
    text = atob(value.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    return null;
  }
  const match = CURSOR_TEXT.exec(text);
  if (!match) return null;
  const [, millis = '', seq = ''] = match;
  // 2026-02-30 or 25:00 is no instant; year 0 is none to PostgreSQL.
  const real = !Number.isNaN(Date.parse(`${millis}Z`)) && new Date(`${millis}Z`).toISOString() === `${millis}Z`;
  if (!real || millis.startsWith('0000')) return null;
  return { at: text.slice(0, text.indexOf('~')), seq: Number(seq) };
}

const CURSOR_MESSAGE = 'Must be the nextBefore of an earlier page of this list';

const auditCursor = z
  .string()
  .max(100, CURSOR_MESSAGE)
  .transform((value, ctx) => {
    const cursor = decodeAuditCursor(value);
    if (cursor) return cursor;
    ctx.addIssue({ code: 'custom', message: CURSOR_MESSAGE });
    return z.NEVER;
  });

/**
 * GET /api/audit: newest first, filtered by person, kind and days (the business's dates, both included).
 * A page is either numbered (`page`, by position: links to the first pages) or the `limit` entries
 * older than a cursor (`before`, by time: as far back as the trail goes, as cheap at its end as at
 * its start).
 */
export const auditQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    userId: z.string().max(64).optional(),
    kind: z.enum(AUDIT_KINDS).optional(),
    from: day.optional(),
    to: day.optional(),
    before: auditCursor.optional(),
  })
  .refine((q) => !(q.before && q.page > 1), {
    message: 'Give a page or a cursor (before), not both',
    path: ['page'],
  });
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  userId: z.string().nullable(),
  actorName: z.string(),
  ip: z.string(),
  kind: z.string(),
  action: z.string(),
  route: z.string(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  /**
   * The invoice, job or request the entry touched, by the name people use ("Invoice INV-2026-0042"),
   * and whether it still exists (its page can be opened); null for anything else.
   */
  record: z
    .object({ kind: z.enum(['invoice', 'job', 'request']), id: z.string(), label: z.string(), exists: z.boolean() })
    .nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export type AuditRecord = NonNullable<AuditEntry['record']>;

export const auditList = z.object({
  entries: z.array(auditEntry),
  totalPages: z.number(),
  /** How many match, up to 10,000 (the pages reach no further)… */
  total: z.number(),
  /** …and whether more than that match: the numbered pages stop there, `before` goes on. */
  capped: z.boolean(),
  /** The cursor (`before`) of the next older page, or null when nothing older matches. */
  nextBefore: z.string().nullable(),
  /** Everyone who appears in the trail, for the person filter (deleted users by their last name). */
  people: z.array(z.object({ userId: z.string(), name: z.string() })),
});
export type AuditList = z.infer<typeof auditList>;
