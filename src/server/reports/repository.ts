import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { jobRecords, jobs, quoteRequests, quotes } from '../db/schema';
import { settledJobs } from '../invoices';

// Reports is a read model over several features' tables (requests, quotes, jobs, the crew's record,
// invoices), read with SQL aggregates and written by none of them. Its money comes from the invoices
// feature's own rules (`revenueByMonth`), the same as the dashboard's.

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** How many requests were quoted, accepted, and paid in full (how many there are: the kept counts). */
export async function funnel(db: DbOrTx) {
  const [row] = rowsOf<{ quoted: string; accepted: string; paid: string }>(
    await db.execute(sql`
      select
        (select count(distinct ${quotes.quoteRequestId}) from ${quotes}) as quoted,
        (select count(distinct ${quotes.quoteRequestId}) from ${quotes} where ${quotes.status} = 'Accepted') as accepted,
        (select count(distinct ${jobs.quoteRequestId}) from ${settledJobs} settled
          join ${jobs} on ${jobs.id} = settled.job_id) as paid`),
  );
  return {
    quoted: Number(row?.quoted ?? 0),
    accepted: Number(row?.accepted ?? 0),
    paid: Number(row?.paid ?? 0),
  };
}

/** Average days from a request to its first quote, and from a job's completion to its last payment (in `timeZone`). */
export async function averageDays(db: DbOrTx, timeZone: string) {
  const [row] = rowsOf<{ to_quote: string | null; to_payment: string | null }>(
    await db.execute(sql`
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
  return { toQuote: days(row?.to_quote), toPayment: days(row?.to_payment) };
}
