import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable } from 'drizzle-orm/pg-core';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * One number that grows whenever the owner's figures may change (quotes, jobs, the crew's
 * reports, invoices, payments, the settings, service plans, a request's status): deferred triggers
 * (migrations 0027 and 0060) add one at each such commit. The dashboard, Reports, Needs you today and the
 * invoice list's counts are answered from a cache while it stands (cache.ts).
 */
export const figuresVersion = pgTable(
  'figures_version',
  {
    id: integer('id').primaryKey().default(1),
    v: bigint('v', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('figures_version_single_row', sql`${t.id} = 1`)],
);
