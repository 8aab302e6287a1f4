import { and, asc, eq, getTableColumns, getTableName, gt, is, lte, sql, type SQL } from 'drizzle-orm';
import { PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import type { ServerResponse } from 'node:http';
import type { Database, Db } from '../db/client';
import { copyBinaryRows, type CopyRow } from '../db/copy-binary';
import { inKeyRanges } from '../lib/sql';
import * as schema from '../db/schema';

export const JSON_EXPORT_FORMAT = 'handyman-export';

/**
 * What never leaves in an export: sign-in secrets (two-step secrets and recovery codes too), live
 * sessions, calendar-feed tokens, the payment and text accounts' sealed keys (decisions 035, 045) and
 * the texts' short page links.
 */
const LEFT_OUT_TABLES = new Set([
  'sessions',
  'calendar_feeds',
  'payment_accounts',
  'two_step_secrets',
  'two_step_recovery_codes',
  'api_keys',
  'text_accounts',
  'text_links',
]);
const LEFT_OUT_COLUMNS: Record<string, string[]> = {
  users: ['passwordHash', 'tokenVersion'],
  webhook_endpoints: ['secretSealed'],
};

/**
 * What a signed link carries: a JWT (a client's quote or invoice link, a staff file link), and the
 * secret name of a calendar feed. None may leave in an export (decision 024): an e-mail in the outbox
 * keeps its words, its links are cut to "[link removed]".
 */
const SIGNED_TOKEN = /eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g;
const FEED_ADDRESS = /\/api\/feeds\/[\w-]{16,64}\.ics/g;
/** A text's short link to a client's page (decision 045). */
const PAGE_CODE = /\/p\/[A-Za-z0-9]{6,20}\b/g;
export const REMOVED_LINK = '[link removed]';

/** What each of those links begins with: a text holding none of them holds no link. */
const LINK_MARKS = ['eyJ', '/api/feeds/', '/p/'];
const LINK_MARK_BYTES = LINK_MARKS.map((mark) => Buffer.from(mark));

/** A text without the secrets a link carries. */
export function withoutLinks(text: string): string {
  // Most texts hold none: skip the replaces (the export reads millions of texts).
  if (!LINK_MARKS.some((mark) => text.includes(mark))) return text;
  return text
    .replace(SIGNED_TOKEN, REMOVED_LINK)
    .replace(FEED_ADDRESS, `/api/feeds/${REMOVED_LINK}`)
    .replace(PAGE_CODE, `/p/${REMOVED_LINK}`);
}

/** Whether UTF-8 text (a row's, or a batch of rows') might hold a link. */
function mayHoldLinks(text: Buffer): boolean {
  return LINK_MARK_BYTES.some((mark) => text.includes(mark));
}

/** UTF-8 text without links: as it came when it holds none (decoded and cleared only when it might). */
function bytesWithoutLinks(text: Buffer): Buffer | string {
  return mayHoldLinks(text) ? withoutLinks(text.toString('utf8')) : text;
}

/** Every text in a value (a row, a jsonb document) without links; bytes and other values as they are. */
function scrub(value: unknown): unknown {
  if (typeof value === 'string') return withoutLinks(value);
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
  }
  return value;
}

/** A mail's text attachments (an invitation's .ics) are read and scrubbed as text too. */
function scrubAttachments(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((a: { contentType?: string; contentBase64?: string }) =>
    a && typeof a.contentBase64 === 'string' && /^text\//.test(a.contentType ?? '')
      ? {
          ...a,
          contentBase64: Buffer.from(withoutLinks(Buffer.from(a.contentBase64, 'base64').toString('utf8'))).toString(
            'base64',
          ),
        }
      : a,
  );
}

/**
 * Rows per read: a table with bytes (photos, signatures, documents) a hundred at a time, any other a
 * thousand (200,000 audit entries fifty at a time were 4,000 queries).
 */
const BATCH_WITH_BYTES = 100;
const BATCH = 1000;
/**
 * Batches being read while one is written (`inKeyRanges`): on PostgreSQL each on a connection of its
 * own, so the database writes rows on both cores while the server sends them. One read at a time
 * left the server idle half the download (decision 028, session 36).
 */
const READS_AHEAD = 2;
/**
 * Bytes are read in pieces of 48 KB (64 KB of base64, a whole number of its 3-byte groups): one small
 * enough (a thumbnail, a signature) comes with its row; a larger one (a photo, a PDF) is read by itself,
 * every piece a row of one query (up to a thousand). Read whole, ten photos a read, each arriving as
 * one long text, held the server's memory +80 to +120 MB over the download until a full garbage
 * collection freed them (decision 028, session 35); pieces die young.
 */
