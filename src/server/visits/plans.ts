import { and, asc, eq, gt, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, formatLongDate, formatShortDay, todayIn, wallTimeIn, zonedTimeToUtc } from '#shared/dates';
import { toCents, toDollars } from '#shared/money';
import { paths } from '#shared/paths';
import {
  describeRecurrence,
  monthEnd,
  monthName,
  monthsToBill,
  occurrencesBetween,
  rruleLine,
  splitAt,
  visitInstants,
  type Recurrence,
} from '#shared/recurrence';
import type { VisitPlanView, visitPlanInput } from '#shared/schemas/visit-plans';
import type { z } from 'zod';
import type { DbOrTx, Tx } from '../db/client';
import { newId } from '../db/ids';
import { addJobWorkers, findJobById, openJobIds } from '../jobs';
import type { BusinessSettings } from '../lib/business';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import { composeEmail, enqueueMail, toClient } from '../mail';
import { clientReach } from '../texts';
import type { ClientOfJob } from './client-of-visit';
import { setVisitWorkers } from './repository';
import { bookableJob, callOffReminder, conflictsOf, existingWorkers, loadView, scheduleReminder } from './service';
import { visitPlans, visits } from './tables';

type PlanBody = z.output<typeof visitPlanInput>;
type PlanRow = typeof visitPlans.$inferSelect;

/** How many of a plan's dates its view and its e-mail list. */
const SHOWN_DATES = 5;

/**
 * A job's visits start repeating (decision 047): the plan is stored, its visits up to today + its
 * horizon are made at once, and the client is told once for the series (its words and first dates;
 * each visit then has its usual reminder), not once per visit.
 */
export async function startPlan(app: FastifyInstance, jobId: string, body: PlanBody): Promise<VisitPlanView> {
  const business = await app.settings.current();
  const job = await bookableJob(app.db, jobId);
  const workerIds = await existingWorkers(app, body.workerIds);
  const today = await app.settings.today();
  return app.db.transaction((tx) => startPlanIn(app, tx, { business, job, body, workerIds, today }));
}

/**
 * `startPlan`'s work in `tx`: also a signed service plan's (`offerId`), whose job was just made. Answers
 * the plan as the office reads it.
 */
export async function startPlanIn(
  app: FastifyInstance,
  tx: Tx,
  start: {
    business: BusinessSettings;
    job: ClientOfJob & { id: string; status: string };
    body: PlanBody;
    workerIds: string[];
    today: string;
    offerId?: string;
  },
): Promise<VisitPlanView> {
  const { business, job, body, today } = start;
  const plan = await insertPlan(tx, job.id, body, start.workerIds, { offerId: start.offerId ?? null });
  const { made, clashes } = await makeVisits(tx, business, plan, job, today);
  const reach = await clientReach(tx, job.clientId);
  if (reach.email) await enqueueMail(tx, toClient(seriesMail(business, job.contactEmail, plan.rule, made)));
  // A monthly plan whose first month has begun bills it now (after the series e-mail, in the same step).
  await billPlan(app, tx, business, plan, job.status, today);
  return { ...viewOfPlan((await planById(tx, plan.id))!, today), clashes };
}

/** A plan's row from the office's form, its crew added to the job's. */
async function insertPlan(
  tx: Tx,
  jobId: string,
  body: PlanBody,
  workerIds: string[],
  carried: { billedThrough?: string | null; offerId?: string | null } = {},
): Promise<PlanRow> {
  const [plan] = await tx
    .insert(visitPlans)
    .values({
      id: newId(),
      jobId,
      rule: body.rule,
      rrule: rruleLine(body.rule),
      workerIds,
      notes: body.notes,
      clientNote: body.clientNote,
      horizonWeeks: body.horizonWeeks,
      billing: body.billing,
      priceCents: body.billing === 'none' ? 0 : toCents(body.price),
      taxable: body.taxable,
      billedThrough: carried.billedThrough ?? null,
      offerId: carried.offerId ?? null,
    })
    .returning();
  await addJobWorkers(tx, jobId, workerIds);
  return plan!;
}

/**
 * "This and following" (decision 047): from a date on, the visits repeat as `body` says (its rule's
 * first date is that date). The plan so far keeps its visits before the date (its rule now ends the day
 * before, `splitAt`) and is closed; its visits from the date on are called off, whether or not moved by
 * hand (as a calendar application does), and the new plan makes its own. The months already invoiced
 * stay invoiced (the new plan goes on from the old one's last billed month). The client gets one e-mail
 * saying what changes from when, not a cancellation and a new series.
 */
