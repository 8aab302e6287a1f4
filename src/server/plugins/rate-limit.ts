import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { messages } from '../../shared/messages';
import type { Config } from '../config';
import { errorBody } from '../lib/http-errors';

/** The Redis connection that shared counters use, when REDIS_URL is set; closed with the app. */
export function connectRedis(app: FastifyInstance, config: Config): Redis | undefined {
  if (!config.REDIS_URL) return undefined;
  const redis = new Redis(config.REDIS_URL, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false });
  // A lost connection is retried by ioredis; the limits meanwhile let requests through (skipOnError).
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'Redis unavailable'));
  app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  return redis;
}

/**
 * Rate limits are declared per route (`global: false`). With REDIS_URL the counters live in Redis,
 * so several app processes share them; otherwise in this process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, redis: Redis | undefined): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'handyman-rl:' } : {}),
    // When Redis is unreachable, serve the request rather than lock every client out.
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
