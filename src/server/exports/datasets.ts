import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inKeyOrder } from '../lib/sql';

export type Cell = string | number | null;

interface Dataset {
  /** Each column: its header and the expression that fills it. */
  columns: (tz: string) => [string, SQL][];
  /**
   * The table each line hangs off (as `alias`), read in batches in the order of `key` (its last
   * column unique, an index leading with it): see `csvBatches`.
   */
  driver: { table: string; alias: string; key: string[] };
  /** What is joined onto a batch of the driver's rows, and the order of the lines within one of them. */
  joins?: string;
  then?: string[];
}

const local = (column: string, tz: string) => sql`to_char(${sql.raw(column)} at time zone ${tz}, 'YYYY-MM-DD HH24:MI')`;
const dollars = (cents: string) => sql`round((${sql.raw(cents)}) / 100.0, 2)::text`;
const yesNo = (column: string) => sql`case when ${sql.raw(column)} then 'yes' else 'no' end`;
const raw = (expression: string) => sql.raw(expression);
const crewOf = (table: string, key: string, id: string) =>
  sql.raw(`(select string_agg(coalesce(nullif(u.full_name, ''), u.username), ', ' order by u.full_name, u.username)
    from ${table} w join users u on u.id = w.user_id where w.${key} = ${id})`);

/** The CSV files the back office exports here (invoices and payments come from the invoices feature). */
const DATASETS = {
  // One row per client and property: the columns the clients import reads back.
  clients: {
    columns: (tz) => [
      ['Name', raw('c.name')],
      ['Email', raw('c.email')],
      ['Phone', raw('c.phone')],
      ['Street', raw('a.street')],
      ['City', raw('a.city')],
      ['State', raw('a.state')],
      ['Zip', raw('a.zip')],
      ['Notes', raw('c.notes')],
      ['Client since', local('c.created_at', tz)],
    ],
    driver: { table: 'clients', alias: 'c', key: ['created_at', 'id'] },
    // Each client's addresses read by its index (the order keeps the planner from turning it back
    // into a join that hashed all 100,000 addresses for every batch).
    joins:
      'left join lateral (select * from client_addresses where client_id = c.id order by created_at, id) a on true',
    then: ['a.created_at', 'a.id'],
  },
  requests: {
    columns: (tz) => [
      ['Number', raw('r.quote_number')],
      ['Status', raw('r.status')],
      ['Quote status', raw('r.quote_status')],
      ['Name', raw('r.contact_name')],
      ['Email', raw('r.contact_email')],
      ['Phone', raw('r.contact_phone')],
      ['Street', raw('r.street')],
      ['City', raw('r.city')],
      ['State', raw('r.state')],
      ['Zip', raw('r.zip')],
      ['Notes', raw('r.notes')],
      ['Preferred end date', raw('r.preferred_end_date::text')],
      ['Decline reason', raw('r.decline_reason')],
      ['Photos', raw('(select count(*)::int from quote_request_images i where i.quote_request_id = r.id)')],
      ['Received', local('r.created_at', tz)],
    ],
    driver: { table: 'quote_requests', alias: 'r', key: ['created_at', 'id'] },
  },
  // One row per line of every version of every quote, the quote's own figures on each.
  quotes: {
    columns: (tz) => [
      ['Quote', raw('q.quote_number')],
      ['Version', raw('q.version')],
      ['Request', raw('r.quote_number')],
      ['Client', raw('q.client_name')],
      ['Project', raw('q.project_name')],
      ['Status', raw('q.status')],
      ['Current version', sql`case when q.replaced_at is null then 'yes' else 'no' end`],
      ['Quote date', local('q.created_at', tz)],
      ['Valid until', raw('q.valid_until::text')],
      ['Kind', raw('l.kind')],
      ['Description', raw('l.description')],
      ['Quantity or hours', raw('l.amount::text')],
      ['Unit price or rate', dollars('l.price_cents')],
      ['Optional', yesNo('l.optional')],
      ['Chosen', yesNo('l.included')],
      ['Line total', dollars('round(l.price_cents * l.amount)')],
      ['Subtotal', dollars('q.subtotal_cents')],
      ['Tax', dollars('q.tax_cents')],
      ['Total', dollars('q.total_cents')],
    ],
    driver: { table: 'quotes', alias: 'q', key: ['created_at', 'id'] },
    joins: `join quote_requests r on r.id = q.quote_request_id
      left join (
        select quote_id, position, 'Material' as kind, name as description, quantity as amount,
          unit_price_cents as price_cents, optional, included
        from quote_materials
        union all
        select quote_id, 1000000 + position, 'Labor', description, hours, hourly_rate_cents, optional, included
        from quote_labor
      ) l on l.quote_id = q.id`,
    then: ['l.position'],
  },
  jobs: {
    columns: (tz) => [
      ['Job', raw('j.id')],
      ['Request', raw('r.quote_number')],
      ['Quote', raw('q.quote_number')],
      ['Client', raw('j.contact_name')],
      ['Email', raw('j.contact_email')],
      ['Phone', raw('j.contact_phone')],
      ['Street', raw('j.street')],
      ['City', raw('j.city')],
      ['State', raw('j.state')],
      ['Zip', raw('j.zip')],
      ['Status', raw('j.status')],
      ['Cancel reason', raw('j.cancel_reason')],
      ['Crew', crewOf('job_workers', 'job_id', 'j.id')],
      ['Notes', raw('j.notes')],
      ['Created', local('j.created_at', tz)],
      ['Report', local('jr.report_at', tz)],
    ],
    driver: { table: 'jobs', alias: 'j', key: ['created_at', 'id'] },
    joins: `left join quote_requests r on r.id = j.quote_request_id left join quotes q on q.id = j.quote_id
      left join job_records jr on jr.job_id = j.id`,
  },
  visits: {
    columns: (tz) => [
      ['Visit', raw('v.id')],
      ['Job', raw('v.job_id')],
      ['Request', raw('v.quote_request_id')],
      ['Client', raw('coalesce(j.contact_name, r.contact_name)')],
      [
        'Address',
        raw(
          "case when j.id is not null then concat_ws(', ', j.street, j.city, j.state || ' ' || j.zip) else concat_ws(', ', r.street, r.city, r.state || ' ' || r.zip) end",
        ),
      ],
      ['Starts', local('v.starts_at', tz)],
      ['Ends', local('v.ends_at', tz)],
      ['Crew', crewOf('visit_workers', 'visit_id', 'v.id')],
      ['Notes', raw('v.notes')],
      ['Cancelled', local('v.cancelled_at', tz)],
      ['Cancel reason', raw('v.cancel_reason')],
    ],
    driver: { table: 'visits', alias: 'v', key: ['starts_at', 'id'] },
    // An estimate visit (issue 31) is its request's: who and where come from there.
    joins: 'left join jobs j on j.id = v.job_id left join quote_requests r on r.id = v.quote_request_id',
  },
} satisfies Record<string, Dataset>;
export type CsvDataset = keyof typeof DATASETS;

