// Named prepared statements on the embedded database (decision 053, session 46), used by its worker.
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** How many statements each database keeps prepared; the least recently run is closed past it. */
export const KEPT_STATEMENTS = 200;
/** How many texts seen once are remembered: a statement is prepared the second time its text runs. */
const SEEN_ONCE = 1000;
/** Only these are kept: a migration's DDL or a one-off command is run the way PGlite runs any. */
const KEEPABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** Nor a text this long or with this many values (a bulk insert built for its rows): run once, planned once. */
const LONGEST_KEPT = 8192;
const MOST_VALUES_KEPT = 100;

interface Statement {
  name: string;
  /** The type of each parameter, as the database inferred it (how a value is written). */
  parameterTypes: number[];
  /** What its rows hold (none for a statement without rows). */
  rowDescription: BackendMessage | undefined;
}

/**
 * PGlite's `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six calls into its
 * WebAssembly for every statement, and the database parses, analyses and plans the text each time. The
 * staff screens run the same few dozen statements again and again, each a millisecond or less of real
 * work, so most of their time on PGlite went there. A statement seen twice is prepared under a name
 * (Parse and Describe once), and each later run is one call: Bind, Execute and Sync. PostgreSQL then
 * keeps a generic plan once one is no costlier than planning for the values, as it does for the
 * statements the app prepares by name there (decision 006).
 *
 * Its rows are read by PGlite's own `parseResults` with PGlite's own parsers and serializers, so the
 * values are the ones `query` gives. The caller holds PGlite's locks (see `run`).
 */
export class PreparedStatements {
  private readonly kept = new Map<string, Statement>();
  private readonly seen = new Set<string>();
  /** Names to close with the next call (their Close may not have run when a call failed). */
  private closing: string[] = [];
  private lastName = 0;
  /** Each call's parsers laid over PGlite's (`parsersWith`), by the call's parsers object. */
  private readonly layered = new WeakMap<object, PGlite['parsers']>();

  constructor(private readonly db: PGlite) {}

  /**
   * Runs `text` (one `worthKeeping` said yes to) as `db.query` would, inside PGlite's locks: its query
   * lock inside a transaction (the transaction holds the other), both outside one, as `query` takes them.
   */
  run(text: string, params: unknown[], options: QueryOptions, inTransaction: boolean): Promise<Results<unknown>> {
    const run = () => this.db.runExclusive(() => this.runKept(text, params, options, inTransaction));
    return inTransaction ? run() : this.db._runExclusiveTransaction(run);
  }

  /** Whether `text` runs as a kept statement: one that reads or writes rows, the second time it is seen. */
  worthKeeping(text: string, values: number): boolean {
    if (this.kept.has(text)) return true;
    if (text.length > LONGEST_KEPT || values > MOST_VALUES_KEPT || !KEEPABLE.test(text)) return false;
    if (this.seen.delete(text)) return true;
    this.seen.add(text);
    if (this.seen.size > SEEN_ONCE) this.seen.delete(this.seen.values().next().value!);
    return false;
  }

  private async runKept(text: string, params: unknown[], options: QueryOptions, inTransaction: boolean) {
    const syncToFs = !inTransaction;
    try {
      try {
        return await this.execute(await this.prepared(text), params, options, syncToFs);
      } catch (error) {
        // A table changed under it (a migration): its rows or its values' types are no longer what it was
        // prepared with (`query` would have parsed the text again). Prepared again and run once more,
        // outside a transaction; inside one the error has aborted it, and it is the caller's to see.
        if (!this.kept.has(text) || !changedUnder(error)) throw error;
        this.forget(text);
        if (inTransaction) throw error;
        return await this.execute(await this.prepared(text), params, options, syncToFs);
      }
    } catch (error) {
      // As `query` tells an error: with the statement's text.
      if (error && typeof error === 'object') Object.assign(error, { query: text });
      throw error;
    }
  }