export async function changePlan(app: FastifyInstance, planId: string, body: PlanBody): Promise<VisitPlanView> {
  const business = await app.settings.current();
  const today = await app.settings.today();
  const from = body.rule.firstDate;
  if (from < today) throw badRequest('A change starts today or later: pick today or a later date for From');
  const workerIds = await existingWorkers(app, body.workerIds);
  return app.db.transaction(async (tx) => {
    const [old] = await tx.select().from(visitPlans).where(eq(visitPlans.id, planId)).for('update');
    if (!old) throw notFound('Plan not found');
    if (old.endedAt)
      throw conflict('These repeating visits are stopped: make the visits repeat again instead', 'CONFLICT');
    const job = await bookableJob(tx, old.jobId);
    // The plans this one changed from: a change from before its first date reaches back into them.
    const earlier = await plansBefore(tx, old.id);
    const now = new Date();
    const plan = await insertPlan(tx, old.jobId, body, workerIds, {
      billedThrough: old.billedThrough,
      offerId: old.offerId,
    });
    await tx
      .update(visitPlans)
      .set({ ...keptBefore(old.rule, from), endedAt: now, replacedBy: plan.id, updatedAt: now })
      .where(eq(visitPlans.id, old.id));
    // An earlier plan whose dates reach the change's ends the day before it, as this one does.
    for (const p of earlier)
      if (p.rule.firstDate < from && (!p.rule.until || p.rule.until >= from))
        await tx
          .update(visitPlans)
          .set({ ...keptBefore(p.rule, from), updatedAt: now })
          .where(eq(visitPlans.id, p.id));
    const fromStart = zonedTimeToUtc(from, '00:00', business.timeZone);
    const series = [old.id, ...earlier.map((p) => p.id)];
    const replaced = await tx
      .update(visits)
      .set({ cancelledAt: now, cancelReason: 'The repeating visits changed.', updatedAt: now })
      .where(and(inArray(visits.planId, series), isNull(visits.cancelledAt), gte(visits.startsAt, fromStart)))
      .returning();
    for (const row of replaced) await callOffReminder(tx, row);
    const { made, clashes } = await makeVisits(tx, business, plan, job, today);
    const reach = await clientReach(tx, job.clientId);
    if (reach.email) await enqueueMail(tx, toClient(changedMail(business, job.contactEmail, plan.rule, made)));
    await billPlan(app, tx, business, plan, job.status, today);
    return { ...viewOfPlan((await planById(tx, plan.id))!, today), clashes };
  });
}

/**
 * The plan's visits from the day after the last made (or its first date; never before today) through
 * today + its horizon: each date once, whoever runs it and however often (the unique plan date). Each
 * made visit gets the plan's crew and its reminder. Answers the dates made.
 */
async function makeVisits(
  tx: Tx,
  business: BusinessSettings,
  plan: PlanRow,
  job: ClientOfJob & { id: string },
  today: string,
): Promise<{ made: string[]; clashes: string[] }> {
  if (plan.endedAt) return { made: [], clashes: [] };
  const through = addDays(today, plan.horizonWeeks * 7);
  const after = plan.madeThrough ? addDays(plan.madeThrough, 1) : plan.rule.firstDate;
  const from = after > today ? after : today;
  const made: string[] = [];
  const clashes: string[] = [];
  for (const date of occurrencesBetween(plan.rule, from, through)) {
    const { startsAt, endsAt } = visitInstants(plan.rule, date, business.timeZone);
    const [row] = await tx
      .insert(visits)
      .values({
        id: newId(),
        jobId: plan.jobId,
        startsAt,
        endsAt,
        notes: plan.notes,
        clientNote: plan.clientNote,
        planId: plan.id,
        planDate: date,
      })
      .onConflictDoNothing({ target: [visits.planId, visits.planDate], where: sql`${visits.planId} is not null` })
      .returning();
    if (!row) continue;
    await setVisitWorkers(tx, row.id, plan.workerIds);
    await scheduleReminder(tx, business, job, row, await loadView(tx, row.id, business.timeZone));
    made.push(date);
    // Booked whatever the crew's other visits and hours (a series is not refused for one date), but
    // said: the office moves the visits that clash.
    if (plan.workerIds.length) {
      const found = await conflictsOf(
        tx,
        plan.workerIds,
        { date, start: plan.rule.start, end: plan.rule.end },
        startsAt,
        endsAt,
        business.timeZone,
        row.id,
      );
      for (const c of found) clashes.push(`${formatShortDay(date)}: ${c.worker} ${c.detail}`);
    }
  }
  if (!plan.madeThrough || through > plan.madeThrough)
    await tx.update(visitPlans).set({ madeThrough: through, updatedAt: new Date() }).where(eq(visitPlans.id, plan.id));
  return { made, clashes };
}

