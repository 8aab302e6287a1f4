import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dummyHash, verifyPassword } from '../lib/passwords';

/**
 * Whether these are an admin's username and password, for the maintenance page after a failed upgrade
 * (decision 034). The database is then as the previous version left it, so only the columns every
 * version has are read, by plain SQL rather than this version's table definition. An unknown name
 * costs an argon2 check too, so the answer's time does not tell which names exist.
 */
export async function isAdminPassword(db: Db, username: string, password: string): Promise<boolean> {
  const found = (await db.execute(
    sql`select password_hash, role from users where lower(username) = lower(${username}) limit 1`,
  )) as unknown as { rows: { password_hash: string; role: string }[] };
  const user = found.rows[0];
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), password);
  return ok && user?.role === 'admin';
}
