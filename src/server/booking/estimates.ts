import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatArrival } from '#shared/arrival-window';
import { bookableDates, freeWindows, type FreeWindow } from '#shared/booking';
import { addDays, zonedTimeToUtc } from '#shared/dates';
import { inBookingArea, type EstimatePick, type EstimateWindows } from '#shared/schemas/booking';
import type { DbOrTx, Tx } from '../db/client';
import { users } from '../db/schema';
import { HttpError } from '../lib/http-errors';
import { schedulesOf, timeOffBetween } from '../users';
import { bookEstimateVisit, busyTimesOf, calendarVersionNow, visitCountsOf } from '../visits';
import { bookingRules, bookingRulesWithStamp } from './repository';
import { WindowTaken } from './service';

/*
 * Online booking of an estimate visit (issue 31, decision 046): a visitor picks a window on Get a
 * Quote; it is offered while at least one of the workers who take estimates is free for the visit's
 * length, and checked again, with those workers locked, in the request's own transaction.
 */

type Rules = Awaited<ReturnType<typeof bookingRules>>;

/** The estimate windows free now: soonest first, with the workers free in each. */
async function freeEstimateWindows(app: FastifyInstance, db: DbOrTx, rules: Rules, now: Date): Promise<FreeWindow[]> {
  const ids = rules.estimateWorkerIds;
  if (!rules.onlineBooking || ids.length === 0) return [];
  const { timeZone } = await app.settings.current();
  const dates = bookableDates(await app.settings.today(), rules);
  if (dates.length === 0) return [];
  const from = zonedTimeToUtc(dates[0]!, '00:00', timeZone);
  const to = zonedTimeToUtc(addDays(dates.at(-1)!, 1), '00:00', timeZone);
  // One after another: `db` may be the request's transaction (one connection; see conflictsOf).
  const busy = await busyTimesOf(db, ids, from, to);
  const off = await timeOffBetween(db, ids, dates[0]!, dates.at(-1)!, timeZone);
  const schedules = await schedulesOf(db, ids);
  const taken = [...busy, ...off];
  // A worker since deleted is not among them: only those the database still has.
  const workers = ids
    .filter((id) => schedules.has(id))
    .map((id) => ({
      id,
      schedule: schedules.get(id)!,
      busy: taken.filter((b) => b.userId === id).map((b) => ({ start: b.startsAt.getTime(), end: b.endsAt.getTime() })),
    }));
  return freeWindows({
    dates,
    windows: rules.windows,
    timeZone,
    durationMinutes: rules.estimateMinutes,
    workers,
    need: 'any',
    notBefore: now,
  });
}

const asViews = (windows: FreeWindow[]) => windows.map(({ date, start, end }) => ({ date, start, end }));

/**
 * The windows Get a Quote offers, kept per process while nothing they depend on changed: the day, the
 * calendar's version (any visit booked, moved or cancelled), the rules' last save, and at most
 * `WINDOWS_FRESH_MS` for what has no version (time off, a worker's hours). A window that went meanwhile
 * is refused at booking, which checks again with the workers locked; every visitor is served from
 * here, so a crowd on Get a Quote costs two small reads each.
 */
const WINDOWS_FRESH_MS = 30_000;
const kept = new WeakMap<FastifyInstance, { key: string; at: number; windows: FreeWindow[] }>();

/** What Get a Quote offers: whether booking is open, and the windows free now. */
export async function estimateWindows(app: FastifyInstance): Promise<EstimateWindows> {
  const [{ rules, savedAt }, version, today] = await Promise.all([
    bookingRulesWithStamp(app.db),
    calendarVersionNow(app.db),
    app.settings.today(),
  ]);
  const open = rules.onlineBooking && rules.estimateWorkerIds.length > 0;
  const now = Date.now();
  const key = `${today}|${version}|${savedAt}`;
  let found = kept.get(app);
  if (!found || found.key !== key || now - found.at > WINDOWS_FRESH_MS) {
    found = { key, at: now, windows: await freeEstimateWindows(app, app.db, rules, new Date(now)) };
    kept.set(app, found);
  }
  // Time moves on between reads: a window that has begun is not offered.
  const windows = asViews(found.windows.filter((w) => Date.parse(w.startsAt) >= now));
  return { open, minutes: rules.estimateMinutes, needsApproval: rules.needsApproval, windows };
}

/**
 * Books the estimate visit of a request just stored, in its transaction: the window must still be
 * free (409 WINDOW_TAKEN with the fresh ones, and the request is not stored either), the place inside
 * the booking area; the visit goes to the free worker with the fewest visits that day. Answers the
 * window as the client's messages read it.
 */
export async function bookEstimate(
  app: FastifyInstance,
  tx: Tx,
  request: { id: string; contactEmail: string; clientId: string | null; city: string; zip: string },
  pick: EstimatePick,
): Promise<{ when: string; awaitingApproval: boolean }> {
  const business = await app.settings.current();
  const rules = await bookingRules(tx);
  if (!rules.onlineBooking || rules.estimateWorkerIds.length === 0)
    throw new HttpError(
      409,
      `Visits are not booked online just now: send your request without one and we will call you, or call us at ${business.phone}.`,
      'BOOKING_OFF',
    );
  if (!inBookingArea(rules.bookingArea, request))
    throw new HttpError(
      400,
      `We do not book visits online in ${request.city} (${request.zip}): send your request without a visit and we will call you about it, or call us at ${business.phone}.`,
      'OUTSIDE_AREA',
    );
  // The estimate workers, locked in id order as the office's booking locks a crew: two visitors
  // racing for the last window are checked one after the other.
  await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.id, [...rules.estimateWorkerIds].sort()))
    .for('update');
  const free = await freeEstimateWindows(app, tx, rules, new Date());
  const window = free.find((w) => w.date === pick.date && w.start === pick.start);
  if (!window) throw new WindowTaken(asViews(free));
  const startsAt = new Date(window.startsAt);
  const endsAt = new Date(startsAt.getTime() + rules.estimateMinutes * 60_000);
  const dayStart = zonedTimeToUtc(window.date, '00:00', business.timeZone);
  const dayEnd = zonedTimeToUtc(addDays(window.date, 1), '00:00', business.timeZone);
  const counts = await visitCountsOf(tx, window.workerIds, dayStart, dayEnd);
  const worker = [...window.workerIds].sort(
    (a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || a.localeCompare(b),
  )[0]!;
  const view = await bookEstimateVisit(tx, business, request, { startsAt, endsAt }, worker, rules.needsApproval);
  return {
    when: formatArrival(view, business.arrivalWindowMinutes, business.timeZone),
    awaitingApproval: rules.needsApproval,
  };
}
