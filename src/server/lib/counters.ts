import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';

/**
 * Counters that expire a fixed time after their first increment: in this process's memory, or in
 * Redis so that several app processes share them. Each call is atomic on its own.
 */
export interface Counters {
  /** Adds one and returns the new count; the window starts at the first increment. */
  increment(key: string, windowMs: number): Promise<number>;
  /** Takes one back (a request that turned out not to count), never below zero. */
  decrement(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /** True the first time in the window it is called for `key`: for "tell someone once". */
  firstTime(key: string, windowMs: number): Promise<boolean>;
}

interface Entry {
  count: number;
  expiresAt: number;
}

/** At most this many keys are kept in memory; the oldest go first, so a flood cannot grow it. */
const MEMORY_KEYS = 100_000;

export function memoryCounters(): Counters {
  const entries = new LRUCache<string, Entry>({ max: MEMORY_KEYS });
  const live = (key: string) => {
    const entry = entries.get(key);
    return entry && entry.expiresAt > Date.now() ? entry : undefined;
  };
  return {
    async increment(key, windowMs) {
      const entry = live(key) ?? { count: 0, expiresAt: Date.now() + windowMs };
      entry.count++;
      entries.set(key, entry);
      return entry.count;
    },
    async decrement(key) {
      const entry = live(key);
      if (entry && entry.count > 0) entry.count--;
    },
    async reset(key) {
      entries.delete(key);
    },
    async firstTime(key, windowMs) {
      if (live(key)) return false;
      entries.set(key, { count: 1, expiresAt: Date.now() + windowMs });
      return true;
    },
  };
}

export function redisCounters(redis: Redis, prefix: string): Counters {
  return {
    async increment(key, windowMs) {
      const k = prefix + key;
      // The expiry is set only by the first increment, so later ones do not stretch the window.
      const result = await redis.multi().set(k, '0', 'PX', windowMs, 'NX').incr(k).exec();
      return Number(result?.[1]?.[1] ?? 0);
    },
    async decrement(key) {
      const k = prefix + key;
      await redis.eval(
        "local v = tonumber(redis.call('get', KEYS[1]) or '0') if v > 0 then redis.call('decr', KEYS[1]) end return 0",
        1,
        k,
      );
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async firstTime(key, windowMs) {
      return (await redis.set(prefix + key, '1', 'PX', windowMs, 'NX')) === 'OK';
    },
  };
}

/**
 * `work`, or a rejection once `ms` have passed without an answer. A busy event loop does not make an
 * answer late: when the timer fires, the decision waits for the I/O already received to be read
 * (setImmediate runs after that phase), so only an answer that truly has not come counts as none.
 */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (!settled) reject(new Error(`no answer within ${ms} ms`));
          settled = true;
        }),
      ms,
    );
    work.then(
      (value) => {
        if (!settled) resolve(value);
        settled = true;
        clearTimeout(timer);
      },
      (error: unknown) => {
        if (!settled) reject(error instanceof Error ? error : new Error(String(error)));
        settled = true;
        clearTimeout(timer);
      },
    );
  });
}

/**
 * Redis's counters while Redis answers, else this process's (decision 026): a limit that Redis cannot
 * count for the moment is counted per process rather than switched off, and no request waits for a
 * Redis that is gone (the connection fails fast: see plugins/rate-limit.ts).
 */
export function resilientCounters(redis: Redis, prefix: string, deadlineMs: number): Counters {
  const shared = redisCounters(redis, prefix);
  const local = memoryCounters();
  const either =
    <A extends unknown[], R>(op: (c: Counters) => (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (redis.status !== 'ready') return op(local)(...args);
      try {
        return await withDeadline(op(shared)(...args), deadlineMs);
      } catch {
        return op(local)(...args);
      }
    };
  return {
    increment: either((c) => c.increment),
    decrement: either((c) => c.decrement),
    reset: either((c) => c.reset),
    firstTime: either((c) => c.firstTime),
  };
}
