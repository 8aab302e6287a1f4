import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { calendarFeeds, users } from '../db/schema';

// A feed's secret address is a credential like a password or a session, so it lives with the
// accounts: it is reset whenever the access behind it ends (decision 025).

/** Whose feed: the company's, or one worker's (their user id). */
export type FeedOwner = 'company' | { userId: string };
const keyOf = (owner: FeedOwner) => (owner === 'company' ? 'company' : `user:${owner.userId}`);

const newToken = () => randomBytes(24).toString('base64url');

/** The feed's secret token, made on first use. */
export async function feedToken(db: DbOrTx, owner: FeedOwner): Promise<string> {
  const key = keyOf(owner);
  await db.insert(calendarFeeds).values({ owner: key, token: newToken() }).onConflictDoNothing();
  const row = await db.query.calendarFeeds.findFirst({ where: eq(calendarFeeds.owner, key) });
  return row!.token;
}

/** A new token: the old address stops working at once. */
export async function regenerateFeedToken(db: DbOrTx, owner: FeedOwner): Promise<string> {
  const token = newToken();
  await db
    .insert(calendarFeeds)
    .values({ owner: keyOf(owner), token })
    .onConflictDoUpdate({ target: calendarFeeds.owner, set: { token, createdAt: new Date() } });
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
export async function feedOwnerOf(db: DbOrTx, token: string): Promise<FeedOwner | undefined> {
  const row = await db.query.calendarFeeds.findFirst({ where: eq(calendarFeeds.token, token) });
  if (!row) return undefined;
  if (row.owner === 'company') return 'company';
  // A worker's feed only while the account exists (a row left from before deletions reset feeds).
  const userId = row.owner.slice('user:'.length);
  const user = await db.query.users.findFirst({ where: eq(users.id, userId), columns: { id: true } });
  return user ? { userId } : undefined;
}