  private async prepared(text: string): Promise<Statement> {
    const found = this.kept.get(text);
    if (found) {
      // Most recently used last: the first in the map is the one closed next.
      this.kept.delete(text);
      this.kept.set(text, found);
      return found;
    }
    while (this.kept.size >= KEPT_STATEMENTS) this.forget(this.kept.keys().next().value!);
    const name = `pglite_kept_${++this.lastName}`;
    const messages = await this.call([
      protocol.serialize.parse({ name, text }),
      protocol.serialize.describe({ type: 'S', name }),
    ]);
    const parameters = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
    const statement = {
      name,
      parameterTypes: parameters?.dataTypeIDs ?? [],
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
    this.kept.set(text, statement);
    return statement;
  }

  private forget(text: string) {
    const statement = this.kept.get(text);
    if (!statement) return;
    this.kept.delete(text);
    this.closing.push(statement.name);
  }

  private async execute(
    statement: Statement,
    params: unknown[],
    options: QueryOptions,
    syncToFs: boolean,
  ): Promise<Results<unknown>> {
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const serialize =
        options.serializers?.[statement.parameterTypes[i]!] ?? this.db.serializers[statement.parameterTypes[i]!];
      return serialize ? serialize(param) : String(param);
    });
    const messages = await this.call(
      [protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.execute({})],
      syncToFs,
    );
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    const { parsers, ...rest } = options;
    return parse.parseResults(described, this.parsersWith(parsers), rest)[0]!;
  }

  /**
   * PGlite's parsers with the call's own over them. Given the call's parsers, `parseResults` copies
   * PGlite's (378 types) into a new object to put them over, on every statement: 90 µs of the worker's
   * time each, three times the statement's own run, and most of a kept figure's opening (decision 053,
   * session 48). The call's parsers are laid over PGlite's once per parsers object instead (the worker
   * gives the same object for the same types): read through, so PGlite's own, and array types PGlite
   * adds later, are seen as they are. A caller's parsers object is read once: it must not change after
   * its first statement (the worker's never do).
   */
  private parsersWith(parsers: QueryOptions['parsers']): PGlite['parsers'] {
    if (!parsers) return this.db.parsers;
    let layered = this.layered.get(parsers);
    // Made again should PGlite ever replace its parsers object rather than add to it.
    if (!layered || Object.getPrototypeOf(layered) !== this.db.parsers) {
      layered = Object.assign(Object.create(this.db.parsers) as PGlite['parsers'], parsers);
      this.layered.set(parsers, layered);
    }
    return layered;
  }

  /** One call into the database: the closes owed, then `messages`, then Sync. */
  private async call(messages: Uint8Array[], syncToFs = false) {
    const closes = this.closing.map((name) => protocol.serialize.close({ type: 'S', name }));
    const closed = this.closing;
    this.closing = [];
    const answer = new AnswerReader();
    try {
      // The answer read as it comes out of the database, no copy of its raw bytes kept.
      await this.db.execProtocolRawStream(joined([...closes, ...messages, protocol.serialize.sync()]), {
        syncToFs,
        onRawData: (chunk) => answer.read(chunk),
      });
    } catch (error) {
      // Closing what is already closed is no error: owed again, in case these did not run.
      this.closing.push(...closed);
      throw error;
    }
    answer.end();
    if (answer.error) {
      this.closing.push(...closed);
      throw answer.error;
    }
    return answer.messages;
  }
}

/**
 * The database's answer to one call, read as `execProtocolStream` reads it into PGlite's messages, but
 * each row's values decoded straight from the answer's bytes. PGlite's parser copies every value's bytes
 * into an ArrayBuffer of its own before decoding it: on the Activity page's 50 rows of 13 columns that
 * was a quarter of the database thread's time (decision 053, session 50). Every other message (the row
 * descriptions, errors, notices, completions) is read by PGlite's own parser, so it is PGlite's object.
 * One difference: PGlite's decoder drops a byte order mark at the start of a value, this keeps it, as
 * PostgreSQL gives it (a statement's first run, through PGlite's own `query`, still drops it).
 */
