import type { FastifyInstance } from 'fastify';
import { bookableDates, freeWindows, type FreeWindow } from '#shared/booking';
import { addDays, zonedTimeToUtc } from '#shared/dates';
import type { BookingSettingsView, VisitChangeOptions, WindowView } from '#shared/schemas/booking';
import type { DbOrTx } from '../db/client';
import { HttpError, notFound } from '../lib/http-errors';
import { schedulesOf, timeOffBetween } from '../users';
import { recordAudit } from '../audit';
import {
  busyTimesOf,
  cancelVisitForClient,
  moveVisitForClient,
  visitOfClient,
  type Asker,
  type ChangeCheck,
  type ClientVisit,
} from '../visits';
import { bookingRules } from './repository';

/** 409 WINDOW_TAKEN: someone took the window first; the windows free now go with it. */
export class WindowTaken extends HttpError {
  constructor(readonly windows: WindowView[]) {
    super(409, 'Someone took that time just before you. Pick another of the times below.', 'WINDOW_TAKEN', {
      windows,
    });
  }
}

const closedError = (message: string) => new HttpError(409, message, 'CHANGE_CLOSED');

/** Whether the client may still change the visit themselves, by the owner's rules, at `now`. */
export function changeState(rules: BookingSettingsView, visit: Pick<ClientVisit, 'startsAt' | 'clientMoves'>) {
  const until = rules.clientChanges ? new Date(visit.startsAt.getTime() - rules.changeCutoffHours * 3_600_000) : null;
  return { until, movesLeft: Math.max(0, rules.maxMoves - visit.clientMoves) };
}

/** Why not, now: off, past the cut-off (or begun), or null: open. */
function closedNow(rules: BookingSettingsView, visit: ClientVisit, now: Date) {
  const { until } = changeState(rules, visit);
  if (!until) return 'off' as const;
  if (until <= now || visit.startsAt <= now) return 'cutoff' as const;
  return null;
}

const minutesOf = (visit: Pick<ClientVisit, 'startsAt' | 'endsAt'>) =>
  Math.round((visit.endsAt.getTime() - visit.startsAt.getTime()) / 60_000);

/**
 * The windows the visit may move to: on the days the owner offers, where its whole crew is free for
 * the visit's length (their other visits, their hours), not its own time. Read on `db`: inside the
 * move's transaction, with the crew locked, when checking again.
 */
async function windowsFor(
  app: FastifyInstance,
  db: DbOrTx,
  rules: BookingSettingsView,
  visit: ClientVisit,
  now: Date,
): Promise<FreeWindow[]> {
  const { timeZone } = await app.settings.current();
  const dates = bookableDates(await app.settings.today(), rules);
  if (dates.length === 0) return [];
  const from = zonedTimeToUtc(dates[0]!, '00:00', timeZone);
  const to = zonedTimeToUtc(addDays(dates.at(-1)!, 1), '00:00', timeZone);
  // One after another: `db` may be the move's transaction (one connection; see conflictsOf).
  const busy = await busyTimesOf(db, visit.workerIds, from, to, visit.id);
  const off = await timeOffBetween(db, visit.workerIds, dates[0]!, dates.at(-1)!, timeZone);
  const schedules = await schedulesOf(db, visit.workerIds);
  const taken = [...busy, ...off];
  const workers = visit.workerIds.map((id) => ({
    id,
    schedule: schedules.get(id) ?? [],
    busy: taken.filter((b) => b.userId === id).map((b) => ({ start: b.startsAt.getTime(), end: b.endsAt.getTime() })),
  }));
  return freeWindows({
    dates,
    windows: rules.windows,
    timeZone,
    durationMinutes: minutesOf(visit),
    workers,
    need: 'all',
    notBefore: now,
  }).filter((w) => Date.parse(w.startsAt) !== visit.startsAt.getTime());
}

/** Where the request came from, for the trail. */
export interface RequestOrigin {
  ip: string;
  route: string;
}

