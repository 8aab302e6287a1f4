/**
 * PostgreSQL's binary COPY format, read (https://www.postgresql.org/docs/current/sql-copy.html, "Binary
 * Format"): an 11-byte signature, a flags word, a header extension, then each row as a field count
 * (16 bits) and each field as its length (32 bits, -1 for null) and its bytes; a field count of -1 ends
 * the data. A text value's field is its UTF-8 bytes, a bytea's its bytes, an integer's its big-endian
 * bytes: nothing is decoded here, so a row's text can go on as it came (decision 028, session 49).
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_LENGTH = SIGNATURE.length + 8;

/** A row: its fields in the query's order, each a view of the bytes received (null for SQL null). */
export type CopyRow = (Buffer | null)[];
/** Rows read together, and the bytes that hold them (every field of every row is a view of them). */
export interface CopyBatch {
  rows: CopyRow[];
  bytes: Buffer;
}

/**
 * The rows of a binary COPY, as the pieces of the stream arrive: each batch is the rows a piece
 * completes. A row split across pieces waits for the rest; its pieces are joined once, when it is whole.
 * The batch's bytes can be searched once for all its rows (everything.json looks for links so).
 */
export async function* copyBinaryRows(pieces: AsyncIterable<Buffer>): AsyncGenerator<CopyBatch> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  /** Bytes needed before the next row can be read (its whole length, once known). */
  let wanted = HEADER_LENGTH;
  let headerRead = false;
  let ended = false;
  for await (const piece of pieces) {
    if (ended) throw new Error('COPY: data after its end');
    pending.push(piece);
    pendingLength += piece.length;
    if (pendingLength < wanted) continue;
    const buffer = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingLength);
    let at = 0;
    if (!headerRead) {
      if (!buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('COPY: not the binary format');
      const extension = buffer.readUInt32BE(SIGNATURE.length + 4);
      if (buffer.length < HEADER_LENGTH + extension) {
        wanted = HEADER_LENGTH + extension;
        pending = [buffer];
        continue;
      }
      at = HEADER_LENGTH + extension;
      headerRead = true;
    }
    const rows: CopyRow[] = [];
    const first = at;
    wanted = 0;
    while (at + 2 <= buffer.length) {
      const count = buffer.readInt16BE(at);
      if (count === -1) {
        ended = true;
        at += 2;
        break;
      }
      if (count < 0) throw new Error('COPY: a row with a negative field count');
      let p = at + 2;
      const row: CopyRow = new Array(count);
      let i = 0;
      for (; i < count; i++) {
        if (p + 4 > buffer.length) break;
        const length = buffer.readInt32BE(p);
        p += 4;
        if (length === -1) {
          row[i] = null;
          continue;
        }
        if (length < 0) throw new Error('COPY: a field with a negative length');
        if (p + length > buffer.length) {
          // The rest of this field (at least) must come before the row is read again.
          wanted = p + length - at;
          break;
        }
        row[i] = buffer.subarray(p, p + length);
        p += length;
      }
      if (i < count) break;
      rows.push(row);
      at = p;
    }
    if (ended && at < buffer.length) throw new Error('COPY: data after its end');
    const rest = buffer.subarray(at);
    pending = rest.length ? [rest] : [];
    pendingLength = rest.length;
    wanted = Math.max(wanted, rest.length + 1, 2);
    if (rows.length) yield { rows, bytes: buffer.subarray(first, at) };
  }
  if (!ended) throw new Error('COPY: the data ended early');
}
