import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, or a tab or carriage return first) gets a
 * leading apostrophe, so a client named "=HYPERLINK(…)" stays text when the owner opens the file.
 * Numbers are numbers and left alone.
 */
export function safeCell(value: string | number | null | undefined): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/**
 * CSV written as its rows are read (decision 028): the header row (after the byte-order mark a
 * spreadsheet needs to read UTF-8), then each batch as it arrives, every cell made safe to open in a
 * spreadsheet. The first byte leaves after the first batch; memory holds one batch whatever the size.
 */
export async function* csvChunks<T>(batches: AsyncIterable<T[]>, columns: CsvColumn<T>[]): AsyncGenerator<string> {
  yield stringify([], { header: true, columns: columns.map((c) => c.header), bom: true });
  for await (const batch of batches) yield stringify(batch.map((row) => columns.map((c) => safeCell(c.value(row)))));
}

/** Sends CSV, written as it is read, as a download that no cache keeps. */
export function sendCsv(reply: FastifyReply, fileName: string, chunks: AsyncIterable<string>) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(Readable.from(chunks));
}
