import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFormula, parseClientCsv } from '../../src/server/clients/import-file';

/** What a spreadsheet skips before it reads a cell (issue 25.8: a quoted " =…", "\t=…" or "\r=…" still runs). */
const blank = fc.constantFrom(
  ' ',
  '\t',
  '\r',
  '\n',
  '\u00a0',
  '\u200b',
  '\u2028',
  '\u3000',
  '\u000b',
  '\u000c',
  '\ufeff',
);
const formulaStart = fc.constantFrom('=', '@', '+SUM(A1)', '-2+3', '=HYPERLINK("http://evil.test")', '\uff1d1+1');
const rest = fc.string({ maxLength: 20 });

/** A CSV cell as a spreadsheet program writes it: quoted, its quotes doubled. */
const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

describe('the clients import refuses a formula whatever blanks come before it (issue 25.8)', () => {
  it('isFormula sees through leading blanks', () => {
    fc.assert(
      fc.property(fc.array(blank, { maxLength: 4 }), formulaStart, rest, (blanks, start, tail) => {
        expect(isFormula(blanks.join('') + start + tail)).toBe(true);
      }),
    );
  });

  it('a row with such a cell in any column is refused alone, named by its spreadsheet row (issue 28.6)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(blank, { minLength: 1, maxLength: 4 }),
        formulaStart,
        rest,
        fc.constantFrom(0, 1, 2),
        async (blanks, start, tail, column) => {
          const cells = ['Ann Lee', 'ann@home.test', '916-555-0101'];
          cells[column] = blanks.join('') + start + tail;
          const file = `Name,Email,Phone\r\nBo Ng,bo@home.test,\r\n${cells.map(quoted).join(',')}\r\n`;
          const parsed = await parseClientCsv(Buffer.from(file));
          expect(parsed.clients.map((c) => c.email)).toEqual(['bo@home.test']);
          expect(parsed.refused).toEqual([{ row: 3, reason: expect.stringContaining('a spreadsheet formula') }]);
        },
      ),
    );
  });

  it('phones and negative numbers, with or without blanks, stay data', () => {
    fc.assert(
      fc.property(
        fc.array(blank, { maxLength: 3 }),
        fc.constantFrom('+1 (916) 555-0142', '-5', '+44 20 7946 0958', 'Ann', '916-555-0101'),
        (blanks, cell) => {
          expect(isFormula(blanks.join('') + cell)).toBe(false);
        },
      ),
    );
  });

  // Issue 25 (import): a 20,000-row file was read and checked in one go, holding the event loop for
  // seconds; it is now read a slice at a time, so other requests' turns come in between.
  it('a 20,000-row file is read with other work let through many times meanwhile', async () => {
    const rows = ['Name,Email,Phone,Street,City,State,ZIP'];
    for (let i = 0; i < 20_000; i++)
      rows.push(`Client ${i},c${i}@home.test,916-555-0101,${i} Main St,Sacramento,CA,95814`);
    let turns = 0;
    let reading = true;
    const tick = () => {
      turns++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    const parsed = await parseClientCsv(Buffer.from(rows.join('\n')));
    reading = false;
    expect(parsed.clients).toHaveLength(20_000);
    expect(turns).toBeGreaterThanOrEqual(40);
  });

  it('a file past the row limit is refused in words', async () => {
    const rows = ['Name,Email'];
    for (let i = 0; i < 20_001; i++) rows.push(`Client ${i},c${i}@home.test`);
    await expect(parseClientCsv(Buffer.from(rows.join('\n')))).rejects.toThrow(/more than 20,000 rows/);
    await expect(parseClientCsv(Buffer.from('Name,Email\n"Ann,ann@home.test\n'))).rejects.toThrow(/not valid CSV/);
  });
});