export const BYTES_PIECE = 3 << 14;
const PIECES_PER_READ = 1000;
/**
 * Characters per write: at 64 KB the text built for one write dies young and the server's memory stays
 * within +13 to +23 MB over the whole download; at 1 MB it outlived the young generation and the memory
 * rose by +100 to +140 MB, at the same speed (decision 028, session 30).
 */
const CHUNK = 1 << 16;

/**
 * The column a table's rows are read in order of, and a long value found again by: its primary key when
 * that is one column (`id` on most tables, `key` on the stored PDFs, `job_id` on the job records).
 */
function keyOf(table: PgTable): PgColumn | undefined {
  const keys = (Object.values(getTableColumns(table)) as PgColumn[]).filter((column) => column.primary);
  return keys.length === 1 ? keys[0] : undefined;
}

function exportedTables(): PgTable[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .filter((table) => !LEFT_OUT_TABLES.has(getTableName(table)))
    .sort((a, b) => getTableName(a).localeCompare(getTableName(b)));
}

/** A column's value as JSON text, written by the database (`null` for none). */
function jsonOf(column: PgColumn): SQL {
  const type = column.getSQLType();
  // Times as `Date.toISOString` writes them (UTC, milliseconds cut, not rounded, as a Date keeps them).
  if (type === 'timestamp with time zone')
    return sql`coalesce('"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`;
  // A fixed-point figure (an hour count, a quantity) as the text the API reads, not a float.
  if (type.startsWith('numeric')) return sql`coalesce(to_json(${column}::text)::text, 'null')`;
  if (JSON_AS_IS.has(type)) return sql`coalesce(to_json(${column})::text, 'null')`;
  // A new kind of column fails the export's tests until it is given a form here.
  throw new Error(`everything.json: no JSON form for a ${type} column (${column.name})`);
}
/** Column types whose JSON the database writes as the API would read them (`to_json`). */
const JSON_AS_IS = new Set(['text', 'integer', 'bigint', 'boolean', 'date', 'jsonb', 'text[]', 'integer[]']);

/** A piece of a row's JSON: text to clear of links, bytes as base64 (left as they are), or an e-mail's attachments. */
type Piece =
  | { kind: 'text'; field: string }
  | { kind: 'attachments'; field: string }
  | { kind: 'bytes'; field: string; column: PgColumn };
/** Bytes of a row too long to come with it: read in pieces when they are written. */
export interface LongBytes {
  column: PgColumn;
  length: number;
}
/** JSON text: as JavaScript text (PGlite's rows), or as UTF-8 bytes (PostgreSQL's COPY). */
type Text = string | Buffer;
/** A row's JSON: text, or (with long bytes) text and the bytes to read between. */
type RowParts = Text | (Text | LongBytes)[];

/**
 * How a table's rows are read as JSON text: the database writes each row's text (every column but
 * bytes and attachments in one piece), so the server only clears it of links and joins the pieces.
 * Reading each value into a JavaScript object and writing it back was most of the export's time
 * (decision 028, session 32).
 */
