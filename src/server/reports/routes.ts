import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addDays, todayIn } from '#shared/dates';
import { toDollars } from '#shared/money';
import { reportView } from '#shared/schemas/reports';
import { revenueByMonth } from '../invoices';
import { requestKeptCounts } from '../quote-requests';
import { RECURRING_AHEAD_DAYS, recurringFigures } from '../visits';
import { cachedFigures } from '../figures';
import { averageDays, funnel } from './repository';

/** The Reports page's figures: the last twelve months' revenue, the funnel, and how long things take. */
export async function reportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/reports',
    {
      config: { access: 'office' },
      schema: {
        tags: ['reports'],
        summary: 'Revenue by month, the funnel, how long things take, and the repeating work ahead',
        response: { 200: reportView },
      },
    },
    async () => {
      const timeZone = (await app.settings.current()).timeZone;
      const today = todayIn(timeZone);
      const firstMonth = `${addDays(`${today.slice(0, 8)}01`, -335).slice(0, 8)}01`;
      // How many requests there are is read live from the kept counts: a visitor's request does not
      // wait on the figures' version (decision 028); the rest, the service plans' work ahead too
      // (migration 0060), is computed once per change of it.
      const [[revenue, counts, averages, recurring], requests] = await Promise.all([
        cachedFigures(app.db, `reports ${today} ${timeZone}`, () =>
          Promise.all([
            revenueByMonth(app.db, firstMonth),
            funnel(app.db),
            averageDays(app.db, timeZone),
            recurringFigures(app.db, today, timeZone),
          ]),
        ),
        requestKeptCounts(app.db),
      ]);
      const months: { month: string; revenue: number }[] = [];
      for (let m = firstMonth; m <= today; m = addDays(`${m.slice(0, 8)}01`, 32).slice(0, 8) + '01') {
        const key = m.slice(0, 7);
        months.push({ month: key, revenue: toDollars(revenue.get(key) ?? 0) });
      }
      return {
        revenueByMonth: months,
        funnel: { ...counts, requests: requests.all },
        averageDaysToQuote: averages.toQuote,
        averageDaysToPayment: averages.toPayment,
        recurring: {
          plans: recurring.plans,
          monthly: toDollars(recurring.monthlyCents),
          days: RECURRING_AHEAD_DAYS,
          visitsAhead: recurring.visitsAhead,
          ahead: toDollars(recurring.aheadCents),
        },
      };
    },
  );
}
