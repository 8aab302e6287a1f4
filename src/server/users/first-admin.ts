import type { Db } from '../db/client';
import { generatePassword, hashPassword } from '../auth/passwords';
import { countAdmins, findUserByUsername, insertUser } from './repository';

export interface FirstAdminResult {
  created: boolean;
  username?: string;
  /** Set only when the password was generated: it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * Makes sure the business can sign in: with no admin yet, creates ADMIN_USERNAME/ADMIN_PASSWORD,
 * or `admin` with a generated password when neither is configured.
 */
export async function ensureFirstAdmin(db: Db, username?: string, password?: string): Promise<FirstAdminResult> {
  if ((await countAdmins(db)) > 0) return { created: false };
  const generated = password ? undefined : generatePassword();
  let name = username ?? 'admin';
  // A generated account must not collide with an existing employee called "admin".
  if (!username && (await findUserByUsername(db, name))) name = `admin-${generatePassword(4).toLowerCase()}`;
  await insertUser(db, { username: name, passwordHash: await hashPassword(password ?? generated!), role: 'admin', fullName: 'Administrator' });
  return { created: true, username: name, ...(generated ? { generatedPassword: generated } : {}) };
}
