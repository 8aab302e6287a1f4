import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toDollars } from '#shared/money';
import { dashboardStats } from '#shared/schemas/staff-quote-requests';
import { completedJobStats } from '../jobs';
import { requestKeptCounts, requestWindowCounts } from '../quote-requests';
import { invoiceFigures } from '../invoices';
import { cachedFigures } from '../figures';
import { todayIn } from '#shared/dates';
import { needsYouToday as needsYouTodaySchema } from '#shared/schemas/dashboard';
import { calendarVersionNow } from '../visits';
import { needsYouToday } from './needs-you';

/** The admin dashboard's figures: it reads the requests, jobs and invoices features, which know nothing of it. */
export async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/dashboard',
    {
      config: { access: 'office' },
      schema: { tags: ['dashboard'], summary: 'Figures for the admin dashboard', response: { 200: dashboardStats } },
    },
    async () => {
      const today = todayIn((await app.settings.current()).timeZone);
      // The kept counts are read live; the rest is computed once per change of the figures' version
      // (decision 028), and of the number of requests: a visitor's new request does not touch the
      // version (its lock would be on every request's commit), it makes a new total.
      const requests = await requestKeptCounts(app.db);
      const [jobsDone, money, windows] = await cachedFigures(app.db, `dashboard ${today} ${requests.all}`, () =>
        Promise.all([
          completedJobStats(app.db),
          invoiceFigures(app.db, today, `${today.slice(0, 8)}01`),
          requestWindowCounts(app.db),
        ]),
      );
      return {
        completedJobs: jobsDone.completed,
        revenue: toDollars(money.receivedCents),
        revenueThisMonth: toDollars(money.receivedThisMonthCents),
        outstanding: toDollars(money.outstandingCents),
        overdueInvoices: money.overdue,
        pendingQuoteRequests: requests.pending,
        newThisWeek: windows.week,
        newThisMonth: windows.month,
        quotes: windows.quotes,
      };
    },
  );
  r.get(
    '/dashboard/today',
    {
      config: { access: 'office' },
      schema: {
        tags: ['dashboard'],
        summary: "Needs you today: today's visits and the records waiting for the owner",
        response: { 200: needsYouTodaySchema },
      },
    },
    async () => {
      const timeZone = (await app.settings.current()).timeZone;
      // Its lists count whole tables (30–50 ms a call at a business's years, decision 028): kept while
      // the figures' version (jobs, invoices, payments, quotes, requests' status and names) and the
      // calendar's (visits) stand, as Reports keeps its figures; at most a minute old.
      const [calendar, now] = [await calendarVersionNow(app.db), new Date()];
      return needsYouToday(app.db, timeZone, now, (read) =>
        cachedFigures(app.db, `needs you ${todayIn(timeZone, now)} ${timeZone} ${calendar}`, read),
      );
    },
  );
}
