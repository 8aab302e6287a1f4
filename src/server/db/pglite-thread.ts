import type { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { startWorker } from '../lib/worker-script';
import { BYTEA } from './pglite-bytes';
import { fromCrossing, type FromWorker, type OpenDatabase, type PlainResults, type ToWorker } from './pglite-protocol';

/** A call as the app's thread makes it (the host numbers it). */
type Message = ToWorker extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;
/** A call about one database (the database's handle names it). */
type DatabaseMessage = Message extends infer M ? (M extends { db: number } ? Omit<M, 'db'> : never) : never;

/** What a transaction's callback is given: the statements of PGlite's `Transaction` the app uses. */
export interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * The process's one worker thread for the embedded database (decision 053), started with the first
 * database opened: it holds every database the process opens. It keeps the process alive only while a
 * call is under way.
 */
class Host {
  private lastId = 0;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.on('message', (message: FromWorker) => {
      const call = this.waiting.get(message.id);
      if (!call) return;
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) worker.unref();
      if (message.type === 'done') call.resolve(message.result);
      else call.reject(fromCrossing(message.error));
    });
    // Should the thread ever stop (out of memory, a crash in WebAssembly), every call under way fails,
    // and so does every later one on its databases; a database opened after starts a new thread.
    const stop = (error: Error) => {
      this.stopped ??= error;
      const current = host;
      void current?.then((started) => {
        if (started === this && host === current) host = undefined;
      });
      for (const call of this.waiting.values()) call.reject(this.stopped);
      this.waiting.clear();
    };
    worker.on('error', (error) => stop(new Error(`The embedded database stopped: ${error.message}`, { cause: error })));
    worker.on('exit', (code) => stop(new Error(`The embedded database stopped (${code})`)));
    worker.unref();
  }

  private stopped: Error | undefined;

  call<T>(message: Message): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = ++this.lastId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ ...message, id });
    });
  }
}

let host: Promise<Host> | undefined;
function theHost(): Promise<Host> {
  if (!host) {
    const starting = startWorker('pglite-worker').then((worker) => new Host(worker));
    host = starting;
    starting.catch(() => {
      if (host === starting) host = undefined;
    });
  }
  return host;
}

/**
 * Bytes that are a view into a larger buffer, copied to their own: a view crosses to the worker with its
 * whole buffer (each 1 MB piece of a 12 MB document as 12 MB, a small Buffer as Node's 8 KB pool).
 */
const ownBytes = (value: unknown) =>
  value instanceof Uint8Array && value.byteLength !== value.buffer.byteLength ? new Uint8Array(value) : value;

/**
 * One embedded database, in the process's worker thread (decision 053), with the part of PGlite's
 * interface the app and Drizzle use: `query`, `exec`, `transaction`, `close`, and the data directory's
 * copies. Each call crosses as a message; PGlite still runs one statement at a time and holds the
 * others while a transaction is open, as it did in the app's thread.
 */
export class PGliteThread {
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly host: Host,
    private readonly id: number,
  ) {}

  /** Opens the database at `start.dataDir`; rejects with PGlite's own error when it cannot open. */
  static async start(start: OpenDatabase): Promise<PGliteThread> {
    const worker = await theHost();
    return new PGliteThread(worker, await worker.call<number>({ type: 'open', ...start }));
  }

  private call<T>(message: DatabaseMessage): Promise<T> {
    if (this.closing) return Promise.reject(new Error('The embedded database is closed'));
    return this.host.call<T>({ ...message, db: this.id } as Message);
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number): Promise<Results<T>> {
    return this.call<PlainResults>({
      type: 'query',
      tx,
      sql,
      params: params.map(ownBytes),
      rowMode: options.rowMode ?? 'object',
      raw: Object.keys(options.parsers ?? {}).map(Number),
    }).then((result) => revive(result, options) as Results<T>);
  }

  exec(sql: string, tx?: number): Promise<Results[]> {
    return this.call<PlainResults[]>({ type: 'exec', tx, sql }).then(
      (results) => results.map((result) => revive(result, {})) as Results[],
    );
  }

  /**
   * Runs `run` in a transaction: committed when it returns, rolled back when it throws. Statements made
   * on the database itself meanwhile wait for it to end, as in PGlite.
   */
  async transaction<T>(run: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ type: 'begin' });
    let closed = false;
    const tx: ThreadTransaction = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
      rollback: () => Promise.reject(new Error('Roll a transaction back by throwing from it')),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await run(tx);
    } catch (error) {
      closed = true;
      await this.call({ type: 'end', tx: id, commit: false }).catch(() => {});
      throw error;
    }
    closed = true;
    await this.call({ type: 'end', tx: id, commit: true });
    return result;
  }

  /** The data directory as a tar (no compression), taken between transactions after a checkpoint. */
  async dump(): Promise<Buffer> {
    const bytes = await this.call<Uint8Array>({ type: 'dump' });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The data directory on disk copied into the new folder `target`, between transactions, after a checkpoint. */
  copyDataDir(target: string): Promise<void> {
    return this.call({ type: 'copy', target });
  }

  close(): Promise<void> {
    this.closing ??= this.host.call<void>({ type: 'close', db: this.id });
    return this.closing;
  }
}

/**
 * A result as the app's thread reads it: bytes as Buffers (a Uint8Array after crossing), and the
 * values of the types the caller parses itself (Drizzle keeps times as text) through its parsers.
 */
function revive(result: PlainResults, options: QueryOptions): PlainResults {
  const parsers = options.parsers ?? {};
  const columns = result.fields
    .map((field, index) => ({
      key: options.rowMode === 'array' ? index : field.name,
      type: field.dataTypeID,
      parse: (parsers[field.dataTypeID] ?? (field.dataTypeID === BYTEA ? toBuffer : undefined)) as
        ((value: unknown, type: number) => unknown) | undefined,
    }))
    .filter((column) => column.parse);
  if (columns.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[])
    for (const { key, type, parse } of columns) {
      const value = row[key];
      if (value != null) row[key] = parse!(value, type);
    }
  return result;
}

const toBuffer = (value: unknown) => {
  const bytes = value as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
};
