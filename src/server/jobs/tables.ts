import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { JOB_STATUSES, type JobStatus } from '#shared/constants';
import { oneOf, createdAt } from '../db/columns';
import { clientAddresses, clients } from '../clients/tables';
import { quoteRequests } from '../quote-requests/tables';
import { quotes } from '../quotes/tables';
import { users } from '../users/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    quoteId: text('quote_id').references(() => quotes.id, { onDelete: 'set null' }),
    quoteRequestId: text('quote_request_id').references(() => quoteRequests.id, { onDelete: 'set null' }),
    /** The client the job is for (their request's), so every screen links their page. */
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    /** The client's service address the job is at (street… are its copy, what the crew reads). */
    serviceAddressId: text('service_address_id').references(() => clientAddresses.id, { onDelete: 'set null' }),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone').notNull().default(''),
    street: text('street').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status').$type<JobStatus>().notNull().default('Not Started'),
    /** Why the job was cancelled, and the status it had (an undo puts it back). */
    cancelReason: text('cancel_reason'),
    statusBeforeCancel: text('status_before_cancel').$type<JobStatus>(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('jobs_status_check', t.status, JOB_STATUSES),
    index('jobs_created_idx').on(t.createdAt, t.id),
    index('jobs_status_idx').on(t.status),
    index('jobs_client_idx').on(t.clientId),
    index('jobs_contact_name_trgm_idx').using('gin', sql`${t.contactName} gin_trgm_ops`),
  ],
);

export const jobWorkers = pgTable(
  'job_workers',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    assignedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.userId] }), index('job_workers_user_idx').on(t.userId)],
);
