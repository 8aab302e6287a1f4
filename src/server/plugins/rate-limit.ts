import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { messages } from '../../shared/messages';
import type { Config } from '../config';

/**
 * Rate limits are declared per route (`global: false`). With REDIS_URL the counters live in Redis,
 * so several app processes share them; otherwise in this process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { connectTimeout: 2000, maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'handyman-rl:' } : {}),
    // When Redis is unreachable, serve the request rather than lock every client out.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      error: 'Too Many Requests',
      message: messages.tooManyAttempts,
    }),
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

interface LimitOptions {
  max: number;
  timeWindowMs: number;
  /** What is counted: a client address, a username... Requests with the same key share a budget. */
  key: (request: FastifyRequest) => string;
}

/**
 * A preHandler that answers 429 once `key` has been used `max` times in the window. Several of
 * these can guard one route (e.g. per address and per username), unlike the plugin's route hook.
 */
export function limitBy(app: FastifyInstance, options: LimitOptions) {
  const check = app.createRateLimit({ max: options.max, timeWindow: options.timeWindowMs, keyGenerator: options.key });
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const result = await check(request);
    if (result.isAllowed) return;
    if (result.isExceeded) {
      return reply
        .code(429)
        .header('retry-after', String(result.ttlInSeconds))
        .send({ statusCode: 429, error: 'Too Many Requests', message: messages.tooManyAttempts });
    }
  };
}
