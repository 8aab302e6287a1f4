import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * Documents drawn for clients (invoice and quote PDFs), stored once per version: served as they were
 * e-mailed, redrawn only when what they print changes (decision 022).
 */
export const documents = pgTable('documents', {
  /** What it is a copy of: `invoice:<id>`, `quote:<id>`. */
  key: text('key').primaryKey(),
  /** A fingerprint of everything it printed: a different one means it must be drawn again. */
  version: text('version').notNull(),
  contentType: text('content_type').notNull().default('application/pdf'),
  size: integer('size').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});
