import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';
import { Redis } from 'ioredis';
import { messages } from '#shared/messages';
import type { Config } from '../config';
import { withDeadline } from '../lib/counters';
import { errorBody } from '../lib/http-errors';

/**
 * How long a request waits for Redis (connecting, or one command) before it does without: a sign-in
 * or a form never waits seconds for a counter (decision 026). The connection's own command timeout
 * is longer: it only clears commands that never get an answer; requests stop waiting at the first.
 */
export const REDIS_TIMEOUT_MS = 300;
const REDIS_COMMAND_TIMEOUT_MS = 2000;
/** Reconnecting goes on in the background, at most this far apart. */
const REDIS_RECONNECT_MAX_MS = 2000;

/**
 * The Redis connection that shared counters use, when REDIS_URL is set; closed with the app. It fails
 * fast: no queue of commands while disconnected, no retries of a command, short timeouts; callers fall
 * back to this process's memory meanwhile (`redisReady`). Start-up waits a moment for it to connect.
 */
export async function connectRedis(app: FastifyInstance, config: Config): Promise<Redis | undefined> {
  if (!config.REDIS_URL) return undefined;
  const redis = new Redis(config.REDIS_URL, {
    connectTimeout: REDIS_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, REDIS_RECONNECT_MAX_MS),
  });
  // Said once when it goes away and once when it is back, not at every reconnection attempt.
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    app.log.warn({ err: error }, 'Redis unavailable: rate limits and sign-in counters are per process meanwhile');
  });
  redis.on('ready', () => {
    if (down) app.log.info('Redis is back: rate limits and sign-in counters are shared again');
    down = false;
  });
  app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, REDIS_TIMEOUT_MS * 2);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}

/** True when Redis can take a command now (connected and ready). */
export const redisReady = (redis: Redis | undefined): redis is Redis => redis?.status === 'ready';

interface Window {
  current: number;
  ttl: number;
}

/** Fixed windows per key in this process's memory, bounded (a flood of addresses cannot grow it). */
class LocalWindows {
  private readonly entries = new LRUCache<string, { count: number; startedAt: number }>({ max: 100_000 });

  incr(key: string, windowMs: number): Window {
    const now = Date.now();
    let entry = this.entries.get(key);
    if (!entry || entry.startedAt + windowMs <= now) entry = { count: 0, startedAt: now };
    entry.count++;
    this.entries.set(key, entry);
    return { current: entry.count, ttl: entry.startedAt + windowMs - now };
  }
}

/** One atomic step in Redis: count, start the window on the first, answer the count and what is left. */
const REDIS_INCR = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

type StoreCallback = (error: Error | null, result?: Window) => void;

/**
 * The rate limit's counters: in Redis when it answers (several processes share them), else in this
 * process's memory, so a limit never switches off. (The plugin's own Redis store lets every request
 * through when Redis is down, after waiting for it.)
 */
function resilientStore(redis: Redis | undefined, nameSpace: string) {
  const local = new LocalWindows();
  return class ResilientStore {
    private readonly prefix: string;
    constructor(_options?: unknown, prefix = nameSpace) {
      this.prefix = prefix;
    }
    incr(key: string, callback: StoreCallback, timeWindow: number) {
      const k = this.prefix + key;
      if (!redisReady(redis)) return callback(null, local.incr(k, timeWindow));
      withDeadline(redis.eval(REDIS_INCR, 1, k, timeWindow), REDIS_TIMEOUT_MS).then(
        (result) => {
          const [current, ttl] = result as [number, number];
          callback(null, { current: Number(current), ttl: Math.max(0, Number(ttl)) });
        },
        () => callback(null, local.incr(k, timeWindow)),
      );
    }
    /**
     * A route's own counters. The plugin passes the route's merged limit options, its route under
     * `routeInfo` (as its own Redis store reads it; the declared type says otherwise).
     */
    child(routeOptions: object) {
      const { method, url } = (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo ?? {};
      return new ResilientStore(undefined, `${this.prefix}${String(method)}${url ?? ''}-`);
    }
  };
}

/**
 * Rate limits are declared per route (`global: false`). With REDIS_URL the counters live in Redis,
 * so several app processes share them; otherwise, and whenever Redis does not answer, in this
 * process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, redis: Redis | undefined): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: resilientStore(redis, 'handyman-rl:'),
    // The store never fails (it falls back to memory); were it to, serve the request.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      errorBody(context.statusCode, messages.tooManyAttempts, 'RATE_LIMITED'),
  });
}

/** The limit for public forms (quote requests, contact): RATE_LIMIT_MAX per window per address. */
export function publicFormLimit(config: Config) {
  return {
    rateLimit: {
      max: config.RATE_LIMIT_MAX,
      timeWindow: config.RATE_LIMIT_WINDOW_MINUTES * 60_000,
    },
  };
}

/**
 * The limit on a document's PDF by its link (an invoice's, a quote's): a person opens it a few times;
 * a loop asking for it again and again is refused before it reads anything (decision 022).
 */
export const DOCUMENT_LIMIT_PER_MINUTE = 20;
export const documentLimit = { rateLimit: { max: DOCUMENT_LIMIT_PER_MINUTE, timeWindow: 60_000 } };
