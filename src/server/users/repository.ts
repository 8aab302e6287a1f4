import { and, arrayContains, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { WeeklySchedule } from '#shared/schemas/schedule';
import type { Db, DbOrTx } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { newId } from '../db/ids';
import { users } from './tables';
import { escapeLike } from '../lib/sql';

export type UserRow = typeof users.$inferSelect;

/** A new account's columns, from the schema (the id is made here; tags are the worker's skills). */
export type NewUser = Omit<typeof users.$inferInsert, 'id'>;

const userById = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('user_by_id'),
);

/** Prepared: every signed-in request runs it. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await userById(db).execute({ id });
  return row;
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

/** How many Owners there are: the business always keeps one. */
export async function countOwners(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.teamRole, 'owner'));
  return row?.n ?? 0;
}

/** The name a staff member goes by: their full name, or their username when they gave none. */
export const staffName = (user: { fullName: string; username: string }) => user.fullName || user.username;

export function toUserView(row: UserRow) {
  return {
    _id: row.id,
    username: row.username,
    fullName: row.fullName,
    email: row.email,
    phone: row.phone,
    role: row.role,
    teamRole: row.teamRole,
    tags: row.tags,
    schedule: row.schedule,
  };
}

/** Staff accounts, newest first; the search looks at username, full name, e-mail and phone. */
export async function listUsers(
  db: DbOrTx,
  { page, limit, search }: { page: number; limit: number; search?: string | undefined },
) {
  const where = search
    ? or(...[users.username, users.fullName, users.email, users.phone].map((c) => ilike(c, `%${escapeLike(search)}%`)))
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Employees whose name contains `name` and who have every tag asked for. */
export function searchEmployees(db: DbOrTx, name: string, tags: string[]) {
  const conditions = [eq(users.role, 'employee')];
  if (name) conditions.push(ilike(users.fullName, `%${escapeLike(name)}%`));
  if (tags.length > 0) conditions.push(arrayContains(users.tags, tags));
  return (
    db
      .select()
      .from(users)
      .where(and(...conditions))
      .orderBy(asc(users.fullName))
      // Every employee of a small business, without a search (a crew of hundreds would search).
      .limit(200)
  );
}

/** A staff member's weekly availability. */
export async function setSchedule(db: DbOrTx, userId: string, schedule: WeeklySchedule): Promise<WeeklySchedule> {
  const [row] = await db
    .update(users)
    .set({ schedule })
    .where(eq(users.id, userId))
    .returning({ schedule: users.schedule });
  return row!.schedule;
}

/** The hours these workers said they work (Set Schedule), by id: what booking windows keep to. */
export async function schedulesOf(db: DbOrTx, ids: string[]): Promise<Map<string, WeeklySchedule>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, schedule: users.schedule }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.schedule]));
}
