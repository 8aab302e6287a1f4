// The embedded database's worker thread (decision 053): PGlite runs here, so the database's work and
// the server's (HTTP, JSON, the app's own code) share the machine's cores instead of one thread. One
// worker holds every database its process opens (the server has one; a test process opens many).
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { PGlite, types, type Results, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLITE_SETTINGS, pgliteBytes } from './db/pglite-bytes';
import { PreparedStatements } from './db/pglite-statements';
import { toCrossing, type FromWorker, type OpenDatabase, type PlainResults, type ToWorker } from './db/pglite-protocol';

const port = parentPort!;
const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/**
 * Bytes leave as a Uint8Array of their own memory: a small Buffer is a slice of Node's shared 8 KB pool,
 * and the whole pool would be copied across with it.
 */
const parseBytes = (text: string): Uint8Array => {
  const bytes = pgliteBytes.parse(text);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
};
const asText = (value: string) => value;
/**
 * The parsers that keep the caller's types as text, one object per list of types: the same object for
 * the same types lets the kept statements lay them over PGlite's once (PreparedStatements.parsersWith).
 * Drizzle asks for one list; a few more are kept, and past that the oldest is dropped.
 */
const textParsers = new Map<string, Record<number, typeof asText>>();
function asTextFor(types: number[]): Record<number, typeof asText> {
  const key = types.join(',');
  let parsers = textParsers.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((oid) => [oid, asText]));
    textParsers.set(key, parsers);
    if (textParsers.size > 16) textParsers.delete(textParsers.keys().next().value!);
  }
  return parsers;
}

const plain = (result: Results<unknown>): PlainResults => ({
  rows: result.rows,
  fields: result.fields,
  affectedRows: result.affectedRows,
});

/** Answered later than its call returns: `end`, once the transaction has committed or rolled back. */
const LATER = Symbol('later');
const ROLLBACK = Symbol('rollback');

interface Open {
  tx: Transaction;
  settle: (commit: boolean) => void;
  /** The call that ends it. */
  endId?: number;
}

/** One database, and its transactions under way (PGlite runs one at a time; the others wait in it). */
class Database {
  private readonly open = new Map<number, Open>();
  private lastTx = 0;
  /** Statements the screens run again and again, prepared once (see PreparedStatements). */
  private readonly statements: PreparedStatements;

  constructor(
    private readonly db: PGlite,
    private readonly dataDir: string,
  ) {
    this.statements = new PreparedStatements(db);
  }

  static async open(start: OpenDatabase): Promise<Database> {
    const db = await PGlite.create({
      dataDir: start.dataDir,
      extensions: { pg_trgm },
      postgresqlconf: PGLITE_SETTINGS,
      parsers: { [types.BYTEA]: parseBytes },
      serializers: { [types.BYTEA]: pgliteBytes.serialize },
      ...(start.load ? { loadDataDir: new Blob([start.load as Uint8Array<ArrayBuffer>]) } : {}),
    });
    return new Database(db, start.dataDir);
  }

  private on(tx: number | undefined): PGlite | Transaction {
    if (tx === undefined) return this.db;
    const found = this.open.get(tx);
    if (!found) throw new Error('The transaction has already ended');
    return found.tx;
  }

  async answer(message: Exclude<ToWorker, { type: 'open' }>): Promise<unknown> {
    switch (message.type) {
      case 'query': {
        const options = { rowMode: message.rowMode, parsers: asTextFor(message.raw) };
        const on = this.on(message.tx);
        return plain(
          this.statements.worthKeeping(message.sql, message.params.length)
            ? await this.statements.run(message.sql, message.params, options, message.tx !== undefined)
            : await on.query(message.sql, message.params, options),
        );
      }
      case 'exec':
        return (await this.on(message.tx).exec(message.sql)).map(plain);
      case 'begin':
        return this.begin();
      case 'end': {
        const found = this.open.get(message.tx);
        if (!found) throw new Error('The transaction has already ended');
        found.endId = message.id;
        found.settle(message.commit);
        return LATER;
      }
      case 'dump':
        return this.holding(async () => new Uint8Array(await (await this.db.dumpDataDir('none')).arrayBuffer()));
      case 'copy':
        return this.holding(() =>
          fs.promises.cp(this.dataDir, message.target, { recursive: true, errorOnExist: true, force: false }),
        );
      case 'close':
        await this.db.close();
        return null;
    }
  }

  /** Opens a transaction held until its `end`; answers its number once BEGIN has run. */
  private begin(): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const id = ++this.lastTx;
      let began = false;
      this.db
        .transaction(
          (tx) =>
            new Promise<void>((commit, rollback) => {
              began = true;
              this.open.set(id, { tx, settle: (yes) => (yes ? commit() : rollback(ROLLBACK)) });
              resolve(id);
            }),
        )
        .then(
          () => this.ended(id, undefined),
          (error: unknown) => (began ? this.ended(id, error === ROLLBACK ? undefined : error) : reject(error)),
        );
    });
  }

  private ended(tx: number, error: unknown) {
    const endId = this.open.get(tx)?.endId;
    this.open.delete(tx);
    if (endId === undefined) return;
    if (error) send({ id: endId, type: 'error', error: toCrossing(error) });
    else send({ id: endId, type: 'done', result: null });
  }

  /**
   * Inside a transaction of its own, no other transaction is half-way through while the files are read;
   * the checkpoint writes every page out first, so the copy needs no recovery when restored.
   */
  private holding<T>(read: () => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.exec('checkpoint');
      return read();
    });
  }
}

const databases = new Map<number, Database>();
let lastDb = 0;

async function answer(message: ToWorker): Promise<unknown> {
  if (message.type === 'open') {
    const database = await Database.open(message);
    databases.set(++lastDb, database);
    return lastDb;
  }
  const database = databases.get(message.db);
  if (!database) throw new Error('The database is closed');
  if (message.type === 'close') databases.delete(message.db);
  return database.answer(message);
}

port.on('message', (message: ToWorker) => {
  answer(message).then(
    (result) => {
      if (result === LATER) return;
      const transfer = result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : [];
      send({ id: message.id, type: 'done', result }, transfer);
    },
    (error: unknown) => send({ id: message.id, type: 'error', error: toCrossing(error) }),
  );
});
