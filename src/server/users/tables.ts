import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { UserRole } from '#shared/constants';
import { TEAM_ROLES, type TeamRole } from '#shared/roles';
import type { WeeklySchedule } from '#shared/schemas/schedule';
import { oneOf, createdAt } from '../db/columns';

// The tables this feature owns and alone writes (`npm run check`: features/tables-owned rule).

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    fullName: text('full_name').notNull().default(''),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    /** What the person may do (decision 042): owner, office, crew_lead or crew. */
    teamRole: text('team_role').$type<TeamRole>().notNull(),
    /** The spec's role, the area they sign in to: follows from the team role, never written. */
    role: text('role')
      .$type<UserRole>()
      .notNull()
      .generatedAlwaysAs(sql`case when team_role in ('owner', 'office') then 'admin' else 'employee' end`),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When an employee is available: weekdays with hours, set by the employee. */
    schedule: jsonb('schedule')
      .$type<WeeklySchedule>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Bumped on every password or role change: tokens carrying an older version stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('users_team_role_check', t.teamRole, TEAM_ROLES),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    index('users_role_idx').on(t.role, t.createdAt),
    index('users_full_name_trgm_idx').using('gin', sql`${t.fullName} gin_trgm_ops`),
  ],
);

/**
 * The secret addresses of the iCalendar feeds calendars subscribe to: the company's ("company") and
 * each worker's ("user:<id>"). Regenerating replaces the token, which stops the old address. The token
 * itself is not stored: only a keyed fingerprint to find it by and a copy sealed with the install's key
 * to show the address again, so a backup of the database opens no feed (decision 024).
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    owner: text('owner').primaryKey(),
    tokenDigest: text('token_digest'),
    tokenSealed: text('token_sealed'),
    /** Before migration 0023 the token was kept as it is; the next start seals it and empties this. */
    legacyToken: text('token'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_digest_idx').on(t.tokenDigest)],
);

/*
 * The crew's record of a job (issue 16). Rows the crew makes carry ids their phone chose (UUIDs), so a
 * change queued offline and sent twice lands once.
 */

/**
 * A worker's days off (issue 31): whole days on the business's calendar, first and last included.
 * Booking windows skip them and the office's booking warns of them; the reason is for the office.
 */
export const timeOff = pgTable(
  'time_off',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    check('time_off_ends_after_start', sql`${t.endsOn} >= ${t.startsOn}`),
    index('time_off_user_idx').on(t.userId, t.endsOn),
  ],
);
