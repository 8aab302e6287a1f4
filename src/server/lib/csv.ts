import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * What a spreadsheet skips before it reads a cell's first character: spaces, tabs, line breaks and
 * other control or invisible characters (a quoted " =cmd", "\t=cmd" or "\r=cmd" still runs).
 */
export const LEADING_BLANKS = /^[\s\p{Cc}\p{Cf}\p{Z}]+/u;

/**
 * Whether a spreadsheet may read the cell as a formula: =, +, - or @ (or their full-width forms) first,
 * whatever blanks come before them. The one rule for the downloads (`safeCell`) and the clients import
 * (`isFormula`, which lets a phone number or a plain number through).
 */
export function startsLikeFormula(cell: string): boolean {
  return /^[=+\-@\uff1d\uff0b\uff0d\uff20]/.test(cell.replace(LEADING_BLANKS, ''));
}

/**
 * A cell a spreadsheet would read as a formula gets a leading apostrophe, so a client named
 * "=HYPERLINK(…)" stays text when the owner opens the file. Numbers are numbers and left alone.
 */
export function safeCell(value: string | number | null | undefined): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  return startsLikeFormula(value) ? `'${value}` : value;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/**
 * One CSV record (RFC 4180) and its line end: a cell holding a comma, a double quote or a line break
 * is quoted, its quotes doubled; every other cell is written as it is, numbers as numbers, nothing as
 * an empty cell. Written here rather than by csv-stringify (decision 028, session 30): the library
 * builds several objects per cell, which made a 100,000-line download twice as slow and its garbage
 * outlive the young generation (the server's memory rose by up to +180 MB); csv-parse reads these
 * lines back to the same cells (tests/unit/csv.test.ts).
 */
export function csvLine(cells: readonly (string | number)[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    const text = typeof cell === 'number' ? String(cell) : cell;
    if (i > 0) line += ',';
    line += typeof cell === 'string' && NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  }
  return `${line}\n`;
}
const NEEDS_QUOTES = /[",\r\n]/;

/** The byte-order mark a spreadsheet needs to read a file as UTF-8. */
const BOM = '\uFEFF';

/**
 * CSV written as its rows are read (decision 028): the header row (after the byte-order mark), then
 * each batch as it arrives, every cell made safe to open in a spreadsheet. The first byte leaves after
 * the first batch; memory holds one batch whatever the size.
 */
export async function* csvChunks<T>(batches: AsyncIterable<T[]>, columns: CsvColumn<T>[]): AsyncGenerator<string> {
  yield BOM + csvLine(columns.map((c) => c.header));
  for await (const batch of batches) {
    let text = '';
    for (const row of batch) text += csvLine(columns.map((c) => safeCell(c.value(row))));
    yield text;
  }
}

/** Sends CSV, written as it is read, as a download that no cache keeps. */
export function sendCsv(reply: FastifyReply, fileName: string, chunks: AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(Readable.from(chunks));
}