/**
 * The horizon job's turn: every open plan of an open job gets its visits up to today + its horizon. Each
 * plan in a transaction of its own, its row locked, so two servers running it at once make each visit
 * once (the second finds them made). Answers how many visits were made.
 */
export async function makePlanVisits(app: FastifyInstance, on: { today?: string } = {}): Promise<number> {
  const business = await app.settings.current();
  // The business's today; a test names another (a plan's turn in a later season).
  const today = on.today ?? (await app.settings.today());
  // Open plans, and those stopped lately that bill per visit (a visit over before the stop is still billed).
  const open = await app.db
    .select({ id: visitPlans.id })
    .from(visitPlans)
    .where(
      or(
        isNull(visitPlans.endedAt),
        and(eq(visitPlans.billing, 'visit'), gt(visitPlans.endedAt, sql`now() - interval '60 days'`)),
      ),
    );
  let made = 0;
  for (const { id } of open) {
    made += await app.db.transaction(async (tx) => {
      const [plan] = await tx.select().from(visitPlans).where(eq(visitPlans.id, id)).for('update');
      const job = plan && (await findJobById(tx, plan.jobId));
      if (!plan || !job) return 0;
      const running = job.status !== 'Cancelled' && job.status !== 'Completed';
      const { made: dates, clashes } = running ? await makeVisits(tx, business, plan, job, today) : noneMade;
      // The office books no visit here: the owner is told of those that landed on the crew's other work.
      if (clashes.length)
        await enqueueMail(
          tx,
          clashMail(business, job.contactName, clashes, `${app.config.PUBLIC_URL}${paths.admin.job(job.id)}`),
        );
      const count = dates.length;
      await billPlan(app, tx, business, plan, job.status, today);
      return count;
    });
  }
  return made;
}

/**
 * A plan's invoices due on `today` (decision 047), in the plan's locked transaction, through the invoices
 * feature (numbers, e-mail, reminders, payments as any invoice): per visit, each of its visits that is over
 * and not cancelled, once (`visits.invoice_id`); per month, each month begun since the last billed, while
 * the plan and its job go on. The same visit or month is never billed twice (the invoice's source key).
 */
async function billPlan(
  app: FastifyInstance,
  tx: Tx,
  business: BusinessSettings,
  plan: PlanRow,
  jobStatus: string,
  today: string,
): Promise<void> {
  if (plan.billing === 'none' || plan.priceCents <= 0 || jobStatus === 'Cancelled') return;
  const line = (description: string) => ({
    description,
    quantity: 1,
    unitPriceCents: plan.priceCents,
    taxable: plan.taxable,
  });
  if (plan.billing === 'visit') {
    const over = await tx
      .select()
      .from(visits)
      .where(
        and(
          eq(visits.planId, plan.id),
          isNull(visits.cancelledAt),
          isNull(visits.invoiceId),
          lte(visits.endsAt, new Date()),
        ),
      )
      .orderBy(asc(visits.startsAt));
    for (const visit of over) {
      const day = wallTimeIn(business.timeZone, visit.startsAt).date;
      const invoiceId = await app.planInvoices.issue(tx, {
        jobId: plan.jobId,
        sourceKey: `visit:${visit.id}`,
        business,
        lines: [line(`Visit on ${formatShortDay(day)}, ${day.slice(0, 4)}`)],
      });
      await tx.update(visits).set({ invoiceId }).where(eq(visits.id, visit.id));
    }
    return;
  }
  if (plan.endedAt || jobStatus === 'Completed') return;
  const months = monthsToBill(plan.rule, {
    today,
    startedOn: todayIn(business.timeZone, plan.createdAt),
    billedThrough: plan.billedThrough,
  });
  for (const month of months) {
    const dates = occurrencesBetween(plan.rule, month, monthEnd(month));
    await app.planInvoices.issue(tx, {
      jobId: plan.jobId,
      sourceKey: `plan:${plan.id}:${month.slice(0, 7)}`,
      business,
      lines: [
        line(`Regular visits, ${monthName(month)}${dates.length ? `: ${dates.map(formatShortDay).join('; ')}` : ''}`),
      ],
    });
  }
  if (months.length)
    await tx
      .update(visitPlans)
      .set({ billedThrough: months.at(-1)!, updatedAt: new Date() })
      .where(eq(visitPlans.id, plan.id));
}

