// The embedded database's worker reads the answers of its kept statements itself, each row's values
// decoded where they lie (src/server/db/pglite-statements.ts, decision 053 session 50): the same
// messages as PGlite's own parser, however the answer comes in pieces.
import { PGlite, protocol } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerReader } from '../../src/server/db/pglite-statements';

type Message = ReturnType<typeof reference>[number];

/** The messages as PGlite's own parser reads the whole answer, kept up to and with the first error. */
function reference(bytes: Uint8Array) {
  const messages: { name: string }[] = [];
  let failed = false;
  new protocol.Parser().parse(bytes, (message) => {
    if (failed) return;
    failed = message instanceof protocol.messages.DatabaseError;
    messages.push(message);
  });
  return messages;
}

/** The answer given to the reader in pieces cut at `at`. */
function readInPieces(bytes: Uint8Array, at: number[]) {
  const reader = new AnswerReader();
  let from = 0;
  for (const place of [...new Set(at)].sort((a, b) => a - b)) {
    if (place <= from || place >= bytes.length) continue;
    // Each piece a view of a larger memory, as PGlite gives them, overwritten once read.
    const memory = new Uint8Array(place - from + 16);
    memory.set(bytes.subarray(from, place), 8);
    reader.read(memory.subarray(8, 8 + place - from));
    memory.fill(0xee);
    from = place;
  }
  reader.read(bytes.subarray(from));
  reader.end();
  return reader;
}

const run = (db: PGlite, text: string, values: (string | null)[] = []) =>
  db.execProtocolRaw(
    Buffer.concat([
      protocol.serialize.parse({ text }),
      protocol.serialize.bind({ values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]),
  );

describe("the embedded database's answers, read by the worker", () => {
  let db: PGlite;
  let rows: Uint8Array;
  let failing: Uint8Array;
  let noticed: Uint8Array;
  beforeAll(async () => {
    db = await PGlite.create();
    await db.exec(`create table t (id int, body text, doc jsonb, n numeric);
      create function noisy() returns int language plpgsql as $$ begin raise notice 'said'; return 1; end $$;`);
    await db.query(
      `insert into t select g, case when g % 7 = 0 then null else repeat('é€😀 line ' || g, g % 40) end,
         jsonb_build_object('g', g, 'name', 'Zoë ' || g), g / 3.0 from generate_series(1, 300) g`,
    );
    // A long value (300 KB) too, far more than one piece.
    await db.query(`insert into t values (1000, repeat('long ✓ ', 43000), null, null)`);
    rows = await run(db, 'select id, body, doc, n, $1::text as param from t order by id', ['ünïcode']);
    failing = await run(db, 'select id, 1 / (id - 5) from t order by id');
    noticed = await run(db, 'select noisy() as n');
  }, 60_000);
  afterAll(() => db.close());

  it('reads the same messages as PGlite, the answer cut anywhere', () => {
    const whole = reference(rows);
    expect(whole.filter((m) => m.name === 'dataRow')).toHaveLength(301);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: rows.length }), { maxLength: 40 }), (at) => {
        const reader = readInPieces(rows, at);
        expect(reader.error).toBeUndefined();
        expect(reader.messages).toStrictEqual(whole);
      }),
      { numRuns: 150 },
    );
  });

  it('reads an answer one byte at a time, a value cut inside its characters', () => {
    const reader = readInPieces(
      rows,
      Array.from({ length: rows.length }, (_, i) => i),
    );
    expect(reader.messages).toStrictEqual(reference(rows));
    const long = reader.messages.findLast((m: Message) => m.name === 'dataRow') as unknown as { fields: string[] };
    expect(long.fields[1]).toBe('long ✓ '.repeat(43000));
  });

  it('keeps the messages up to and with the first error, and tells the error as PGlite does', () => {
    for (const at of [[], [7, 100, 1000], Array.from({ length: 60 }, (_, i) => i * 13)]) {
      const reader = readInPieces(failing, at);
      expect(reader.error).toBeInstanceOf(protocol.messages.DatabaseError);
      expect(reader.error).toMatchObject({ code: '22012', message: 'division by zero' });
      expect(reader.messages).toStrictEqual(reference(failing));
      expect(reader.messages.at(-1)).toBe(reader.error);
    }
  });

  it('keeps a notice among the messages, as PGlite does', () => {
    const reader = readInPieces(noticed, [3, 30]);
    expect(reader.messages.map((m: Message) => m.name)).toContain('notice');
    expect(reader.messages).toStrictEqual(reference(noticed));
  });

  it('says so when an answer ends in the middle of a message', () => {
    const reader = readInPieces(rows.subarray(0, rows.length - 3), [50]);
    expect(reader.error?.message).toBe('The embedded database ended its answer in the middle of a message');
  });

  it('keeps a leading byte order mark in a value, as PostgreSQL gives it (PGlite’s own parser drops it)', async () => {
    const answer = await run(db, 'select $1::text as t', ['\uFEFFnote from a Windows file']);
    const row = readInPieces(answer, []).messages.find((m: Message) => m.name === 'dataRow') as unknown as {
      fields: string[];
    };
    expect(row.fields[0]).toBe('\uFEFFnote from a Windows file');
  });
});
