import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { preparedStatement } from '../db/prepared';
import { users } from '../db/schema';
import { sessions } from './tables';
import { resetFeeds, type UserRow } from '../users';

/** Starts a session for a sign-in; its id goes into the token. Old expired sessions of the user go. */
export async function createSession(db: DbOrTx, userId: string, ttlHours: number): Promise<string> {
  const id = newId();
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, sql`now()`)));
  await db.insert(sessions).values({ id, userId, expiresAt: new Date(Date.now() + ttlHours * 3_600_000) });
  return id;
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
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        eq(users.id, sql.placeholder('sub')),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('session_user'),
);

/** The user of a live session, in one prepared query: every signed-in request runs it. */
export async function findSessionUser(db: Db, sessionId: string, userId: string): Promise<UserRow | undefined> {
  const [row] = await sessionUser(db).execute({ sid: sessionId, sub: userId });
  return row?.user;
}
