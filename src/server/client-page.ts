import { arrivalWallTimes } from '#shared/arrival-window';
import type { FastifyInstance } from 'fastify';
import type { ClientPageView, ClientQuoteState } from '#shared/schemas/client-page';
import { clientInvoiceStatus } from '#shared/schemas/status-timeline';
import { paths } from '#shared/paths';
import { wallTimeIn } from '#shared/dates';
import { clientViews, type ClientRow } from './clients';
import { clientInvoicePaths, clientInvoicesOfJob } from './invoices';
import { jobReportOf } from './job-records';
import { onlineState } from './payments';
import { jobsOfClient } from './jobs';
import { requestsOfClient } from './quote-requests';
import { clientQuotePaths, isQuoteExpired, quotesOfRequests, type QuoteRow } from './quotes';
import { bookingRules, changeState } from './booking';
import { clientVisitCalendarPath, plansOfClientPage, visitsOfJob, visitsOfRequest } from './visits';
import { maskPageLink, textsSentTo } from './texts';

const byNewest =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(b).localeCompare(key(a));

function quoteState(quote: QuoteRow, today: string): ClientQuoteState {
  if (quote.replacedAt !== null) return 'replaced';
  if (quote.status === 'Accepted') return 'accepted';
  if (quote.status === 'Declined') return 'declined';
  return isQuoteExpired(quote, today) ? 'expired' : 'open';
}

/** A request's step in the client's words: the spec's statuses until a job, then the job's. */
function requestStatus(status: string, jobStatus: string | undefined): string {
  if (jobStatus === 'Completed') return 'Work done';
  if (jobStatus === 'Cancelled') return 'Cancelled';
  if (jobStatus) return 'Quote accepted';
  return (
    { Pending: 'Received', Accepted: 'Quote being prepared', 'Quote Sent': 'Quote sent', Declined: 'Declined' }[
      status
    ] ?? status
  );
}

/** Until when the client may move or cancel a visit themselves, and how many moves are left. */
function changeOf(rules: Awaited<ReturnType<typeof bookingRules>>, v: { startsAt: string; clientMoves: number }) {
  const { until, movesLeft } = changeState(rules, { startsAt: new Date(v.startsAt), clientMoves: v.clientMoves });
  return until ? { until: until.toISOString(), movesLeft } : null;
}

/**
 * Everything of a client's for their own page (decision 036), newest first: their requests, every
 * quote version with its PDF, their visits, the crew's reports, their invoices with balance and
 * payments. Each document's link is the one its e-mail carries (signed for that document alone).
 * Composed here, at the app's root, because it reads every feature that builds on clients.
 */
