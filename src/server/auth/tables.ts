import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
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
    /** The browser's own words for itself at sign-in (cut to 300 characters), to name the device in the list. */
    userAgent: text('user_agent').notNull().default(''),
    /** Where the sign-in came from, as the server saw it (Fastify's request.ip, behind TRUST_PROXY). */
    ip: text('ip').notNull().default(''),
    /** When the token was last used, to within SESSION_SEEN_MINUTES (not written at every call). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Two-step sign-in (TOTP, RFC 6238; decision 040): the user's secret, sealed with the install's key.
 * A row without `confirmedAt` is an enrolment not finished (the code from the app not yet typed back).
 */
export const twoStepSecrets = pgTable('two_step_secrets', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true, mode: 'date' }),
  /** The time step of the last code accepted: a code is never accepted twice, nor an older one. */
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** The ten one-time recovery codes given at enrolment, kept as SHA-256 hashes (they are random, not chosen). */
export const twoStepRecoveryCodes = pgTable(
  'two_step_recovery_codes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('two_step_recovery_codes_user_idx').on(t.userId)],
);

/**
 * Personal API keys (issue 33): an owner's key for their own scripts and tools, sent as a bearer token
 * on the same routes with the same permissions as its maker. Only a SHA-256 of the key is kept (it is
 * random, not chosen); its first characters name it in the list.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** "hk_AbCd1234": the start of the key, to tell keys apart. */
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** 'read' answers GET only; 'write' everything its maker may do. */
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    createdAt: createdAt(),
    /** When it was last used, to within API_KEY_SEEN_MINUTES. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId), check('api_keys_scope', sql`${t.scope} in ('read', 'write')`)],
);
