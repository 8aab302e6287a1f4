import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toDollars } from '../../shared/money';
import { dashboardStats } from '../../shared/schemas/staff-quote-requests';
import { completedJobStats } from '../jobs';
import { requestDashboardCounts } from '../quote-requests';

/** The admin dashboard's figures: it reads the requests and jobs features, which know nothing of it. */
export async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/dashboard',
    {
      config: { access: 'admin' },
      schema: { tags: ['dashboard'], summary: 'Figures for the admin dashboard', response: { 200: dashboardStats } },
    },
    async () => {
      const [jobsDone, requests] = await Promise.all([completedJobStats(app.db), requestDashboardCounts(app.db)]);
      return {
        completedJobs: jobsDone.completed,
        revenue: toDollars(jobsDone.revenueCents),
        pendingQuoteRequests: requests.pending,
        newThisWeek: requests.week,
        newThisMonth: requests.month,
        quotes: requests.quotes,
      };
    },
  );
}
