import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from './tables';
import { generatePassword, hashPassword } from '../lib/passwords';
import { countOwners, findUserByUsername, insertUser } from './repository';

export interface FirstAdminResult {
  created: boolean;
  username?: string;
  /** Set only when the password was generated: it is shown once and never stored in clear. */
  generatedPassword?: string;
  /** Set when no Owner was left and ADMIN_USERNAME named an existing account, which was made Owner. */
  promoted?: boolean;
}

/**
 * Makes sure the business can sign in: with no Owner yet, creates ADMIN_USERNAME/ADMIN_PASSWORD,
 * or `admin` with a generated password when neither is configured. When ADMIN_USERNAME names an
 * account that already exists, that account becomes the Owner (its password is kept): the way back in
 * for an owner whose last Owner account was given another role.
 */
export async function ensureFirstAdmin(db: Db, username?: string, password?: string): Promise<FirstAdminResult> {
  if ((await countOwners(db)) > 0) return { created: false };
  if (username) {
    const existing = await findUserByUsername(db, username);
    if (existing) {
      // A role change ends the sessions signed with the old role, as it does in the back office.
      await db
        .update(users)
        .set({ teamRole: 'owner', tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, existing.id));
      return { created: false, promoted: true, username: existing.username };
    }
  }
  const generated = password ? undefined : generatePassword();
  let name = username ?? 'admin';
  // A generated account must not collide with an existing employee called "admin".
  if (!username && (await findUserByUsername(db, name))) name = `admin-${generatePassword(4).toLowerCase()}`;
  await insertUser(db, {
    username: name,
    passwordHash: await hashPassword(password ?? generated!),
    teamRole: 'owner',
    fullName: 'Administrator',
  });
  return { created: true, username: name, ...(generated ? { generatedPassword: generated } : {}) };
}
