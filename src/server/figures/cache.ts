import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { figuresVersion } from './tables';

/** At most this old, whatever the version: "new this week" and the months move with the clock alone. */
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 32;

interface Entry {
  version: number;
  at: number;
  value: Promise<unknown>;
}

/** One cache per database (each app, and each test's app, has its own). */
const caches = new WeakMap<object, Map<string, Entry>>();

/** The figures' version, read on every opening of the dashboard, Reports, Needs you today and the lists. */
const versionNow = preparedStatement((db) =>
  db.select({ v: figuresVersion.v }).from(figuresVersion).prepare('figures_version'),
);

/**
 * The owner's figures (the dashboard's, Reports', Needs you today's, the invoice and job lists'
 * counts), computed once and answered again while the figures' version stands and for at most a
 * minute: whole-table aggregates over a business's years cost hundreds of milliseconds, and nothing
 * they count changes without a commit that adds one to the version (migrations 0027 and 0060). The
 * version is read before computing, so a change committed meanwhile makes the next read compute again;
 * two reads at once share one computation. At most MAX_ENTRIES are kept, the least recently read
 * dropped first.
 */
export async function cachedFigures<T>(db: Db, key: string, compute: () => Promise<T>): Promise<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const [row] = await versionNow(db).execute();
  const version = row?.v ?? 0;
  const known = cache.get(key);
  if (known && known.version === version && Date.now() - known.at < MAX_AGE_MS) {
    // Kept as the most recently used: paging through lists must not push the dashboard's figures out.
    cache.delete(key);
    cache.set(key, known);
    return known.value as Promise<T>;
  }
  const value = compute();
  cache.delete(key);
  cache.set(key, { version, at: Date.now(), value });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  // A failed computation is not kept.
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value;
}
