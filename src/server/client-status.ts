import { arrivalWallTimes } from '#shared/arrival-window';
import type { FastifyInstance } from 'fastify';
import { wallTimeIn } from '#shared/dates';
import {
  bareStep,
  clientInvoiceStatus,
  type TimelineStep,
  type TimelineStepName,
} from '#shared/schemas/status-timeline';
import { clientPagePath, notePageLinkSent } from './clients';
import { clientInvoiceLink, clientInvoicesOfJob, type ClientInvoiceSummary } from './invoices';
import { jobReportOf } from './job-records';
import { jobsOfRequests } from './jobs';
import { findQuoteRequestById } from './quote-requests';
import { clientQuoteLink, quotesOfRequests } from './quotes';
import { visitsOfJob } from './visits';

/** A signed client link as a path on this site: the status page links to it as the e-mail does, without the origin. */
const onSite = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/**
 * The client's timeline of one request: received → quote sent → accepted → visit booked → work done →
 * invoice → paid, each with its day in the business's time zone. With `documents` (the page was opened
 * from our e-mail's link), each document's number and signed link and an invoice's balance come too.
 * Composed here, at the app's root, because it reads requests, quotes, jobs, visits, the crew's record
 * and invoices, each through its feature's entry.
 */
export async function clientTimeline(
  app: FastifyInstance,
  requestId: string,
  documents: boolean,
): Promise<{ steps: TimelineStep[]; jobCancelled: boolean }> {
  const request = await findQuoteRequestById(app.db, requestId);
  if (!request) return { steps: [], jobCancelled: false };
  const { timeZone, arrivalWindowMinutes } = await app.settings.current();
  const day = (at: Date) => wallTimeIn(timeZone, at).date;
  const steps: TimelineStep[] = [bareStep('received', true, day(request.createdAt))];
  if (request.status === 'Declined') return { steps, jobCancelled: false };

  const [quotes, jobs] = await Promise.all([
    quotesOfRequests(app.db, [requestId]),
    jobsOfRequests(app.db, [requestId]),
  ]);
  const quote = quotes.find((q) => q.replacedAt === null);
  steps.push({
    ...bareStep('quoteSent', quote !== undefined, quote ? day(quote.quoteDate) : null),
    ...(quote && documents
      ? { number: quote.quoteNumber, href: onSite(await clientQuoteLink(app, quote.quoteNumber, quote.validUntil)) }
      : {}),
  });
  if (quote?.status === 'Declined') return { steps, jobCancelled: false };
  const accepted = quote?.status === 'Accepted';
  steps.push(bareStep('accepted', accepted, accepted && quote.answeredAt ? day(quote.answeredAt) : null));

  // The job the acceptance made (the newest, should there be more).
  const job = accepted ? jobs[0] : undefined;
  const invoices = job ? await clientInvoicesOfJob(app, job.id, timeZone) : [];
  const invoiceStep = async (invoice: ClientInvoiceSummary): Promise<TimelineStep> => ({
    ...bareStep('invoice', true, invoice.issueDate),
    kind: invoice.kind,
    invoiceStatus: clientInvoiceStatus(invoice.status),
    ...(documents
      ? {
          number: invoice.number,
          href: onSite(await clientInvoiceLink(app, invoice.id)),
          balance: invoice.balance,
          dueDate: invoice.dueDate,
        }
      : {}),
  });
  for (const deposit of invoices.filter((i) => i.kind === 'deposit')) steps.push(await invoiceStep(deposit));
  if (job?.status === 'Cancelled') return { steps, jobCancelled: true };

  const completed = job?.status === 'Completed';
  const report = job && completed ? await jobReportOf(app.db, app.tokens, job.id, documents) : undefined;
  const visit = await visitStep(
    app,
    job?.id,
    { timeZone, arrivalWindowMinutes },
    completed ? (report?.at ?? new Date()) : null,
  );
  // From our e-mail's link, a visit still to come links to the client's own page, where it is
  // rescheduled or cancelled (decision 046): handing the link out counts as sending it (its 60 days).
  if (documents && visit.upcoming && job?.clientId) {
    await notePageLinkSent(app, job.clientId);
    visit.href = `${await clientPagePath(app, job.clientId)}#visits`;
  }
  // A job done without a booked visit (the office completed it) skips the step rather than leave it open.
  if (visit.done || !completed) steps.push(visit);
  steps.push({
    ...bareStep('workDone', completed, report ? day(report.at) : null),
    href: report?.href ?? null,
  });
  const bill = invoices.find((i) => i.kind === 'final');
  steps.push(bill ? await invoiceStep(bill) : { ...bareStep('invoice', false), kind: 'final' });
  const paid = bill?.status === 'Paid';
  steps.push(bareStep('paid', paid, paid ? bill.lastPaidOn : null));
  return { steps, jobCancelled: false };
}

/**
 * The visit step: before the work is done, the next booked visit (or the last one, if all are past);
 * once it is done (`doneAt`), the last visit that began by then, and never one still ahead.
 */
async function visitStep(
  app: FastifyInstance,
  jobId: string | undefined,
  { timeZone, arrivalWindowMinutes }: { timeZone: string; arrivalWindowMinutes: number },
  doneAt: Date | null,
): Promise<TimelineStep> {
  const name: TimelineStepName = 'visit';
  if (!jobId) return bareStep(name, false);
  const booked = (await visitsOfJob(app.db, jobId, timeZone)).filter((v) => !v.cancelled);
  const now = Date.now();
  const visit = doneAt
    ? booked.filter((v) => Date.parse(v.startsAt) <= doneAt.getTime()).at(-1)
    : (booked.find((v) => Date.parse(v.endsAt) > now) ?? booked.at(-1));
  if (!visit) return bareStep(name, false);
  // The client is given an arrival window, not the visit's minutes (Settings → Visits).
  const { start, end, arriving } = arrivalWallTimes(visit, arrivalWindowMinutes, timeZone);
  return {
    ...bareStep(name, true, visit.date),
    window: { start, end, arriving },
    upcoming: !doneAt && Date.parse(visit.endsAt) > now,
  };
}
