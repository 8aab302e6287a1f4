import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ApiKeyInput, ApiKeyView } from '#shared/schemas/auth';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { preparedStatement } from '../db/prepared';
import { users } from '../db/schema';
import type { UserRow } from '../users';
import { apiKeys, twoStepSecrets } from './tables';

/** What every personal API key starts with: a bearer token so marked is looked up as a key, not a JWT. */
export const API_KEY_PREFIX = 'hk_';
/** A key's "last used" is written when a call comes this long after the last note. */
export const API_KEY_SEEN_MINUTES = 1;
/** Calls one key may make in a minute, over every route (a runaway script is refused, not the business). */
export const API_KEY_CALLS_PER_MINUTE = 120;
/** At most this many live keys per person. */
export const API_KEYS_PER_USER = 20;

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

function toView(row: typeof apiKeys.$inferSelect): ApiKeyView {
  return {
    _id: row.id,
    name: row.name,
    prefix: `${row.prefix}…`,
    scope: row.scope,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * A new key for the user: 256 random bits; only its hash is kept. The key is returned this once; null
 * when the user has API_KEYS_PER_USER live keys already (counted under a lock on the user's row, so
 * two made at once cannot both pass the last place).
 */
export async function createApiKey(
  db: Db,
  userId: string,
  input: ApiKeyInput,
): Promise<(ApiKeyView & { key: string }) | null> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if ((live?.n ?? 0) >= API_KEYS_PER_USER) return null;
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: newId(),
        userId,
        name: input.name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 8),
        keyHash: hashKey(key),
        scope: input.scope,
      })
      .returning();
    return { ...toView(row!), key };
  });
}

/** The user's live keys, newest first. */
export async function listApiKeys(db: DbOrTx, userId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(toView);
}

/** Revokes one of the user's keys: it is refused from the next call. False when there is no such live key. */
export async function revokeApiKey(db: Db, userId: string, id: string): Promise<boolean> {
  // In a transaction, so the request's trail entry is stored with it (decision 023).
  return db.transaction(async (tx) => {
    const revoked = await tx
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return revoked.length > 0;
  });
}

const keyUser = preparedStatement((db) =>
  db
    .select({
      user: users,
      id: apiKeys.id,
      scope: apiKeys.scope,
      lastUsedAt: apiKeys.lastUsedAt,
      twoStepSince: twoStepSecrets.confirmedAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(twoStepSecrets, eq(twoStepSecrets.userId, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare('api_key_user'),
);

/** The maker of a live key, the key's id and scope, in one prepared query; undefined for any other token. */
export async function findApiKeyUser(
  db: Db,
  key: string,
): Promise<{ user: UserRow; id: string; scope: 'read' | 'write'; twoStep: boolean } | undefined> {
  const [row] = await keyUser(db).execute({ hash: hashKey(key) });
  if (!row) return undefined;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > API_KEY_SEEN_MINUTES * 60_000)
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, row.id),
          or(
            isNull(apiKeys.lastUsedAt),
            lt(apiKeys.lastUsedAt, sql`now() - make_interval(mins => ${API_KEY_SEEN_MINUTES})`),
          ),
        ),
      );
  return { user: row.user, id: row.id, scope: row.scope, twoStep: row.twoStepSince !== null };
}