export async function clientPageOf(
  app: FastifyInstance,
  client: ClientRow,
  access: { readOnly: boolean; validUntil: Date | null },
): Promise<ClientPageView> {
  const { timeZone, arrivalWindowMinutes } = await app.settings.current();
  const today = await app.settings.today();
  // Days where the business is, as the status page gives them.
  const day = (at: Date) => wallTimeIn(timeZone, at).date;
  const [[view], requests, rules] = await Promise.all([
    clientViews(app.db, [client]),
    requestsOfClient(app.db, client.id),
    bookingRules(app.db),
  ]);
  const ids = requests.map((r) => r.id);
  // A service plan's job has no request: the client's own jobs are theirs too.
  const [quotes, jobs] = await Promise.all([quotesOfRequests(app.db, ids), jobsOfClient(app.db, client.id, ids)]);
  const jobOfRequest = new Map(jobs.map((j) => [j.quoteRequestId, j]));

  const perJob = await Promise.all(
    jobs.map(async (job) => {
      const [visits, invoices, report] = await Promise.all([
        visitsOfJob(app.db, job.id, timeZone),
        clientInvoicesOfJob(app, job.id, timeZone),
        job.status === 'Completed' ? jobReportOf(app.db, app.tokens, job.id, true) : undefined,
      ]);
      return { job, visits: visits.filter((v) => !v.cancelled), invoices, report };
    }),
  );
  const now = Date.now();

  // Estimate visits (issue 31) are their request's, before any job.
  const estimates = (await Promise.all(ids.map((id) => visitsOfRequest(app.db, id, timeZone))))
    .flat()
    .filter((v) => !v.cancelled);
  const visits = await Promise.all(
    [...perJob.flatMap((j) => j.visits), ...estimates].map(async (v) => ({
      id: v._id,
      // Shown to the client as their arrival window (Settings → Visits), not the visit's own minutes.
      ...arrivalWallTimes(v, arrivalWindowMinutes, timeZone),
      startsAt: v.startsAt,
      address: v.client.address,
      upcoming: Date.parse(v.endsAt) > now,
      confirmed: v.confirmedAt !== null,
      awaitingApproval: v.awaitingApproval,
      icsHref: await clientVisitCalendarPath(app, v._id),
      change: changeOf(rules, v),
    })),
  );
  const invoices = await Promise.all(
    perJob.flatMap(({ invoices }) =>
      invoices.map(async (i) => {
        const [links, online] = await Promise.all([clientInvoicePaths(app, i.id), onlineState(app, i.id)]);
        return {
          id: i.id,
          number: i.number,
          kind: i.kind,
          status: clientInvoiceStatus(i.status),
          totalCents: i.totalCents,
          balanceCents: i.balanceCents,
          issueDate: i.issueDate,
          dueDate: i.dueDate,
          href: links.page,
          pdfHref: links.pdf,
          checkout: online.available && !access.readOnly ? links.checkout : null,
          payments: [...i.payments].reverse(),
        };
      }),
    ),
  );

  return {
    client: {
      name: client.name,
      email: client.email,
      phone: client.phone,
      addresses: view!.addresses.map(({ street, city, state, zip }) => ({ street, city, state, zip })),
    },
    readOnly: access.readOnly,
    linkValidUntil: access.validUntil ? access.validUntil.toISOString().slice(0, 10) : null,
    requests: requests.map((r) => ({
      id: r.id,
      number: r.quoteNumber,
      status: requestStatus(r.status, jobOfRequest.get(r.id)?.status),
      address: `${r.street}, ${r.city}, ${r.state} ${r.zip}`,
      sentOn: day(r.createdAt),
      href: paths.quoteRequestStatusOf(r.id),
    })),
    quotes: await Promise.all(
      quotes.map(async (q) => {
        const links = await clientQuotePaths(app, q.quoteNumber, q.validUntil);
        return {
          number: q.quoteNumber,
          projectName: q.projectName,
          state: quoteState(q, today),
          totalCents: q.totalCents,
          sentOn: day(q.quoteDate),
          validUntil: q.validUntil,
          href: links.page,
          pdfHref: links.pdf,
        };
      }),
    ),
    // Upcoming first (soonest first), then past ones (latest first).
    visits: [
      ...visits.filter((v) => v.upcoming).sort((a, b) => a.startsAt.localeCompare(b.startsAt)),
      ...visits.filter((v) => !v.upcoming).sort(byNewest((v) => v.startsAt)),
    ],
    reports: perJob
      .filter((j) => j.report?.href)
      .map((j) => ({ jobId: j.job.id, on: day(j.report!.at), at: j.report!.at.toISOString(), href: j.report!.href! }))
      .sort(byNewest((r) => r.at)),
    invoices: invoices.sort(byNewest((i) => `${i.issueDate ?? ''}${i.number}`)),
    servicePlans: await plansOfClientPage(app, client.id, today, access.readOnly),
    // Staff looking at the page as the client sees it do not get the client's own short link.
    texts: (await textsSentTo(app.db, client.id, 10)).map((x) => ({
      ...x,
      body: access.readOnly ? maskPageLink(x.body) : x.body,
      at: x.at.toISOString(),
    })),
    balanceCents: invoices.reduce((sum, i) => sum + Math.max(0, i.balanceCents), 0),
  };
}
