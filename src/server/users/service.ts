import { asc, eq, sql } from 'drizzle-orm';
import { messages } from '#shared/messages';
import { areaOf, REFUSALS, teamRoleOf } from '#shared/roles';
import type { AddUserInput, UpdateUserInput } from '#shared/schemas/users';
import { hashPassword } from '../lib/passwords';
import { passwordProblem } from '../lib/password-policy';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../db/client';
import { users } from './tables';
import { isUniqueViolation } from '../lib/db-errors';
import { badRequest, HttpError, notFound } from '../lib/http-errors';
import { resetFeeds, type FeedOwner } from './calendar-feeds';
import { findUserByUsername, insertUser, type UserRow } from './repository';

const findForUpdate = (tx: Tx, id: string) => tx.query.users.findFirst({ where: eq(users.id, id) });

/**
 * Locks every Owner's row until the transaction ends and returns their ids. Every change that could
 * take away an Owner takes these locks first, so two Owners demoting or deleting each other at the
 * same moment run one after the other, and the second sees the first's result: the business always
 * keeps at least one Owner. (PGlite runs one transaction at a time, which gives the same order.)
 */
async function lockOwners(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.teamRole, 'owner'))
    .orderBy(asc(users.id))
    .for('update');
  return rows.map((r) => r.id);
}

/** A unique-username clash found by the database (two adds at once) answers like the one we check for. */
async function usernameChecked<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(messages.usernameTaken, 'USERNAME_TAKEN');
    throw error;
  }
}

function checkPassword(
  password: string,
  related: { username: string; fullName?: string | undefined; email?: string | undefined },
) {
  const problem = passwordProblem(password, [
    related.username,
    ...(related.fullName ?? '').split(/\s+/),
    related.email ?? '',
  ]);
  if (problem) throw badRequest(`password: ${problem}`, 'WEAK_PASSWORD');
}

export async function addUser(
  app: FastifyInstance,
  input: Omit<AddUserInput, 'password'> & { password: string },
): Promise<UserRow> {
  const { db } = app;
  const { password, role, teamRole, ...fields } = input;
  checkPassword(password, fields);
  if (await findUserByUsername(db, fields.username)) throw badRequest(messages.usernameTaken, 'USERNAME_TAKEN');
  const passwordHash = await hashPassword(password);
  return usernameChecked(() =>
    db.transaction((tx) =>
      insertUser(tx, { ...fields, teamRole: teamRole ?? teamRoleOf(role), tags: fields.tags ?? [], passwordHash }),
    ),
  );
}

export async function updateUser(app: FastifyInstance, actorId: string, input: UpdateUserInput): Promise<UserRow> {
  const { db } = app;
  const { _id, password, role, teamRole: asked, ...fields } = input;
  if (password) checkPassword(password, fields);
  const passwordHash = password ? await hashPassword(password) : undefined;
  return usernameChecked(() =>
    db.transaction(async (tx) => {
      const owners = await lockOwners(tx);
      const current = await findForUpdate(tx, _id);
      if (!current) throw notFound('User not found');
      const clash = await findUserByUsername(tx, fields.username);
      if (clash && clash.id !== _id) throw badRequest(messages.usernameTaken, 'USERNAME_TAKEN');
      // A caller that sends only the spec's role keeps the team role when the area is the same.
      const teamRole = asked ?? (areaOf(current.teamRole) === role ? current.teamRole : teamRoleOf(role));
      if (current.teamRole === 'owner' && teamRole !== 'owner') {
        if (_id === actorId) throw badRequest('You cannot give up your own Owner role', 'OWN_ACCOUNT');
        if (!owners.includes(actorId)) throw new HttpError(403, REFUSALS.owner);
        if (owners.length <= 1) throw badRequest('The last Owner must stay an Owner', 'LAST_OWNER');
      }
      // A new password or role ends the sessions signed with the old ones.
      const revoke = Boolean(password) || teamRole !== current.teamRole;
      const [row] = await tx
        .update(users)
        .set({
          ...fields,
          teamRole,
          ...(passwordHash ? { passwordHash } : {}),
          ...(revoke ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
        })
        .where(eq(users.id, _id))
        .returning();
      // So do their calendar feed's address; and someone who leaves the back office may have copied
      // the company's, which goes with them.
      const feeds: FeedOwner[] = revoke ? [{ userId: _id }] : [];
      if (current.role === 'admin' && areaOf(teamRole) !== 'admin') feeds.push('company');
      await resetFeeds(tx, ...feeds);
      return row!;
    }),
  );
}

export async function deleteUser(app: FastifyInstance, actorId: string, id: string): Promise<void> {
  const { db } = app;
  if (id === actorId) throw badRequest('You cannot delete your own account', 'OWN_ACCOUNT');
  await db.transaction(async (tx) => {
    const owners = await lockOwners(tx);
    const current = await findForUpdate(tx, id);
    if (!current) throw notFound('User not found');
    if (current.teamRole === 'owner') {
      if (!owners.includes(actorId)) throw new HttpError(403, REFUSALS.owner);
      if (owners.length <= 1) throw badRequest('The last Owner cannot be deleted', 'LAST_OWNER');
    }
    await tx.delete(users).where(eq(users.id, id));
    // Their feed's address ends with the account; a back-office account's takes the company feed's with it.
    await resetFeeds(tx, { userId: id }, ...(current.role === 'admin' ? (['company'] as const) : []));
  });
}

/** An admin ends a user's calendar feed address: the old one answers 404 at once. */
export async function resetUserFeed(app: FastifyInstance, id: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    if (!(await tx.query.users.findFirst({ where: eq(users.id, id), columns: { id: true } })))
      throw notFound('User not found');
    await resetFeeds(tx, { userId: id });
  });
}
