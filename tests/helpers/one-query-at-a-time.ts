// Vitest setup for the files that run the app: a test fails when the app gives one PostgreSQL connection
// a query while another is still running on it (a `Promise.all` of reads inside a transaction). pg 8
// queues such a query with a deprecation warning, printed once per process, and pg@9 refuses it.
import pg from 'pg';
import { afterEach } from 'vitest';

type QueuedClient = { _queryQueue?: unknown[]; pipeline?: boolean };
const seen: string[] = [];
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: QueuedClient, ...args: unknown[]) {
  if ((this._queryQueue?.length ?? 0) > 0 && !this.pipeline) {
    const first = args[0] as string | { text?: string };
    seen.push(String(typeof first === 'string' ? first : first?.text).slice(0, 200));
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

afterEach(() => {
  const queued = [...seen];
  seen.length = 0;
  if (queued.length > 0)
    throw new Error(`A query was given to a connection still running another (pg@9 refuses it):\n${queued.join('\n')}`);
});
