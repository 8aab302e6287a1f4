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

/** GET /api/audit: newest first, filtered by person, kind and days (the business's dates, both included). */
export const auditQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  userId: z.string().max(64).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  from: day.optional(),
  to: day.optional(),
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
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditList = z.object({
  entries: z.array(auditEntry),
  totalPages: z.number(),
  /** How many match, up to 10,000 (the pages reach no further)… */
  total: z.number(),
  /** …and whether more than that match: older entries are found by narrowing the dates. */
  capped: z.boolean(),
  /** Everyone who appears in the trail, for the person filter (deleted users by their last name). */
  people: z.array(z.object({ userId: z.string(), name: z.string() })),
});
export type AuditList = z.infer<typeof auditList>;
