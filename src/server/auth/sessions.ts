import Bowser from 'bowser';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { preparedStatement } from '../db/prepared';
import { users } from '../db/schema';
import { sessions, twoStepSecrets } from './tables';
import { resetFeeds, type UserRow } from '../users';

/** A session's "last used" is written when a call comes this long after the last write, not at every call. */
export const SESSION_SEEN_MINUTES = 5;

/** What a browser says of itself is the client's to set: kept short, shown as text only. */
const USER_AGENT_MAX = 300;

/** Where a sign-in came from: the browser's words for itself and the address the server saw. */
export interface SignInOrigin {
  userAgent: string;
  ip: string;
}

/** Starts a session for a sign-in; its id goes into the token. Old expired sessions of the user go. */
export async function createSession(
  db: DbOrTx,
  userId: string,
  ttlHours: number,
  origin: SignInOrigin,
): Promise<string> {
  const id = newId();
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, sql`now()`)));
  await db.insert(sessions).values({
    id,
    userId,
    expiresAt: new Date(Date.now() + ttlHours * 3_600_000),
    userAgent: origin.userAgent.slice(0, USER_AGENT_MAX),
    ip: origin.ip.slice(0, 64),
  });
  return id;
}

/** "Chrome on Android", "Safari on iOS": the browser and system a user agent names, or "Unknown browser". */
export function describeDevice(userAgent: string): string {
  if (!userAgent.trim()) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.trim();
  const system = parsed.os.name?.trim();
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || 'Unknown browser';
}

/** A user's live sessions, newest use first, each with its device described. */
export async function listSessions(db: DbOrTx, userId: string) {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.userAgent),
    ip: row.ip,
    signedInAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    expiresAt: row.expiresAt,
  }));
}

/** Ends one session of a user ("Sign out this session"); false when the user has no such session. */
export async function endUserSession(db: DbOrTx, userId: string, sessionId: string): Promise<boolean> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

/** Notes that the session's token was used now, when the last note is older than SESSION_SEEN_MINUTES. */
export async function touchSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.id, sessionId),
        lt(sessions.lastSeenAt, sql`now() - make_interval(mins => ${SESSION_SEEN_MINUTES})`),
      ),
    );
}

/** Signing out: this session's token stops working at once, on every app process. */
export async function endSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** An admin ends all of a user's sessions (a lost phone, a stolen token); returns how many. */
export async function endAllSessions(db: DbOrTx, userId: string): Promise<number> {
  const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return ended.length;
}

/**
 * "Sign out everywhere": every session of the user ends, and their calendar feed's address with
 * them (it opens the same clients' names and addresses), in one transaction; returns how many sessions.
 */
export async function signOutEverywhere(db: Db, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    await resetFeeds(tx, { userId });
    return endAllSessions(tx, userId);
  });
}

const sessionUser = preparedStatement((db) =>
  db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt, twoStepSince: twoStepSecrets.confirmedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(twoStepSecrets, eq(twoStepSecrets.userId, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        eq(users.id, sql.placeholder('sub')),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('session_user'),
);

/**
 * The user of a live session, whether they sign in with two steps, and when the session was last
 * noted as used, in one prepared query: every signed-in request runs it.
 */
export async function findSessionUser(
  db: Db,
  sessionId: string,
  userId: string,
): Promise<{ user: UserRow; twoStep: boolean; lastSeenAt: Date } | undefined> {
  const [row] = await sessionUser(db).execute({ sid: sessionId, sub: userId });
  return row && { user: row.user, twoStep: row.twoStepSince !== null, lastSeenAt: row.lastSeenAt };
}