function rowPlan(table: PgTable) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const leftOut = new Set(LEFT_OUT_COLUMNS[getTableName(table)] ?? []);
  const keys = Object.keys(columns).filter((key) => !leftOut.has(key));
  const selection: Record<string, SQL | PgColumn> = {};
  // The same pieces as COPY's columns, in order (bytes then their length): text, bytes and integers as
  // they are sent in the binary format, an e-mail's attachments as their JSON text.
  const copyColumns: SQL[] = [];
  const pieces: Piece[] = [];
  let run: SQL[] = [];
  const endRun = () => {
    if (!run.length) return;
    const field = `p${pieces.length}`;
    selection[field] = sql.join(run, sql` || `);
    copyColumns.push(selection[field] as SQL);
    pieces.push({ kind: 'text', field });
    run = [];
  };
  keys.forEach((key, i) => {
    if (!/^\w+$/.test(key)) throw new Error(`everything.json: unexpected column name ${key}`);
    const column = columns[key]!;
    run.push(sql.raw(`'${i === 0 ? '{' : ','}"${key}":'`));
    if (key === 'attachments' || column.getSQLType() === 'bytea') {
      endRun();
      const field = `p${pieces.length}`;
      if (key === 'attachments') {
        selection[field] = column;
        copyColumns.push(sql`${column}::text`);
        pieces.push({ kind: 'attachments', field });
      } else {
        // Read as bytes and written as base64 here (the database's own encode took longer, and broke
        // its lines); never cleared of "links", which base64 letters can spell by chance.
        selection[field] = sql`case when octet_length(${column}) <= ${BYTES_PIECE} then ${column} end`.mapWith(column);
        selection[`${field}n`] = sql<number | null>`octet_length(${column})`.mapWith(Number);
        copyColumns.push(selection[field] as SQL, sql`octet_length(${column})::int4`);
        pieces.push({ kind: 'bytes', field, column });
      }
    } else {
      run.push(jsonOf(column));
    }
  });
  run.push(sql.raw(`'}'`));
  endRun();
  const attachmentsText = (value: unknown) => (value == null ? 'null' : JSON.stringify(scrub(scrubAttachments(value))));
  const text = (row: Record<string, unknown>): RowParts => {
    const parts: (string | LongBytes)[] = [];
    let out = '';
    for (const piece of pieces) {
      const value = row[piece.field];
      if (piece.kind === 'text') out += withoutLinks(value as string);
      else if (piece.kind === 'attachments') out += attachmentsText(value);
      else if (value != null) out += `"${(value as Buffer).toString('base64')}"`;
      else if (row[`${piece.field}n`] == null) out += 'null';
      else {
        parts.push(out, { column: piece.column, length: row[`${piece.field}n`] as number });
        out = '';
      }
    }
    if (!parts.length) return out;
    parts.push(out);
    return parts;
  };
  /**
   * The same row's JSON from COPY's fields (`copyColumns`' order): the database's text kept as bytes.
   * `unmarked`: the row's batch holds no link's mark, so its text need not be searched again.
   */
  const copiedText = (fields: CopyRow, unmarked: boolean): RowParts => {
    const cleared = (text: Buffer) => (unmarked ? text : bytesWithoutLinks(text));
    // Most tables' rows are one piece of text.
    if (pieces.length === 1 && pieces[0]!.kind === 'text') return cleared(fields[0]!);
    const parts: (Text | LongBytes)[] = [];
    let at = 0;
    for (const piece of pieces) {
      const value = fields[at++];
      if (piece.kind === 'text') parts.push(cleared(value!));
      else if (piece.kind === 'attachments') parts.push(attachmentsText(value && JSON.parse(value.toString('utf8'))));
      else {
        const length = fields[at++];
        if (value) parts.push(`"${value.toString('base64')}"`);
        else if (!length) parts.push('null');
        else parts.push({ column: piece.column, length: length.readInt32BE(0) });
      }
    }
    return parts;
  };
  // A long value is read by itself, found again by its row's key.
  if (pieces.some((piece) => piece.kind === 'bytes') && !keyOf(table))
    throw new Error(`everything.json: ${getTableName(table)} holds bytes but has no one-column key to read them by`);
  return { selection, copyColumns, pieces, text, copiedText };
}

/**
 * Full exports downloading at once (each process). On PostgreSQL a download's table streams through a
 * COPY holding a connection of the app's pool (10) for as long as the download takes to read it, and a
 * paused download holds it until it is resumed, given up or ended as idle (`DOWNLOAD_IDLE_SECONDS`). Two
 * at once leave the app the rest; a third is answered at once that it should come back (503 with
 * Retry-After) rather than left waiting mid-file. A download reads one table at a time, and long values
 * are read by short statements, each connection given back at once.
 */
export const EXPORTS_AT_ONCE = 2;

/** The places among the full exports at once. */
export function exportPlaces(atOnce = EXPORTS_AT_ONCE) {
  let taken = 0;
  return {
    /**
     * A place for `response` until it closes (sent whole, given up, or ended as idle), or false when all
     * are taken. A response already closed (its client gone while the request was being signed in) gives
     * its place back at once: its 'close' has been and will not come again.
     */
    holdFor(response: Pick<ServerResponse, 'destroyed' | 'once'>): boolean {
      if (taken >= atOnce) return false;
      if (response.destroyed) return true;
      taken += 1;
      response.once('close', () => (taken -= 1));
      return true;
    },
  };
}

/** Where the export reads: the database, and on PostgreSQL its COPY. */
export type ExportSource = Pick<Database, 'db' | 'copyOut'>;

