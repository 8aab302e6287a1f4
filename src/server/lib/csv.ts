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

/** CSV text with a header row, every cell made safe to open in a spreadsheet. */
export function toCsv<T>(
  rows: T[],
  columns: { header: string; value: (row: T) => string | number | null | undefined }[],
): string {
  return stringify(
    rows.map((row) => columns.map((c) => safeCell(c.value(row)))),
    { header: true, columns: columns.map((c) => c.header), bom: true },
  );
}

/** Sends CSV text as a download that no cache keeps. */
export function sendCsv(reply: FastifyReply, fileName: string, text: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(text);
}
