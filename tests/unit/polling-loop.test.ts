import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingLoop } from '../../src/server/lib/polling-loop';

/** A loop with nothing to do and a poll of an hour: it works only when woken. */
function idleLoop() {
  const rounds: number[] = [];
  const started = Date.now();
  const loop = new PollingLoop({
    work: async () => {
      rounds.push(Date.now() - started);
      return 0;
    },
    pollMs: 3_600_000,
    failed: (error) => {
      throw error;
    },
  });
  return { loop, rounds };
}

/** Time passes on the test's own clock: the wake-ups' 100 ms moments fall where they should, however busy the machine. */
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('the polling loop (mail and webhook relays)', () => {
  // A clock on a whole 100 ms moment, so "the same moment" is the same in every run.
  beforeEach(() => vi.useFakeTimers({ now: 1_790_000_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('works again when something it scheduled falls due, long before the next poll', async () => {
    const { loop, rounds } = idleLoop();
    loop.start();
    await sleep(20);
    expect(rounds).toHaveLength(1);
    loop.kickIn(80);
    await sleep(40);
    expect(rounds).toHaveLength(1);
    await sleep(120);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).toBeGreaterThanOrEqual(80);
    await loop.stop();
  });

  it('wakes at each moment asked for, once for several asked for the same moment', async () => {
    const { loop, rounds } = idleLoop();
    loop.start();
    await sleep(10);
    loop.kickIn(300);
    loop.kickIn(100);
    loop.kickIn(101);
    loop.kickIn(102);
    await sleep(250);
    // The three asked for within one moment made one round, and the later one is still to come.
    expect(rounds).toHaveLength(2);
    await sleep(200);
    expect(rounds).toHaveLength(3);
    expect(rounds[2]).toBeGreaterThanOrEqual(300);
    await loop.stop();
  });

  it('forgets its wake-up when stopped', async () => {
    const { loop, rounds } = idleLoop();
    loop.start();
    await sleep(10);
    loop.kickIn(50);
    await loop.stop();
    await sleep(100);
    expect(rounds).toHaveLength(1);
    loop.kickIn(10);
    await sleep(40);
    expect(rounds).toHaveLength(1);
  });
});
