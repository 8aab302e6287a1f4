import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatClock, todayIn, wallTimeIn } from '#shared/dates';
import type { OnMyWayView } from '#shared/schemas/texts';
import type { BusinessSettings } from '../lib/business';
import { conflict, notFound } from '../lib/http-errors';
import { clientOfVisit } from './client-of-visit';
import { composeEmail, enqueueMail, toClient } from '../mail';
import { clientReach, enqueueText, onMyWayText } from '../texts';
import { visitById, viewOf } from './repository';
import { visits } from './tables';

/** "Dana from Sac Handyman is on the way, arriving around 10:25 AM": the words a client receives. */
export function onMyWayWords(business: BusinessSettings, workerName: string, arriveAt: Date): string {
  const firstName = workerName.trim().split(/\s+/)[0] || 'Our crew';
  const around = formatClock(wallTimeIn(business.timeZone, arriveAt).time);
  return `${firstName} from ${business.name} is on the way, arriving around ${around}`;
}

/** The visit the worker is on, with its job's client; a visit they are not on answers like a missing one. */
async function visitOfWorker(app: FastifyInstance, visitId: string, workerId: string, timeZone: string) {
  const record = await visitById(app.db, visitId, timeZone);
  const view = record && viewOf(record);
  const worker = view?.workers.find((w) => w._id === workerId);
  if (!record || !view || !worker) throw notFound('Visit not found');
  const job = await clientOfVisit(app.db, view);
  if (!job) throw notFound('Visit not found');
  return { view, worker, job };
}

/** Whether "On my way" can go for this visit, and how the one sent stands. */
export async function onMyWayState(app: FastifyInstance, visitId: string, workerId: string): Promise<OnMyWayView> {
  const business = await app.settings.current();
  const { job } = await visitOfWorker(app, visitId, workerId, business.timeZone);
  const [[visit], reach, text] = await Promise.all([
    app.db
      .select({ at: visits.onMyWayAt, cancelledAt: visits.cancelledAt, startsAt: visits.startsAt })
      .from(visits)
      .where(eq(visits.id, visitId)),
    clientReach(app.db, job.clientId),
    onMyWayText(app.db, visitId),
  ]);
  let why: string | null = null;
  if (visit!.cancelledAt) why = 'This visit was cancelled';
  else if (todayIn(business.timeZone) !== wallTimeIn(business.timeZone, visit!.startsAt).date)
    why = 'On my way is for today’s visits';
  else if (!reach.text && !job.contactEmail) why = 'No mobile number or e-mail on file';
  return {
    available: !why && !visit!.at,
    why,
    sentAt: visit!.at?.toISOString() ?? null,
    state: text?.state ?? null,
    body: text?.body ?? null,
  };
}

/**
 * The crew's one tap: "on my way, arriving around …" to the client, once per visit however many taps
 * (two phones, a retry on a bad signal: the visit's row is marked in the same statement that checks
 * it). On the client's channel: by text when they take texts (at any hour: they are expecting us), else
 * by e-mail.
 */
export async function sayOnMyWay(
  app: FastifyInstance,
  visitId: string,
  workerId: string,
  minutes: number,
): Promise<OnMyWayView> {
  const business = await app.settings.current();
  const state = await onMyWayState(app, visitId, workerId);
  if (state.sentAt) throw conflict('On my way was already sent for this visit');
  if (state.why) throw conflict(state.why);
  const { worker, job } = await visitOfWorker(app, visitId, workerId, business.timeZone);
  const words = onMyWayWords(business, worker.fullName, new Date(Date.now() + minutes * 60_000));
  await app.db.transaction(async (tx) => {
    const [marked] = await tx
      .update(visits)
      .set({ onMyWayAt: new Date() })
      .where(and(eq(visits.id, visitId), isNull(visits.onMyWayAt)))
      .returning({ id: visits.id });
    if (!marked) throw conflict('On my way was already sent for this visit');
    const reach = await clientReach(tx, job.clientId);
    if (reach.text && job.clientId)
      await enqueueText(tx, business, {
        clientId: job.clientId,
        kind: 'on-my-way',
        visitId,
        about: { quoteRequestId: job.quoteRequestId, jobId: job.id },
        body: words,
        anyHour: true,
      });
    else {
      const { html, text } = composeEmail({
        business,
        heading: 'We are on the way',
        blocks: [{ kind: 'paragraph', text: `${words}.` }],
      });
      await enqueueMail(tx, toClient({ to: job.contactEmail, subject: `${words}`, html, text }));
    }
  });
  return onMyWayState(app, visitId, workerId);
}