export class AnswerReader {
  readonly messages: BackendMessage[] = [];
  /** The first error the database answered (what `execProtocolStream` throws). */
  error: Error | undefined;
  /**
   * A message's start that the last pieces ended in, copied (a piece's bytes are the database's memory),
   * and how many bytes it needs before it can be read: joined only then, so that a long value coming in
   * many pieces is not copied again with each.
   */
  private carried: Buffer[] = [];
  private carriedLength = 0;
  private needed = 0;

  read(piece: Uint8Array): void {
    let bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    if (this.carried.length) {
      this.carried.push(Buffer.from(bytes));
      this.carriedLength += bytes.length;
      if (this.carriedLength < this.needed) return;
      bytes = Buffer.concat(this.carried, this.carriedLength);
      this.carried = [];
      this.carriedLength = 0;
    }
    let at = 0;
    // A message: its type (a byte), its length (4 bytes, counting themselves), then the rest.
    while (bytes.length - at >= 5) {
      const end = at + 1 + bytes.readUInt32BE(at + 1);
      if (end > bytes.length) break;
      this.take(message(bytes, at, end));
      at = end;
    }
    if (at < bytes.length) {
      const rest = bytes.length - at;
      this.carried = [Buffer.from(bytes.subarray(at))];
      this.carriedLength = rest;
      this.needed = rest >= 5 ? 1 + bytes.readUInt32BE(at + 1) : 5;
    }
  }

  /** After the last piece: an answer cut in a message is an error. */
  end(): void {
    if (this.carried.length)
      this.error ??= new Error('The embedded database ended its answer in the middle of a message');
  }

  private take(message: BackendMessage) {
    // As PGlite keeps them: every message up to and with the first error, nothing after it.
    if (this.error) return;
    if (message instanceof protocol.messages.DatabaseError) this.error = message;
    this.messages.push(message);
  }
}

/** PGlite's parser, for the messages read as PGlite reads them: one, as it is only given whole messages. */
let parser: InstanceType<typeof protocol.Parser> | undefined;
const { messages } = protocol;

/**
 * The message from `at` to `end`: the frequent ones read here (what each run of a kept statement answers:
 * BindComplete, rows, CommandComplete, ReadyForQuery, and CloseComplete), each the object PGlite makes;
 * any other by PGlite's parser. Each call into PGlite's parser copies what it is given into an
 * ArrayBuffer of its own.
 */
function message(bytes: Buffer, at: number, end: number): BackendMessage {
  const length = end - at - 1;
  switch (bytes[at]) {
    case 0x44: // 'D'
      return dataRow(bytes, at + 5, length);
    case 0x32: // '2'
      return messages.bindComplete;
    case 0x33: // '3'
      return messages.closeComplete;
    case 0x43: // 'C': the command's tag, ended by a zero byte
      return new messages.CommandCompleteMessage(length, bytes.toString('utf8', at + 5, end - 1));
    case 0x5a: // 'Z'
      return new messages.ReadyForQueryMessage(length, String.fromCharCode(bytes[at + 5]!));
    default: {
      let read: BackendMessage | undefined;
      (parser ??= new protocol.Parser()).parse(bytes.subarray(at, end), (parsed) => (read = parsed));
      return read!;
    }
  }
}

/** A DataRow message's values, each decoded from its bytes where they lie (null for SQL NULL). */
function dataRow(bytes: Buffer, at: number, length: number): BackendMessage {
  const count = bytes.readInt16BE(at);
  const fields: (string | null)[] = new Array<string | null>(count);
  let next = at + 2;
  for (let i = 0; i < count; i++) {
    const size = bytes.readInt32BE(next);
    next += 4;
    if (size < 0) fields[i] = null;
    else {
      fields[i] = bytes.toString('utf8', next, next + size);
      next += size;
    }
  }
  return new messages.DataRowMessage(length, fields as string[]);
}

/**
 * An error that says the statement no longer fits its tables: "cached plan must not change result type"
 * (0A000), or a value's type or an operator that changed (class 42, which `query` would have met at
 * Parse, never at Bind or Execute of a statement that ran before).
 */
function changedUnder(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code === '0A000' || code.startsWith('42'));
}

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
