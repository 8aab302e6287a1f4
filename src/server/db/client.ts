import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import tar from 'tar-stream';
import * as schema from './schema';
import {
  forgetFreshCluster,
  freshClusterFile,
  isNewDataDir,
  keepFreshCluster,
  readFreshCluster,
} from './fresh-cluster';
import { PGLITE_SETTINGS } from './pglite-bytes';
import { PGliteThread } from './pglite-thread';
import { migrationsFolder, refuseNewerDatabase } from './versions';
import { backoffMs } from '../lib/backoff';
import { isLostToAnotherTransaction } from '../lib/db-errors';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: the same query API as Db, so repositories accept either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies the migrations this database does not have yet, all in one transaction (drizzle's
   * migrator): one that fails leaves the database as it was. `folder`: another set (tests).
   */
  migrate(folder?: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * The embedded database's whole data directory copied into the new folder `target`, taken between
   * transactions (the copy is consistent: it needs no recovery when opened).
   */
  copyDataDir?: (target: string) => Promise<void>;
  /** The embedded database's whole data directory as a tar, taken between transactions (the tests' template). */
  dumpDataDir?: () => Promise<Buffer>;
  /**
   * PostgreSQL only: a query's rows in COPY's binary format, as they come, read with backpressure on a
   * connection of its own (the bytes as the database sends them, nothing decoded: everything.json,
   * decision 028 session 49). Its parameters are written into the statement (COPY takes none).
   */
  copyOut?: (query: SQL) => AsyncIterable<Buffer>;
}

export { migrationsFolder };

export interface OpenOptions {
  /** postgres:// URL of a real server; when absent, PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** A data directory's tar (`dumpDataDir`'s) to start an empty dataDir from: the tests' migrated template. */
  loadDataDir?: Buffer | undefined;
  /** Where a new embedded database's first cluster is kept for the next one (fresh-cluster.ts); tests choose their own. */
  clusterFile?: string | undefined;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const database = await (options.databaseUrl
    ? openPostgres(options.databaseUrl)
    : openPglite(options.dataDir, options.loadDataDir, options.clusterFile));
  // A request's audit entry commits with the request's change (decision 023), and what its work
  // asked to happen after the commit happens then.
  wrapTransactions(database.db);
  return database;
}

async function openPglite(
  dataDir: string,
  loadDataDir: Buffer | undefined,
  clusterFile = freshClusterFile(PGLITE_SETTINGS),
): Promise<Database> {
  const isNew = isNewDataDir(dataDir);
  if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
  // In the process's worker thread for the embedded database (decision 053), with PGLITE_SETTINGS.
  const create = (from: Buffer | undefined) =>
    PGliteThread.start({
      dataDir,
      load: from ? new Uint8Array(from.buffer, from.byteOffset, from.byteLength) : undefined,
    });
  // A new database starts from the cluster the first one on this machine kept, instead of initdb.
  const kept = isNew && !loadDataDir ? readFreshCluster(clusterFile) : undefined;
  let client: PGliteThread;
  let madeByInitdb = isNew && !loadDataDir && !kept;
  try {
    client = await create(loadDataDir ?? kept);
  } catch (error) {
    if (!kept) throw error;
    // The kept copy would not start (damaged): forgotten, and this database made by initdb.
    forgetFreshCluster(clusterFile);
    if (!dataDir.startsWith('memory://')) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.mkdirSync(dataDir, { recursive: true });
    }
    client = await create(undefined);
    madeByInitdb = true;
  }
  if (madeByInitdb) await keepFreshCluster(client, clusterFile);
  watchForSelfDeadlock(client);
  const db = drizzlePglite({ client: client as never, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async (folder = migrationsFolder) => {
      await refuseNewerDatabase(db as never);
      await migratePglite(db as never, { migrationsFolder: folder });
    },
    ping: () => ping(db),
    close: once(() => client.close()),
    // Taken between transactions after a checkpoint (pglite-worker.ts): the copy needs no recovery when
    // restored. On disk the files are copied by the file system (no bytes through this process's
    // memory); an in-memory database (tests) is dumped and written out.
    dumpDataDir: () => client.dump(),
    copyDataDir: async (target) => {
      if (!dataDir.startsWith('memory://')) return client.copyDataDir(target);
      await writeTar(await client.dump(), target);
    },
  };
}

const openTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * The embedded database runs one transaction at a time: a query on the database itself (not on the
 * transaction's handle) made by code running inside an open transaction waits for that transaction to
 * end, and if the transaction awaits it, the whole server waits forever. Such a query is reported (with
 * where it was made) when it is still waiting after a few seconds.
 */
function watchForSelfDeadlock(client: PGliteThread): void {
  const transaction = client.transaction.bind(client);
  client.transaction = ((run) =>
    transaction(async (tx) => {
      const marker = { open: true };
      try {
        return await openTransaction.run(marker, () => run(tx));
      } finally {
        marker.open = false;
      }
    })) as PGliteThread['transaction'];
  for (const name of ['query', 'exec'] as const) {
    const original = client[name].bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const marker = openTransaction.getStore();
      if (!marker?.open) return original(...args);
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 30;
      const where = new Error('A query on the database made inside an open transaction waits for it to end');
      Error.stackTraceLimit = limit;
      if (process.env.TRACE_QUERIES_IN_TRANSACTIONS) console.error(`[query-in-transaction] ${where.stack}`);
      const timer = setTimeout(() => {
        if (marker.open) console.error(where.stack);
      }, 3000);
      try {
        return await original(...args);
      } finally {
        clearTimeout(timer);
      }
    };
  }
}

/** A tar's files and folders written under `target` (names are PGlite's own, from its dump). */
async function writeTar(file: Buffer, target: string): Promise<void> {
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const parts: Buffer[] = [];
      stream.on('data', (chunk) => parts.push(chunk as Buffer));
      stream.on('end', () => {
        const to = path.join(target, header.name.replace(/^\/+/, ''));
        if (header.type === 'directory') fs.mkdirSync(to, { recursive: true, mode: 0o700 });
        else {
          fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
          fs.writeFileSync(to, Buffer.concat(parts), { mode: 0o600 });
        }
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  Readable.from([file]).pipe(extract as never);
  await done;
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // A connection that dies (database restarted, network cut) must not crash the process: idle
  // clients report to the pool, checked-out ones to their own listener; the query in flight fails
  // and the request answers 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const client = await pool.connect().catch((error: Error) => {
    void pool.end();
    throw new DatabaseUnavailableError(url, error);
  });
  client.release();
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  // drizzle's pool transaction never releases its connection when BEGIN itself fails (as it does
  // when the database drops mid-request), and after ten such leaks every request waits in vain.
  // Run each transaction on a connection we check out and always give back; the pool discards
  // connections that broke.
  db.transaction = (async (run: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    const connection = await pool.connect();
    try {
      return await (drizzlePg({ client: connection, schema }) as unknown as Db).transaction(run, config);
    } finally {
      connection.release();
    }
  }) as Db['transaction'];
  return {
    db,
    kind: 'postgres',
    migrate: async (folder = migrationsFolder) => {
      await refuseNewerDatabase(db as never);
      await migratePg(db as never, { migrationsFolder: folder });
    },
    ping: () => ping(db),
    close: once(() => pool.end()),
    copyOut: (query) => copyOut(pool, query),
  };
}

async function* copyOut(pool: pg.Pool, query: SQL): AsyncGenerator<Buffer> {
  const { sql: text, params } = new PgDialect().sqlToQuery(
    sql`copy (${query}) to stdout (format binary)`.inlineParams(),
  );
  // COPY takes no parameters: drizzle writes them into the statement (a text quoted as a literal).
  if (params.length) throw new Error('copyOut: a parameter could not be written into the statement');
  const connection = await pool.connect();
  let finished = false;
  try {
    for await (const piece of connection.query(copyTo(text)) as AsyncIterable<Buffer>) yield piece;
    finished = true;
  } finally {
    // Left midway (the download given up, an error): the connection is still in its COPY, so it is
    // closed rather than given back, which ends the statement.
    connection.release(finished ? undefined : true);
  }
}

/** Closing twice (a shutdown hook and a signal, say) must not fail. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= fn());
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

export class DatabaseUnavailableError extends Error {
  constructor(url: string, cause: Error) {
    const safe = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
    super(`Cannot connect to the database at ${safe}: ${cause.message || cause.name}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * A write that must be stored together with a request's change (the audit trail's entry): the first
 * transaction that commits while the request runs carries it, just before its commit, so the change
 * and the write are kept together or not at all. Once per request.
 */
export interface CarriedWrite {
  write(tx: Tx): Promise<void>;
  /** pending → carried by a transaction (then written) → done once it committed; closed when the request ended without one. */
  state: 'pending' | 'carried' | 'done' | 'closed';
}

const current = new AsyncLocalStorage<CarriedWrite>();