/** A table's rows, a batch at a time, as JSON ready to write. */
async function* rowsOf(source: ExportSource, table: PgTable): AsyncGenerator<{ id: unknown; parts: RowParts }[]> {
  // What never leaves is not read either.
  const { selection, copyColumns, pieces, text, copiedText } = rowPlan(table);
  const id = keyOf(table);
  if (source.copyOut) {
    // PostgreSQL: one statement a table, its rows streamed as the database writes them (with
    // backpressure), their text passed on as the bytes it came as. Batches of statements, each row's
    // text decoded into JavaScript and encoded again on its way out, cost the database a quarter more
    // and the server half as much again (decision 028, session 49).
    const query = sql`select ${sql.join([...copyColumns, ...(id ? [sql`${id}::text`] : [])], sql`, `)} from ${table}${
      id ? sql` order by ${id}` : sql``
    }`;
    for await (const batch of copyBinaryRows(source.copyOut(query))) {
      // One search of the batch's bytes for a link's mark instead of one for each row (most hold none).
      const unmarked = !mayHoldLinks(batch.bytes);
      yield batch.rows.map((fields) => ({
        id: id ? fields[fields.length - 1]!.toString('utf8') : undefined,
        parts: copiedText(fields, unmarked),
      }));
    }
    return;
  }
  const db = source.db;
  // Read as the drivers give the values (text, Buffer, number, a parsed document): mapping every
  // value through the query builder was a tenth of the server's time (decision 028, session 36).
  const read = (where: SQL | undefined, orderBy: SQL | undefined) =>
    db
      .execute(
        sql`select ${sql.join(
          Object.entries({ ...selection, ...(id ? { id } : {}) }).map(
            ([key, value]) => sql`${value} as ${sql.identifier(key)}`,
          ),
          sql`, `,
        )} from ${table}${where ? sql` where ${where}` : sql``}${orderBy ? sql` order by ${orderBy}` : sql``}`,
      )
      .then((result) => (result as unknown as { rows: Record<string, unknown>[] }).rows);
  if (!id) {
    // Link and counter tables (a key of two columns or none, no bytes) are small: read whole.
    yield (await read(undefined, undefined)).map((row) => ({ id: undefined, parts: text(row) }));
    return;
  }
  const size = pieces.some((piece) => piece.kind === 'bytes') ? BATCH_WITH_BYTES : BATCH;
  const after = (key: unknown) => (key === undefined ? undefined : gt(id, key));
  yield* inKeyRanges(
    async (key: unknown) => {
      const [row] = await db
        .select({ id })
        .from(table)
        .where(after(key))
        .orderBy(asc(id))
        .offset(size - 1)
        .limit(1);
      return row?.id;
    },
    (key, upTo) =>
      read(and(after(key), upTo === undefined ? undefined : lte(id, upTo)), sql`${id}`).then((rows) =>
        rows.map((row) => ({ id: row.id, parts: text(row) })),
      ),
    READS_AHEAD,
  );
}

/**
 * Long bytes of one row as base64, between their quotes: read in one query (a value as it stands, not
 * pieces of two versions of it; up to 48 MB a query), then each piece written in turn. A row gone since
 * its batch was read is written as null; one whose bytes changed length is read again as it now is. Only
 * a value longer than one read (48 MB: no photo or document is) takes several, and one changed between
 * them ends the download with an error rather than a file that looks whole.
 */
export async function* longBytes(
  source: ExportSource,
  table: PgTable,
  id: unknown,
  bytes: LongBytes,
): AsyncGenerator<string> {
  const { db } = source;
  const idColumn = keyOf(table)!;
  let length = bytes.length;
  let opened = false;
  for (let from = 0; from < length; from += BYTES_PIECE * PIECES_PER_READ) {
    // One statement (one version of the value), a row per piece: each arrives as a message of its own
    // (48 KB; about 96 KB of hex where it is not COPY's binary), where a row of every piece was one
    // message as long as the photo, gathered by the driver in buffers doubling up to 2 MB whose memory
    // the allocator kept (+18 to +21 MB against +27 to +47 over the bench's 60 photos, in-process;
    // decision 028, session 41).
    const rows = await piecesOf(
      source,
      sql`select octet_length(${bytes.column})::int4 as length,
            substring(${bytes.column} from g.start for ${BYTES_PIECE}::integer) as piece
          from ${table},
            generate_series(${from + 1}::integer,
              least(octet_length(${bytes.column}), ${from + BYTES_PIECE * PIECES_PER_READ}::integer),
              ${BYTES_PIECE}::integer) as g(start)
          where ${idColumn} = ${id}
          order by g.start`,
    );
    // No row: the row is gone, its bytes are null, or (a value shortened meanwhile) nothing from here on.
    const now = rows.length ? rows[0]!.length : await lengthNow(db, table, bytes.column, id);
    if (from === 0 && now == null) {
      yield 'null';
      return;
    }
    if (now !== length) {
      if (from > 0)
        throw new Error(`everything.json: the bytes of ${getTableName(table)} ${String(id)} changed as they were read`);
      length = now!;
      from = -BYTES_PIECE * PIECES_PER_READ;
      continue;
    }
    if (!opened) yield '"';
    opened = true;
    for (const row of rows) yield row.piece.toString('base64');
  }
  yield opened ? '"' : '""';
}

