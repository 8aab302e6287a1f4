import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvChunks, csvLine, safeCell, type CsvColumn } from '../../src/server/lib/csv';

async function text(chunks: AsyncIterable<string>) {
  let all = '';
  for await (const chunk of chunks) all += chunk;
  return all;
}

async function* inBatches<T>(rows: T[], size: number) {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

/** Any text a client can type, with the characters CSV must quote over-represented. */
const cellText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc
    .array(fc.constantFrom('"', ',', '\n', '\r', '\r\n', ' ', 'a', 'é', '=', '-'), { maxLength: 12 })
    .map((parts) => parts.join('')),
);
const cell = fc.oneof(cellText, fc.integer({ min: -1e9, max: 1e9 }), fc.constant(null));

describe('the downloads’ CSV (decision 028)', () => {
  it('reads back, by the csv-parse the import uses, to the cells written, whatever they hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 5 })
          .chain((width) =>
            fc.tuple(
              fc.array(fc.string({ minLength: 1, maxLength: 10 }), { minLength: width, maxLength: width }),
              fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 20 }),
              fc.integer({ min: 1, max: 7 }),
            ),
          ),
        async ([headers, rows, batch]) => {
          const columns: CsvColumn<(string | number | null)[]>[] = headers.map((header, i) => ({
            header,
            value: (row) => row[i],
          }));
          const written = await text(csvChunks(inBatches(rows, batch), columns));
          expect(written.startsWith('\uFEFF')).toBe(true);
          const read = parse(written, { bom: true, relax_column_count: false }) as string[][];
          expect(read).toEqual([headers, ...rows.map((row) => row.map((c) => String(safeCell(c))))]);
        },
      ),
    );
  });

  it('quotes only what needs it, and ends each record with a line break', () => {
    expect(csvLine(['Ann', 12, ''])).toBe('Ann,12,\n');
    expect(csvLine(['Lee, Ann', 'say "hi"', 'two\nlines', 'a\rb'])).toBe(
      '"Lee, Ann","say ""hi""","two\nlines","a\rb"\n',
    );
  });

  it('makes a cell a spreadsheet would run into text, whatever blanks come first; numbers and words stay', () => {
    for (const formula of [
      '=1+1',
      '+SUM(A1)',
      '-2+3',
      '@cmd',
      '\uff1d1+1',
      ' =HYPERLINK("x")',
      '\t=cmd',
      '\r=cmd',
      '\u00a0@x',
      '\u200b=1',
    ])
      expect(safeCell(formula)).toBe(`'${formula}`);
    for (const data of ['Ann', 'O\u2019Brien', '\tindented', '', 'a=b']) expect(safeCell(data)).toBe(data);
    expect(safeCell(-5)).toBe(-5);
    expect(safeCell(null)).toBe('');
    expect(safeCell(undefined)).toBe('');
  });
});
