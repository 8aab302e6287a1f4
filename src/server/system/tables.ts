import { date, jsonb, pgTable } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * The owner's daily e-mail of the System page's red lines (decision 039): one row per day in the
 * business's time zone, written with the e-mail in one transaction, so two servers or a restart
 * never send a second one that day.
 */
export const systemAlerts = pgTable('system_alerts', {
  day: date('day', { mode: 'string' }).primaryKey(),
  /** The lines that were red, by key (what the e-mail said). */
  lines: jsonb('lines').$type<string[]>().notNull(),
  createdAt: createdAt(),
});

export type SystemAlertRow = typeof systemAlerts.$inferSelect;
