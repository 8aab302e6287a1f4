import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { calendarFeeds } from '../db/schema';

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

/** Whose feed a token opens, if any. */
export async function feedOwnerOf(db: DbOrTx, token: string): Promise<FeedOwner | undefined> {
  const row = await db.query.calendarFeeds.findFirst({ where: eq(calendarFeeds.token, token) });
  if (!row) return undefined;
  return row.owner === 'company' ? 'company' : { userId: row.owner.slice('user:'.length) };
}
