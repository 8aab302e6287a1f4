import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inKeyRanges } from '../../src/server/lib/sql';

/** A sorted list of keys read the way the export reads a table: boundaries from the index, then ranges. */
function table(keys: number[], size: number) {
  let inFlight = 0;
  let most = 0;
  const boundaryAfter = async (after: number | undefined) =>
    keys.filter((k) => after === undefined || k > after)[size - 1];
  const readRange = async (after: number | undefined, upTo: number | undefined) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    inFlight--;
    return keys.filter((k) => (after === undefined || k > after) && (upTo === undefined || k <= upTo));
  };
  return { boundaryAfter, readRange, most: () => most };
}

async function all<T>(batches: AsyncGenerator<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

// everything.json reads each table this way (decision 028, session 36).
describe('inKeyRanges', () => {
  it('yields every key once, in order, in batches of the given size, with no more reads at once than asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 4 }),
        async (unsorted, size, ahead) => {
          const keys = [...unsorted].sort((a, b) => a - b);
          const t = table(keys, size);
          const batches = await all(inKeyRanges(t.boundaryAfter, t.readRange, ahead));
          expect(batches.flat()).toEqual(keys);
          for (const batch of batches.slice(0, -1)) expect(batch).toHaveLength(size);
          expect(batches.at(-1)?.length ?? 0).toBeLessThanOrEqual(size);
          expect(t.most()).toBeLessThanOrEqual(ahead);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads ahead while the caller writes, skips a range emptied meanwhile, and reads an open last range', async () => {
    const reads: string[] = [];
    const batches = inKeyRanges(
      async (after: number | undefined) =>
        (({ undefined: 10, 10: 20, 20: 30 }) as Record<string, number | undefined>)[String(after)],
      async (after, upTo) => {
        reads.push(`${after}-${upTo}`);
        return after === 10 ? [] : [upTo ?? 99];
      },
      2,
    );
    const first = await batches.next();
    expect(first.value).toEqual([10]);
    // The first two ranges were asked for before the first was handed over.
    expect(reads).toEqual(['undefined-10', '10-20']);
    expect(await all(batches)).toEqual([[30], [99]]);
    expect(reads).toEqual(['undefined-10', '10-20', '20-30', '30-undefined']);
  });

  it('fails with a read that fails, and a download given up waits for the reads still in flight', async () => {
    const failing = inKeyRanges(
      async (after: number | undefined) => (after === undefined ? 1 : undefined),
      async (after) => {
        if (after === 1) throw new Error('connection lost');
        return [1];
      },
      2,
    );
    await expect(all(failing)).rejects.toThrow('connection lost');

    let finished = 0;
    const slow = inKeyRanges(
      async (after: number | undefined) => (after ?? 0) + 1,
      async (_after, upTo) => {
        await new Promise((r) => setTimeout(r, 20));
        finished++;
        return [upTo!];
      },
      3,
    );
    expect((await slow.next()).value).toEqual([1]);
    await slow.return(undefined);
    // The two reads asked for ahead ended before the generator did: none outlives the download.
    expect(finished).toBe(3);
  });
});
