import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns';
import { users } from '../users/tables';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

/**
 * One row per sign-in: a staff token names its session, and a token whose session is gone (signed
 * out, ended by an admin, expired) no longer works, even before the token itself expires.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);
