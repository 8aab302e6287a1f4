import { addDays, formatClock, todayIn, wallTimeIn, zonedTimeToUtc } from '#shared/dates';
import { formatMoney } from '#shared/money';
import { NEEDS_YOU_LIST_LIMIT, type NeedsYouToday } from '#shared/schemas/dashboard';
import { jobNumberOf } from '#shared/schemas/jobs';
import { OPEN_JOB_STATUSES } from '#shared/statuses';
import type { Db, DbOrTx } from '../db/client';
import { requestsOfMail } from '../activity';
import { hasFinalInvoice, unpaidDeposits } from '../invoices';
import { jobsLacking } from '../jobs';
import { failingMail } from '../mail';
import { failingTexts } from '../texts';
import { requestsAwaitingQuote } from '../quote-requests';
import { hasBookedVisit, visitsStarting } from '../visits';

/**
 * How the lists of records are read: at once, or kept while nothing they show has changed (the route
 * keeps them under the figures' and the calendar's versions). The e-mails and texts that failed are
 * always read live.
 */
export type KeepRecords = <T>(read: () => Promise<T>) => Promise<T>;

/** The visits of today and tomorrow, and the requests, jobs and deposits waiting: each list by its feature. */
function recordsWaiting(db: DbOrTx, today: string, timeZone: string, limit: number) {
  const tomorrow = addDays(today, 1);
  return Promise.all([
    visitsStarting(db, zonedTimeToUtc(today, '00:00', timeZone), zonedTimeToUtc(tomorrow, '00:00', timeZone), limit),
    visitsStarting(
      db,
      zonedTimeToUtc(tomorrow, '00:00', timeZone),
      zonedTimeToUtc(addDays(tomorrow, 1), '00:00', timeZone),
      limit,
      true,
    ),
    requestsAwaitingQuote(db, limit),
    jobsLacking(db, OPEN_JOB_STATUSES, hasBookedVisit, limit),
    jobsLacking(db, ['Completed'], hasFinalInvoice, limit),
    unpaidDeposits(db, limit),
  ]);
}

/** The lists of records as the screen shows them: made once per version, with their words and times. */
async function listsWaiting(db: DbOrTx, today: string, timeZone: string, limit: number) {
  const [visits, unconfirmed, requests, unscheduled, toInvoice, deposits] = await recordsWaiting(
    db,
    today,
    timeZone,
    limit,
  );
  const clock = (at: Date) => formatClock(wallTimeIn(timeZone, at).time);
  const job = (j: { id: string; name: string; city: string }) => ({
    id: j.id,
    label: j.name,
    detail: `Job ${jobNumberOf(j.id)} · ${j.city}`,
  });
  return {
    visits: {
      count: visits.count,
      items: visits.rows.map((v) => ({
        id: v.jobId,
        label: v.name,
        detail: `${v.jobId ? '' : 'Estimate · '}${clock(v.startsAt)} – ${clock(v.endsAt)} · ${v.city}`,
      })),
    },
    unconfirmedVisits: {
      count: unconfirmed.count,
      items: unconfirmed.rows.map((v) => ({
        id: v.jobId,
        label: v.name,
        detail: `${v.jobId ? '' : 'Estimate · '}Tomorrow ${clock(v.startsAt)} – ${clock(v.endsAt)} · ${v.city}`,
      })),
    },
    acceptedRequests: {
      count: requests.count,
      items: requests.rows.map((r) => ({ id: r.id, label: r.name, detail: `Request ${r.quoteNumber} · ${r.city}` })),
    },
    jobsWithoutVisit: { count: unscheduled.count, items: unscheduled.rows.map(job) },
    jobsToInvoice: { count: toInvoice.count, items: toInvoice.rows.map(job) },
    unpaidDeposits: {
      count: deposits.count,
      items: deposits.rows.map((d) => ({
        id: d.id,
        label: `${d.number ?? 'Draft'} · ${d.name}`,
        detail: `${formatMoney(d.owedCents)} owed`,
      })),
    },
  };
}

/**
 * What waits for the owner today (today in the business's time zone): each list is read by the feature
 * that owns its records; the jobs' two lists ask the visits and invoices features about each job. The
 * lists of records are kept as the screen shows them (their times written once per version, not on every
 * opening); the failing e-mails and texts are read live.
 */
export async function needsYouToday(
  db: Db,
  timeZone: string,
  now = new Date(),
  keep: KeepRecords = (read) => read(),
): Promise<NeedsYouToday> {
  const today = todayIn(timeZone, now);
  const limit = NEEDS_YOU_LIST_LIMIT;
  const [lists, mail, texts] = await Promise.all([
    keep(() => listsWaiting(db, today, timeZone, limit)),
    failingMail(db, limit),
    failingTexts(db, limit),
  ]);
  const mailRequests = await requestsOfMail(
    db,
    mail.rows.map((m) => m.id),
  );
  return {
    date: today,
    ...lists,
    failingEmails: {
      count: mail.count,
      items: mail.rows.map((m) => ({ id: mailRequests.get(m.id) ?? null, label: m.subject, detail: `To ${m.to}` })),
    },
    failingTexts: {
      count: texts.count,
      items: texts.rows.map((t) => ({ id: t.clientId, label: t.name, detail: t.reason })),
    },
  };
}