/** The pieces' rows: on PostgreSQL through COPY, the bytes as they are stored rather than as hex. */
async function piecesOf(source: ExportSource, query: SQL): Promise<{ length: number; piece: Buffer }[]> {
  if (!source.copyOut) {
    const result = (await source.db.execute(query)) as unknown as {
      rows: { length: number | string; piece: Buffer }[];
    };
    return result.rows.map((row) => ({ length: Number(row.length), piece: row.piece }));
  }
  const pieces: { length: number; piece: Buffer }[] = [];
  for await (const { rows } of copyBinaryRows(source.copyOut(query)))
    for (const [length, piece] of rows) pieces.push({ length: length!.readInt32BE(0), piece: piece! });
  return pieces;
}

/** The length of a row's bytes now (null when the row or its bytes are gone). */
async function lengthNow(db: Db, table: PgTable, column: PgColumn, id: unknown): Promise<number | null> {
  const [row] = await db
    .select({ length: sql<number | null>`octet_length(${column})`.mapWith(Number) })
    .from(table)
    .where(eq(keyOf(table)!, id));
  return row?.length ?? null;
}

/**
 * Everything the business has, as one JSON document written as it is read: every table (but
 * credentials and live sessions) with every row, photos included, and no live link (withoutLinks).
 * Keys are the schema's names.
 */
export async function* completeExport(source: ExportSource, exportedAt: Date): AsyncGenerator<Text> {
  yield `{"format":${JSON.stringify(JSON_EXPORT_FORMAT)},"version":1,"exportedAt":${JSON.stringify(exportedAt.toISOString())},"tables":{`;
  let firstTable = true;
  for (const table of exportedTables()) {
    yield `${firstTable ? '' : ','}\n${JSON.stringify(getTableName(table))}:[`;
    firstTable = false;
    // Rows are written in chunks of about CHUNK bytes: a write per row made the stream, not the
    // database, the slow part; a chunk per batch of photos would hold them all twice.
    const chunk = new Chunk();
    let firstRow = true;
    for await (const rows of rowsOf(source, table)) {
      for (const row of rows) {
        chunk.add(firstRow ? '\n' : ',\n');
        firstRow = false;
        if (!Array.isArray(row.parts)) chunk.add(row.parts);
        else {
          // Long bytes (a photo, a PDF) go out as they are read, in pieces, between the row's text.
          for (const part of row.parts) {
            if (typeof part === 'string' || Buffer.isBuffer(part)) chunk.add(part);
            else {
              if (chunk.length) yield chunk.take();
              yield* longBytes(source, table, row.id, part);
            }
          }
        }
        if (chunk.length >= CHUNK) yield chunk.take();
      }
    }
    if (chunk.length) yield chunk.take();
    yield ']';
  }
  yield '\n}}\n';
}

/**
 * Text gathered for one write: joined as text when all of it is (PGlite's rows), else as bytes (the
 * rows PostgreSQL's COPY sent, with the separators and base64 between them).
 */
class Chunk {
  private parts: Text[] = [];
  private bytes = false;
  /** Characters or bytes gathered: the same for the ASCII separators, near enough for the rest. */
  length = 0;

  add(part: Text) {
    this.parts.push(part);
    this.length += part.length;
    if (typeof part !== 'string') this.bytes = true;
  }

  take(): Text {
    const parts = this.parts;
    const out = this.bytes
      ? Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)))
      : parts.join('');
    this.parts = [];
    this.bytes = false;
    this.length = 0;
    return out;
  }
}
