import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toDollars } from '../../shared/money';
import { dashboardStats } from '../../shared/schemas/staff-quote-requests';
import { completedJobStats } from '../jobs';
import { requestDashboardCounts } from '../quote-requests';
import { invoiceFigures } from '../invoices';
import { todayIn } from '../../shared/dates';

/** The admin dashboard's figures: it reads the requests, jobs and invoices features, which know nothing of it. */
export async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/dashboard',
    {
      config: { access: 'admin' },
      schema: { tags: ['dashboard'], summary: 'Figures for the admin dashboard', response: { 200: dashboardStats } },
    },
    async () => {
      const today = todayIn((await app.settings.current()).timeZone);
      const [jobsDone, requests, money] = await Promise.all([
        completedJobStats(app.db),
        requestDashboardCounts(app.db),
        invoiceFigures(app.db, today, `${today.slice(0, 8)}01`),
      ]);
      return {
        completedJobs: jobsDone.completed,
        revenue: toDollars(money.receivedCents),
        revenueThisMonth: toDollars(money.receivedThisMonthCents),
        outstanding: toDollars(money.outstandingCents),
        overdueInvoices: money.overdue,
        pendingQuoteRequests: requests.pending,
        newThisWeek: requests.week,
        newThisMonth: requests.month,
        quotes: requests.quotes,
      };
    },
  );
}
