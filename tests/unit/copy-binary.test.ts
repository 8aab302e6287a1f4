import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copyBinaryRows, type CopyRow } from '../../src/server/db/copy-binary';

/** Rows as PostgreSQL writes them in COPY's binary format (a header extension of `extension` bytes). */
function encode(rows: CopyRow[], extension = 0): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')];
  const header = Buffer.alloc(8);
  header.writeUInt32BE(extension, 4);
  parts.push(header, Buffer.alloc(extension, 7));
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      length.writeInt32BE(field ? field.length : -1);
      parts.push(length);
      if (field) parts.push(field);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

/** The bytes cut at the given places, each piece a stream's chunk. */
async function* cut(bytes: Buffer, at: number[]): AsyncGenerator<Buffer> {
  let from = 0;
  for (const place of [...new Set(at)].sort((a, b) => a - b)) {
    if (place <= from || place >= bytes.length) continue;
    yield bytes.subarray(from, place);
    from = place;
  }
  yield bytes.subarray(from);
}

async function read(pieces: AsyncIterable<Buffer>): Promise<CopyRow[]> {
  const rows: CopyRow[] = [];
  for await (const batch of copyBinaryRows(pieces)) {
    // Every field is a view of the batch's bytes.
    for (const row of batch.rows)
      for (const field of row)
        if (field)
          expect(
            field.byteOffset >= batch.bytes.byteOffset &&
              field.byteOffset + field.length <= batch.bytes.byteOffset + batch.bytes.length &&
              field.buffer === batch.bytes.buffer,
          ).toBe(true);
    rows.push(...batch.rows);
  }
  return rows;
}

const field = fc.option(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  { freq: 5 },
);
const rows = fc.array(fc.array(field, { maxLength: 6 }), { maxLength: 30 });

// everything.json reads PostgreSQL's rows so (decision 028, session 49).
describe('copyBinaryRows', () => {
  it('reads every row and field as written, wherever the stream is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        rows,
        fc.nat(20),
        fc.array(fc.nat(20_000), { maxLength: 12 }),
        async (written, extension, at) => {
          const bytes = encode(written, extension);
          expect(
            await read(
              cut(
                bytes,
                at.map((place) => place % (bytes.length + 1)),
              ),
            ),
          ).toEqual(written);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a stream one byte at a time, and a field far longer than a piece', async () => {
    const long = Buffer.alloc(200_000, 'x');
    const written: CopyRow[] = [[Buffer.from('a'), null, Buffer.alloc(0)], [long], [null]];
    const bytes = encode(written);
    expect(
      await read(
        cut(
          bytes,
          Array.from({ length: bytes.length }, (_, i) => i),
        ),
      ),
    ).toEqual(written);
    expect(await read(cut(bytes, [40, 70_000, 140_000]))).toEqual(written);
  });

  it('gives each piece’s whole rows as they arrive, not at the end', async () => {
    const bytes = encode([[Buffer.from('one')], [Buffer.from('two')]]);
    const firstRowEnd = 19 + 2 + 4 + 3;
    const batches: CopyRow[][] = [];
    for await (const batch of copyBinaryRows(cut(bytes, [firstRowEnd]))) batches.push(batch.rows);
    expect(batches).toEqual([[[Buffer.from('one')]], [[Buffer.from('two')]]]);
  });

  it('refuses what is not COPY’s binary format, or ends early, or goes on after its end', async () => {
    const bytes = encode([[Buffer.from('row')]]);
    await expect(read(cut(Buffer.from('id\tname\n1\tA client\n2\tAnother client\n'), []))).rejects.toThrow(
      'not the binary format',
    );
    await expect(read(cut(bytes.subarray(0, bytes.length - 1), [25]))).rejects.toThrow('ended early');
    await expect(read(cut(bytes.subarray(0, 20), []))).rejects.toThrow('ended early');
    await expect(read(cut(Buffer.concat([bytes, Buffer.from([0, 1])]), []))).rejects.toThrow('after its end');
    await expect(read(cut(Buffer.concat([bytes, Buffer.from([0, 1])]), [bytes.length]))).rejects.toThrow(
      'after its end',
    );
    // Lengths no database writes: a field count or a field length below -1.
    const badCount = Buffer.from(bytes);
    badCount.writeInt16BE(-2, 19);
    await expect(read(cut(badCount, []))).rejects.toThrow('negative field count');
    const badLength = Buffer.from(bytes);
    badLength.writeInt32BE(-5, 21);
    await expect(read(cut(badLength, []))).rejects.toThrow('negative length');
  });
});