/** The client as the actor of the trail's entry, written in the change's transaction. */
const askerOf = (clientId: string, visitId: string, origin: RequestOrigin): Asker => ({
  clientId,
  record: (tx, entry) =>
    recordAudit(tx, { userId: null, kind: 'visits', ip: origin.ip, route: origin.route, target: visitId, ...entry }),
});

const asViews = (windows: FreeWindow[]): WindowView[] => windows.map(({ date, start, end }) => ({ date, start, end }));

async function clientVisit(app: FastifyInstance, visitId: string, clientId: string): Promise<ClientVisit> {
  const visit = await visitOfClient(app.db, visitId, clientId);
  if (!visit || visit.cancelled)
    throw notFound('This visit is not one you can change: it was cancelled or is not yours');
  return visit;
}

/** What the client may do with their visit now, with the windows it may move to. */
export async function visitChangeOptions(
  app: FastifyInstance,
  clientId: string,
  visitId: string,
): Promise<VisitChangeOptions> {
  const [rules, visit, business] = await Promise.all([
    bookingRules(app.db),
    clientVisit(app, visitId, clientId),
    app.settings.current(),
  ]);
  const now = new Date();
  const closed = closedNow(rules, visit, now);
  const { until, movesLeft } = changeState(rules, visit);
  const windows = closed || movesLeft === 0 ? [] : asViews(await windowsFor(app, app.db, rules, visit, now));
  return {
    open: closed === null,
    closed,
    until: until ? until.toISOString() : null,
    movesLeft,
    phone: business.phone,
    windows,
  };
}

/** The owner's rules, checked again inside the change (the visit and its crew locked). */
async function stillOpen(app: FastifyInstance, db: DbOrTx, visit: ClientVisit, now: Date) {
  const rules = await bookingRules(db);
  const { phone } = await app.settings.current();
  const closed = closedNow(rules, visit, now);
  if (closed === 'off') throw closedError(`Visits are changed by phone: call us at ${phone}.`);
  if (closed === 'cutoff') throw closedError(`It is too close to the visit to change it online: call us at ${phone}.`);
  return rules;
}

/** Moves the client's visit to a free window; 409 WINDOW_TAKEN with fresh windows when it went first. */
export async function rescheduleVisit(
  app: FastifyInstance,
  clientId: string,
  visitId: string,
  pick: { date: string; start: string },
  origin: RequestOrigin,
): Promise<string> {
  const visit = await clientVisit(app, visitId, clientId);
  const { timeZone } = await app.settings.current();
  const startsAt = zonedTimeToUtc(pick.date, pick.start, timeZone);
  const endsAt = new Date(startsAt.getTime() + minutesOf(visit) * 60_000);
  const check: ChangeCheck = async (tx, locked) => {
    const now = new Date();
    const rules = await stillOpen(app, tx, locked, now);
    const { movesLeft } = changeState(rules, locked);
    if (movesLeft === 0)
      throw closedError(
        `This visit has been moved ${locked.clientMoves} ${locked.clientMoves === 1 ? 'time' : 'times'} online: call us at ${(await app.settings.current()).phone} to move it again.`,
      );
    const free = await windowsFor(app, tx, rules, locked, now);
    if (!free.some((w) => w.date === pick.date && w.start === pick.start)) throw new WindowTaken(asViews(free));
  };
  return moveVisitForClient(app, visitId, askerOf(clientId, visitId, origin), { startsAt, endsAt }, check);
}

/** Cancels the client's visit with their reason, until the cut-off. */
export async function cancelClientVisit(
  app: FastifyInstance,
  clientId: string,
  visitId: string,
  reason: string,
  origin: RequestOrigin,
): Promise<void> {
  await clientVisit(app, visitId, clientId);
  await cancelVisitForClient(app, visitId, askerOf(clientId, visitId, origin), reason, async (tx, locked) => {
    await stillOpen(app, tx, locked, new Date());
  });
}
