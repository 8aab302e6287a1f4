import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { calendarFeeds, users } from './tables';
import type { TokenService } from '../lib/tokens';

// A feed's secret address is a credential like a password or a session, so it lives with the
// accounts: it is reset whenever the access behind it ends (decision 025). The database keeps only a
// keyed fingerprint of it and a copy sealed with the install's key, which is never in a backup: a
// backup's database opens no feed (decision 024).

/** Whose feed: the company's, or one worker's (their user id). */
export type FeedOwner = 'company' | { userId: string };
const keyOf = (owner: FeedOwner) => (owner === 'company' ? 'company' : `user:${owner.userId}`);

/** The install's key, as the feeds use it. */
export type FeedKeys = Pick<TokenService, 'digest' | 'seal' | 'unseal'>;
const PURPOSE = 'calendar-feed';

const newToken = () => randomBytes(24).toString('base64url');
const stored = (keys: FeedKeys, token: string) => ({
  tokenDigest: keys.digest(PURPOSE, token),
  tokenSealed: keys.seal(PURPOSE, token),
  legacyToken: null,
});

/** The feed's secret token, made on first use (and made anew when the stored one was sealed by another install's key). */
export async function feedToken(db: DbOrTx, keys: FeedKeys, owner: FeedOwner): Promise<string> {
  const key = keyOf(owner);
  const row = await db.query.calendarFeeds.findFirst({ where: eq(calendarFeeds.owner, key) });
  const token = row?.tokenSealed ? keys.unseal(PURPOSE, row.tokenSealed) : null;
  if (token) return token;
  const made = stored(keys, newToken());
  // Two first asks at once: whichever writes first wins and both answer its token.
  if (!row)
    await db
      .insert(calendarFeeds)
      .values({ owner: key, ...made })
      .onConflictDoNothing();
  else
    await db
      .update(calendarFeeds)
      .set(made)
      .where(
        and(
          eq(calendarFeeds.owner, key),
          row.tokenSealed ? eq(calendarFeeds.tokenSealed, row.tokenSealed) : isNull(calendarFeeds.tokenSealed),
        ),
      );
  const now = await db.query.calendarFeeds.findFirst({ where: eq(calendarFeeds.owner, key) });
  const kept = now?.tokenSealed ? keys.unseal(PURPOSE, now.tokenSealed) : null;
  if (!kept) throw new Error('The calendar feed could not be stored');
  return kept;
}

/** A new token: the old address stops working at once. */
export async function regenerateFeedToken(db: DbOrTx, keys: FeedKeys, owner: FeedOwner): Promise<string> {
  const token = newToken();
  await db
    .insert(calendarFeeds)
    .values({ owner: keyOf(owner), ...stored(keys, token) })
    .onConflictDoUpdate({ target: calendarFeeds.owner, set: { ...stored(keys, token), createdAt: new Date() } });
  return token;
}

/**
 * Ends these feeds' addresses at once (access ended: signed out everywhere, a new password or role,
 * the account deleted, an admin gone). The next time the feed is asked for, a new address is made.
 */
export async function resetFeeds(db: DbOrTx, ...owners: FeedOwner[]): Promise<void> {
  if (owners.length) await db.delete(calendarFeeds).where(inArray(calendarFeeds.owner, owners.map(keyOf)));
}

/** Whose feed a token opens, if any. */
export async function feedOwnerOf(db: DbOrTx, keys: FeedKeys, token: string): Promise<FeedOwner | undefined> {
  const row = await db.query.calendarFeeds.findFirst({
    where: eq(calendarFeeds.tokenDigest, keys.digest(PURPOSE, token)),
  });
  if (!row) return undefined;
  if (row.owner === 'company') return 'company';
  // A worker's feed only while the account exists (a row left from before deletions reset feeds).
  const userId = row.owner.slice('user:'.length);
  const user = await db.query.users.findFirst({ where: eq(users.id, userId), columns: { id: true } });
  return user ? { userId } : undefined;
}

/**
 * Feeds made before their tokens were sealed (migration 0023) keep their addresses: at start-up each
 * token kept as it was is sealed and its plain copy emptied. Calendars already subscribed go on.
 */
export async function sealLegacyFeedTokens(db: DbOrTx, keys: FeedKeys): Promise<number> {
  const rows = await db.query.calendarFeeds.findMany({ where: isNotNull(calendarFeeds.legacyToken) });
  for (const row of rows)
    await db
      .update(calendarFeeds)
      .set(stored(keys, row.legacyToken!))
      .where(and(eq(calendarFeeds.owner, row.owner), eq(calendarFeeds.legacyToken, row.legacyToken!)));
  return rows.length;
}
