import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addDays, todayIn } from '../../shared/dates';
import { reportView } from '../../shared/schemas/reports';
import { invoices, jobRecords, jobs, payments, quoteRequests, quotes } from '../db/schema';
import { settledJobs } from '../invoices';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The Reports page's figures. A read model over several features' tables (requests, quotes, jobs, the
 * crew's record, invoices, payments), read with SQL aggregates and written by none of them.
 */
export async function reportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/reports',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['reports'],
        summary: 'Revenue by month, the funnel, and how long things take',
        response: { 200: reportView },
      },
    },
    async () => {
      const timeZone = (await app.settings.current()).timeZone;
      const today = todayIn(timeZone);
      const firstMonth = `${addDays(`${today.slice(0, 8)}01`, -335).slice(0, 8)}01`;
      const net = sql`${payments.amountCents} - round(${payments.amountCents}::numeric * ${invoices.taxCents} / nullif(${invoices.totalCents}, 0))`;
      const byMonth = rowsOf<{ month: string; cents: string }>(
        await app.db.execute(sql`
          select to_char(${payments.paidOn}, 'YYYY-MM') as month, sum(${net}) as cents
          from ${payments} join ${invoices} on ${invoices.id} = ${payments.invoiceId}
          where ${invoices.state} = 'Sent' and ${payments.paidOn} >= ${firstMonth}::date
          group by 1`),
      );
      const months: { month: string; revenue: number }[] = [];
      for (let m = firstMonth; m <= today; m = addDays(`${m.slice(0, 8)}01`, 32).slice(0, 8) + '01') {
        const key = m.slice(0, 7);
        months.push({ month: key, revenue: Number(byMonth.find((b) => b.month === key)?.cents ?? 0) / 100 });
      }
      const [funnel] = rowsOf<{ requests: string; quoted: string; accepted: string; paid: string }>(
        await app.db.execute(sql`
          select
            (select count(*) from ${quoteRequests}) as requests,
            (select count(distinct ${quotes.quoteRequestId}) from ${quotes}) as quoted,
            (select count(distinct ${quotes.quoteRequestId}) from ${quotes} where ${quotes.status} = 'Accepted') as accepted,
            (select count(distinct ${jobs.quoteRequestId}) from ${settledJobs} settled
              join ${jobs} on ${jobs.id} = settled.job_id) as paid`),
      );
      const [averages] = rowsOf<{ to_quote: string | null; to_payment: string | null }>(
        await app.db.execute(sql`
          select
            (select avg(extract(epoch from first_quote - ${quoteRequests.createdAt}) / 86400)
               from (select ${quotes.quoteRequestId} as id, min(${quotes.quoteDate}) as first_quote from ${quotes} group by 1) q
               join ${quoteRequests} on ${quoteRequests.id} = q.id) as to_quote,
            (select avg(settled.last_paid - (${jobRecords.reportAt} at time zone ${timeZone})::date)
               from ${settledJobs} settled
               join ${jobRecords} on ${jobRecords.jobId} = settled.job_id
               where ${jobRecords.reportAt} is not null) as to_payment`),
      );
      const days = (value: string | null | undefined) =>
        value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10;
      return {
        revenueByMonth: months,
        funnel: {
          requests: Number(funnel?.requests ?? 0),
          quoted: Number(funnel?.quoted ?? 0),
          accepted: Number(funnel?.accepted ?? 0),
          paid: Number(funnel?.paid ?? 0),
        },
        averageDaysToQuote: days(averages?.to_quote),
        averageDaysToPayment: days(averages?.to_payment),
      };
    },
  );
}
