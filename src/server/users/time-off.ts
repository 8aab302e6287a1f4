import { and, asc, count, eq, gte, inArray, lte } from 'drizzle-orm';
import { addDays, zonedTimeToUtc } from '#shared/dates';
import { MAX_TIME_OFF_DAYS, MAX_TIME_OFF_ENTRIES, type TimeOffView } from '#shared/schemas/time-off';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import { timeOff } from './tables';

type TimeOffRow = typeof timeOff.$inferSelect;
const viewOf = (r: TimeOffRow): TimeOffView => ({ _id: r.id, from: r.startsOn, to: r.endsOn, reason: r.reason });

/** A worker's time off that has not ended by `today`, soonest first. */
export async function comingTimeOff(db: DbOrTx, userId: string, today: string): Promise<TimeOffView[]> {
  const rows = await db
    .select()
    .from(timeOff)
    .where(and(eq(timeOff.userId, userId), gte(timeOff.endsOn, today)))
    .orderBy(asc(timeOff.startsOn))
    .limit(MAX_TIME_OFF_ENTRIES);
  return rows.map(viewOf);
}

/** Adds days off from today on; at most a year at a time and a hundred to come. */
export async function addTimeOff(
  tx: DbOrTx,
  userId: string,
  today: string,
  input: { from: string; to: string; reason: string },
): Promise<TimeOffView> {
  if (input.from < today) throw badRequest('from: Time off starts today or later');
  if (input.to > addDays(input.from, MAX_TIME_OFF_DAYS - 1))
    throw badRequest(`to: Add at most ${MAX_TIME_OFF_DAYS} days at a time`);
  const [coming] = await tx
    .select({ n: count() })
    .from(timeOff)
    .where(and(eq(timeOff.userId, userId), gte(timeOff.endsOn, today)));
  if ((coming?.n ?? 0) >= MAX_TIME_OFF_ENTRIES)
    throw conflict(`You have ${MAX_TIME_OFF_ENTRIES} stretches of time off to come: remove one first`);
  const [row] = await tx
    .insert(timeOff)
    .values({ id: newId(), userId, startsOn: input.from, endsOn: input.to, reason: input.reason })
    .returning();
  return viewOf(row!);
}

/** Removes one of the worker's own stretches of time off. */
export async function removeTimeOff(tx: DbOrTx, userId: string, id: string): Promise<void> {
  const gone = await tx
    .delete(timeOff)
    .where(and(eq(timeOff.id, id), eq(timeOff.userId, userId)))
    .returning({ id: timeOff.id });
  if (gone.length === 0) throw notFound('Time off not found');
}

/** These workers' time off touching the days `from`–`to`, as instants in the business's zone. */
export async function timeOffBetween(
  db: DbOrTx,
  userIds: string[],
  from: string,
  to: string,
  timeZone: string,
): Promise<{ userId: string; from: string; to: string; reason: string; startsAt: Date; endsAt: Date }[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select()
    .from(timeOff)
    .where(and(inArray(timeOff.userId, userIds), lte(timeOff.startsOn, to), gte(timeOff.endsOn, from)));
  return rows.map((r) => ({
    userId: r.userId,
    from: r.startsOn,
    to: r.endsOn,
    reason: r.reason,
    startsAt: zonedTimeToUtc(r.startsOn, '00:00', timeZone),
    endsAt: zonedTimeToUtc(addDays(r.endsOn, 1), '00:00', timeZone),
  }));
}