/**
 * The plan stops: no more visits are made, and its visits still to come (and those of the plans it was
 * changed from) are called off the way a job's end calls them off, with one e-mail for the series
 * instead of one per visit.
 */
export async function stopPlan(app: FastifyInstance, planId: string): Promise<VisitPlanView> {
  const business = await app.settings.current();
  const today = await app.settings.today();
  return app.db.transaction(async (tx) => {
    const [plan] = await tx
      .update(visitPlans)
      .set({ endedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(visitPlans.id, planId), isNull(visitPlans.endedAt)))
      .returning();
    if (!plan) {
      const known = await planById(tx, planId);
      if (!known) throw notFound('Plan not found');
      throw conflict('These repeating visits are already stopped', 'CONFLICT');
    }
    const now = new Date();
    // The series stops whole: the visits still to come of the plans it changed from too (those before
    // the change's date).
    const series = [planId, ...(await plansBefore(tx, planId)).map((p) => p.id)];
    const coming = await tx
      .update(visits)
      .set({ cancelledAt: now, cancelReason: 'The repeating visits are stopped.', updatedAt: now })
      .where(and(inArray(visits.planId, series), isNull(visits.cancelledAt), gte(visits.startsAt, now)))
      .returning();
    const job = await findJobById(tx, plan.jobId);
    // Their reminders (e-mail and text) and any "on my way" still waiting are called off with them.
    for (const row of coming) await callOffReminder(tx, row);
    const reach = await clientReach(tx, job!.clientId);
    if (reach.email && coming.length)
      await enqueueMail(tx, toClient(stoppedMail(business, job!.contactEmail, plan.rule)));
    return viewOfPlan(plan, today);
  });
}

/** The plans a plan changed from ("this and following"), nearest first, each locked. */
async function plansBefore(tx: Tx, planId: string): Promise<PlanRow[]> {
  const found: PlanRow[] = [];
  for (let at = planId; ;) {
    const [before] = await tx.select().from(visitPlans).where(eq(visitPlans.replacedBy, at)).for('update');
    if (!before || before.id === planId || found.some((p) => p.id === before.id)) return found;
    found.push(before);
    at = before.id;
  }
}

/** A plan's rule kept up to the day before `from`; whole when `from` is on or before its first date. */
function keptBefore(rule: Recurrence, from: string) {
  const kept = from > rule.firstDate ? splitAt(rule, from)[0] : rule;
  return { rule: kept, rrule: rruleLine(kept) };
}

/** How far ahead Reports counts the plans' work. */
export const RECURRING_AHEAD_DAYS = 90;

/**
 * Reports' recurring work (issue 31): the plans running (on jobs still open), what the monthly ones
 * bill a month, and the next 90 days by the plans' rules: their dates, and what they will invoice (a
 * per-visit plan's price for each date, a monthly plan's price for each 1st), before sales tax, in cents.
 */
export async function recurringFigures(db: DbOrTx, today: string, timeZone: string) {
  const running = await db.select().from(visitPlans).where(isNull(visitPlans.endedAt));
  // Their jobs in one read (a job a query was a read per plan, each time Reports was opened).
  const open = await openJobIds(db, [...new Set(running.map((plan) => plan.jobId))]);
  const through = addDays(today, RECURRING_AHEAD_DAYS);
  const figures = { plans: 0, monthlyCents: 0, visitsAhead: 0, aheadCents: 0 };
  for (const plan of running) {
    if (!open.has(plan.jobId)) continue;
    const dates = occurrencesBetween(plan.rule, addDays(today, 1), through);
    figures.plans += 1;
    figures.visitsAhead += dates.length;
    if (plan.billing === 'visit') figures.aheadCents += dates.length * plan.priceCents;
    if (plan.billing === 'month') {
      figures.monthlyCents += plan.priceCents;
      const firsts = monthsToBill(plan.rule, {
        today: through,
        startedOn: todayIn(timeZone, plan.createdAt),
        billedThrough: `${today.slice(0, 7)}-01`,
      });
      figures.aheadCents += firsts.length * plan.priceCents;
    }
  }
  return figures;
}

/** A job's plans, newest first. */
export async function plansOfJob(db: DbOrTx, jobId: string, today: string): Promise<VisitPlanView[]> {
  const rows = await db.select().from(visitPlans).where(eq(visitPlans.jobId, jobId)).orderBy(asc(visitPlans.createdAt));
  return rows.reverse().map((row) => viewOfPlan(row, today));
}