/** Runs `fn` (a route's handler) with `write` waiting for the first transaction that commits. */
export function carryInNextTransaction<T>(carried: CarriedWrite, fn: () => T): T {
  return current.run(carried, fn);
}

/**
 * What a unit of work asks to happen once its changes are stored (wake the mail relay, forget a cached
 * status): told with `afterCommit` where the change is made, heard with `onCommitted` by whoever acts
 * on it. A transaction tells its listeners after it commits, and never when it rolls back.
 */
interface Committing {
  root: Db;
  told: { topic: string; value: unknown }[];
  done: boolean;
}
const committing = new AsyncLocalStorage<Committing>();
const listeners = new WeakMap<Db, Map<string, Set<(value: unknown) => void>>>();

function tell(root: Db, topic: string, value: unknown): void {
  for (const listener of listeners.get(root)?.get(topic) ?? []) {
    try {
      listener(value);
    } catch {
      // A listener's failure is its own: the change is stored either way.
    }
  }
}

/** `listener` hears `topic` after every transaction of `db` that told it commits. Returns the way to stop. */
export function onCommitted<T>(db: Db, topic: string, listener: (value: T) => void): () => void {
  const topics = listeners.get(db) ?? new Map<string, Set<(value: unknown) => void>>();
  listeners.set(db, topics);
  const set = topics.get(topic) ?? new Set();
  topics.set(topic, set);
  set.add(listener as (value: unknown) => void);
  return () => set.delete(listener as (value: unknown) => void);
}

/**
 * Tells `topic` to the listeners of the database `db` belongs to once the change just made through `db`
 * is stored: after the transaction it runs in commits, or at once when `db` is the database itself
 * (each statement commits on its own).
 */
export function afterCommit(db: DbOrTx, topic: string, value?: unknown): void {
  const unit = committing.getStore();
  if (unit && db !== unit.root && !unit.done) unit.told.push({ topic, value });
  else tell(unit && db !== unit.root ? unit.root : (db as Db), topic, value);
}

/**
 * Tries a transaction that lost to another one (a deadlock, a serialization failure) takes in all, the
 * first included. Each try starts after the relays' backoff from 20 ms, spread by half either way, so
 * the two that met do not meet again.
 */
export const TRANSACTION_TRIES = 3;
const RETRY_WAIT_MS = 20;

/**
 * Makes `db.transaction` a unit of work: it carries the request's pending write (the audit entry,
 * decision 023) and tells what its work asked with `afterCommit` once it has committed. Savepoints
 * (`tx.transaction`) are not commits and are left alone; transactions outside a request (the mail
 * relay, backups) carry no audit entry. A unit PostgreSQL rolled back because another transaction went
 * first (40P01, 40001) runs again from its start, up to TRANSACTION_TRIES in all: its work was undone
 * whole, and what it asked after its commit was never told, so a client's Accept that met the office's
 * change answers 200 instead of 500 (decision 015). Work outside the database is not undone, which is
 * why it is asked with `afterCommit`, never done inside a transaction.
 */
function wrapTransactions(db: Db): void {
  const open = db.transaction.bind(db);
  db.transaction = (async (run: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    for (let tries = 1; ; tries++) {
      const unit: Committing = { root: db, told: [], done: false };
      let result;
      try {
        result = await committing.run(unit, () => carrying(open, run, config));
      } catch (error) {
        if (tries >= TRANSACTION_TRIES || !isLostToAnotherTransaction(error)) throw error;
        const wait = backoffMs(tries, RETRY_WAIT_MS, RETRY_WAIT_MS * 4) * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      unit.done = true;
      for (const { topic, value } of unit.told) tell(db, topic, value);
      return result;
    }
  }) as Db['transaction'];
}

/** Runs the transaction, carrying the request's pending write when there is one (decision 023). */
async function carrying(
  open: Db['transaction'],
  run: Parameters<Db['transaction']>[0],
  config?: Parameters<Db['transaction']>[1],
) {
  const carried = current.getStore();
  if (!carried || carried.state !== 'pending') return open(run, config);
  let mine = false;
  try {
    const result = await open(async (tx) => {
      const value = await run(tx);
      // Another transaction of the same request may have taken it meanwhile (Promise.all).
      if (carried.state === 'pending') {
        carried.state = 'carried';
        mine = true;
        await carried.write(tx);
      }
      return value;
    }, config);
    if (mine) carried.state = 'done';
    return result;
  } catch (error) {
    // Rolled back (by the change or by the write): the write is pending again, for the request's end to decide.
    if (mine) carried.state = 'pending';
    throw error;
  }
}
