import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, oneOf, createdAt } from '../db/columns';
import { jobs } from '../jobs/tables';
import { users } from '../users/tables';
import { visits } from '../visits/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/** What to do on the job: the sold quote's lines (copied once) and the crew's own items. */
export const jobChecklistItems = pgTable(
  'job_checklist_items',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    /** Copied from the sold quote (kept; the crew's own items can be removed). */
    fromQuote: boolean('from_quote').notNull().default(false),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    doneBy: text('done_by').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('job_checklist_items_job_idx').on(t.jobId, t.position)],
);

/**
 * Time on a job: a timer (started, then stopped) or hours entered for a day. Minutes are set when a
 * timer stops or hours are entered; a running timer has none. A worker runs one timer at a time.
 */
export const jobTimeEntries = pgTable(
  'job_time_entries',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    visitId: text('visit_id').references(() => visits.id, { onDelete: 'set null' }),
    /** The business's date the work was on. */
    workDate: date('work_date', { mode: 'string' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    minutes: integer('minutes'),
    createdAt: createdAt(),
  },
  (t) => [
    index('job_time_entries_job_idx').on(t.jobId, t.workDate),
    check('job_time_entries_kind', sql`${t.startedAt} is not null or ${t.minutes} is not null`),
    check('job_time_entries_minutes', sql`${t.minutes} is null or ${t.minutes} between 0 and 1440`),
    check('job_time_entries_order', sql`${t.endedAt} is null or ${t.endedAt} >= ${t.startedAt}`),
    uniqueIndex('job_time_entries_one_running_idx')
      .on(t.userId)
      .where(sql`${t.startedAt} is not null and ${t.endedAt} is null`),
  ],
);

/** Materials used beyond the quote; the office prices them (or they come priced from the price list). */
export const jobMaterials = pgTable(
  'job_materials',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 2 }).notNull(),
    /** Null until the office prices it. */
    unitPriceCents: bigint('unit_price_cents', { mode: 'number' }),
    addedBy: text('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('job_materials_job_idx').on(t.jobId, t.createdAt)],
);

/** Photos the crew takes on the job, before and after, re-encoded without metadata like the request's. */
export const jobPhotos = pgTable(
  'job_photos',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    stage: text('stage').$type<'before' | 'after'>().notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    data: bytea('data').notNull(),
    thumbnail: bytea('thumbnail').notNull(),
    takenBy: text('taken_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('job_photos_stage_check', t.stage, ['before', 'after']),
    index('job_photos_job_idx').on(t.jobId, t.createdAt),
  ],
);

/**
 * The rest of the crew's record, one row per job: notes for the office, the client's signature, and the
 * report made when the job was completed.
 */
export const jobRecords = pgTable('job_records', {
  jobId: text('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  /** For the office only: never on the client's report. */
  crewNotes: text('crew_notes').notNull().default(''),
  /** The crew's note to the client, printed on their report. */
  clientNote: text('client_note').notNull().default(''),
  /** The sold quote's lines were copied into the checklist (once). */
  checklistSeededAt: timestamp('checklist_seeded_at', { withTimezone: true, mode: 'date' }),
  signedName: text('signed_name'),
  signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }),
  /** The signature as a PNG, re-encoded from what the phone drew. */
  signature: bytea('signature'),
  report: bytea('report'),
  reportAt: timestamp('report_at', { withTimezone: true, mode: 'date' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The newest change applied to each thing on a job's record (a checklist item, a time entry, a material,
 * the notes, the note to the client): when the phone made it and its id (decision 026). A change older
 * than the one applied is skipped, a deleted thing keeps its row so that a late older change does not
 * bring it back, and the same change sent twice is applied once.
 */
export const jobRecordVersions = pgTable(
  'job_record_versions',
  {
    /** `<jobId>:checklist/<id>`, `<jobId>:time/<id>`, `<jobId>:materials/<id>`, `<jobId>:notes`, `<jobId>:client-note`. */
    target: text('target').primaryKey(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    changedAt: timestamp('changed_at', { withTimezone: true, mode: 'date' }).notNull(),
    changeId: text('change_id').notNull(),
  },
  (t) => [index('job_record_versions_job_idx').on(t.jobId)],
);

/*
 * Invoices and payments (issue 17). Money in integer cents; an invoice is numbered when it is sent.
 */
