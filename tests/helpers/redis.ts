import { Redis } from 'ioredis';

/** Redis at TEST_REDIS_URL (CI sets it to the local server); tests that need it skip that part without. */
export const testRedisUrl = process.env.TEST_REDIS_URL;

/** Where shared counters live in a test: memory always, Redis too when TEST_REDIS_URL is set. */
export const counterStores: ('memory' | 'redis')[] = testRedisUrl ? ['memory', 'redis'] : ['memory'];

/**
 * A Redis URL for one test file's database number, emptied first. Each file that uses Redis takes
 * a number of its own, so files running side by side do not share counters.
 */
export async function freshRedisUrl(database: number): Promise<string> {
  if (!testRedisUrl) throw new Error('TEST_REDIS_URL is not set');
  const url = new URL(testRedisUrl);
  url.pathname = `/${database}`;
  const client = new Redis(url.toString(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  await client.flushdb();
  await client.quit();
  return url.toString();
}
