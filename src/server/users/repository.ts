import { count, eq, sql } from 'drizzle-orm';
import type { UserRole, WorkerTag } from '../../shared/constants';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { users } from '../db/schema';

export type UserRow = typeof users.$inferSelect;

export interface NewUser {
  username: string;
  passwordHash: string;
  role: UserRole;
  fullName?: string;
  email?: string;
  phone?: string;
  tags?: WorkerTag[];
}

export function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

/** Usernames are unique regardless of case. */
export function findUserByUsername(db: DbOrTx, username: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: sql`lower(${users.username}) = lower(${username})` });
}

export async function insertUser(db: DbOrTx, user: NewUser): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ id: newId(), ...user })
    .returning();
  return row!;
}

export async function countAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
  return row?.n ?? 0;
}