async function planById(db: DbOrTx, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(visitPlans).where(eq(visitPlans.id, id));
  return row;
}

function viewOfPlan(row: PlanRow, today: string): VisitPlanView {
  const ended = row.endedAt !== null;
  return {
    _id: row.id,
    jobId: row.jobId,
    rule: row.rule,
    description: describeRecurrence(row.rule),
    rrule: row.rrule,
    workerIds: row.workerIds,
    notes: row.notes,
    clientNote: row.clientNote,
    horizonWeeks: row.horizonWeeks,
    madeThrough: row.madeThrough,
    ended,
    replaced: row.replacedBy !== null,
    replacedBy: row.replacedBy,
    billing: row.billing,
    price: toDollars(row.priceCents),
    taxable: row.taxable,
    clashes: [],
    nextDates: ended ? [] : occurrencesBetween(row.rule, today, addDays(today, 400)).slice(0, SHOWN_DATES),
  };
}

const noneMade = { made: [] as string[], clashes: [] as string[] };

/** To the owner: the horizon job booked repeating visits over the crew's other work or time off. */
function clashMail(business: BusinessSettings, clientName: string, clashes: string[], jobLink: string) {
  const { html, text } = composeEmail({
    business,
    heading: `Repeating visits to move: ${clientName}`,
    blocks: [
      {
        kind: 'paragraph',
        text: `${clientName}'s repeating visits were booked further ahead, and ${clashes.length === 1 ? 'one lands' : `${clashes.length} land`} on the crew's other work or time off. Move ${clashes.length === 1 ? 'it' : 'them'} on the calendar, or choose another crew on the job's page.`,
      },
      ...clashes.map((text) => ({ kind: 'paragraph' as const, text })),
      { kind: 'button', label: 'Open the job', href: jobLink },
    ],
  });
  return {
    to: business.ownerEmail,
    subject: `Repeating visits to move: ${clientName} (${clashes.length})`,
    html,
    text,
  };
}

/** The rule's words inside a sentence: "every 2 weeks on Tuesday, …". */
const ruleWords = (rule: Recurrence) => {
  const words = describeRecurrence(rule);
  return `${words.charAt(0).toLowerCase()}${words.slice(1)}`;
};

function seriesMail(business: BusinessSettings, to: string, rule: Recurrence, dates: string[]) {
  const words = describeRecurrence(rule);
  const { html, text } = composeEmail({
    business,
    heading: 'Your regular visits are booked',
    blocks: [
      { kind: 'paragraph', text: `We will come ${ruleWords(rule)}.` },
      ...(dates.length
        ? [
            {
              kind: 'details' as const,
              rows: [['First visits', dates.slice(0, SHOWN_DATES).map(formatLongDate).join('; ')] as [string, string]],
            },
          ]
        : []),
      {
        kind: 'paragraph',
        text: `We remind you the day before each visit. Your page (the link below) lists them all; reply to this e-mail or call us at ${business.phone} to change one.`,
      },
    ],
  });
  return { to, subject: `Your regular visits: ${words}`, html, text };
}

function changedMail(business: BusinessSettings, to: string, rule: Recurrence, dates: string[]) {
  const words = describeRecurrence(rule);
  const { html, text } = composeEmail({
    business,
    heading: 'Your regular visits are changed',
    blocks: [
      {
        kind: 'paragraph',
        text: `From ${formatLongDate(rule.firstDate)}, we will come ${ruleWords(rule)}. The visits before then stay as they were.`,
      },
      ...(dates.length
        ? [
            {
              kind: 'details' as const,
              rows: [['Next visits', dates.slice(0, SHOWN_DATES).map(formatLongDate).join('; ')] as [string, string]],
            },
          ]
        : []),
      {
        kind: 'paragraph',
        text: `We remind you the day before each visit. Questions? Reply to this e-mail or call us at ${business.phone}.`,
      },
    ],
  });
  return { to, subject: `Your regular visits are changed: ${words}`, html, text };
}

function stoppedMail(business: BusinessSettings, to: string, rule: Recurrence) {
  const { html, text } = composeEmail({
    business,
    heading: 'Your regular visits are stopped',
    blocks: [
      {
        kind: 'paragraph',
        text: `We have stopped the visits ${ruleWords(rule)}; those still to come are cancelled.`,
      },
      { kind: 'paragraph', text: `Questions? Reply to this e-mail or call us at ${business.phone}.` },
    ],
  });
  return { to, subject: 'Your regular visits are stopped', html, text };
}