/**
 * How many of the driver's rows one query reads: at 100 (500 lines of quotes) a batch's rows and text
 * die young and the server's memory stays flat over 100,000 clients (+2 to +6 MB); at 200 or 500 they
 * outlived the young generation and the memory rose by +30 to +120 MB (decision 028, session 30).
 */
const BATCH = 100;

/**
 * A dataset's header and its rows in batches, times in the business's zone, money in dollars. Each
 * batch is one query: the driver's next BATCH rows after the last key read (the key read back as text,
 * so a timestamp keeps its microseconds), with their joins.
 */
export function csvBatches(
  db: Db,
  dataset: CsvDataset,
  timeZone: string,
  batchSize = BATCH,
): { headers: string[]; batches: AsyncGenerator<Cell[][]> } {
  const { columns: columnsOf, driver, joins = '', then = [] } = DATASETS[dataset] as Dataset;
  const columns = columnsOf(timeZone);
  const { table, alias, key } = driver;
  const select = sql.join(
    [
      ...columns.map(([, expression], i) => sql`${expression} as ${sql.raw(`c${i}`)}`),
      ...key.map((column, i) => sql.raw(`${alias}.${column}::text as k${i}`)),
    ],
    sql`, `,
  );
  const keyList = sql.raw(key.join(', '));
  const order = sql.raw([...key.map((column) => `${alias}.${column}`), ...then].join(', '));
  const cellNames = columns.map((_, i) => `c${i}`);
  const keyNames = key.map((_, i) => `k${i}`);
  type Row = { cells: Cell[]; key: string[] };
  const batches = inKeyOrder<Row>(async (last) => {
    const after = last
      ? sql`where (${keyList}) > (${sql.join(
          last.key.map((k) => sql`${k}`),
          sql`, `,
        )})`
      : sql``;
    const result = (await db.execute(
      sql`select ${select} from (select * from ${sql.raw(table)} ${after} order by ${keyList} limit ${batchSize}) ${sql.raw(alias)}
        ${sql.raw(joins)} order by ${order}`,
    )) as { rows: Record<string, unknown>[] };
    return result.rows.map((row) => ({
      cells: cellNames.map((name) => {
        const v = row[name];
        return v === null || v === undefined ? null : typeof v === 'number' ? v : String(v);
      }),
      key: keyNames.map((name) => String(row[name])),
    }));
  });
  return {
    headers: columns.map(([header]) => header),
    batches: (async function* () {
      for await (const batch of batches) yield batch.map((row) => row.cells);
    })(),
  };
}
