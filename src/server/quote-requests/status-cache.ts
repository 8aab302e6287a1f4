import { LRUCache } from 'lru-cache';
import { onCommitted, type Db } from '../db/client';
import { REQUEST_STATUS_CHANGED, type RequestKey, type RequestStatus } from './repository';

/**
 * Recently looked-up request statuses, so a client refreshing the status page (or many at once)
 * costs no database round trip. This process forgets an entry the moment it changes the status, so
 * its own answers are never stale; other processes sharing a PostgreSQL database are at most
 * `ttlMs` behind (decision 006). Only found requests are kept: a new request is never "not found".
 */
export class QuoteStatusCache<V extends object | string = RequestStatus> {
  private readonly entries: LRUCache<string, V>;
  /** Bumped by every change, so a lookup that raced a change does not put the old status back. */
  private changes = 0;

  constructor(options: { max?: number; ttlMs?: number } = {}) {
    this.entries = new LRUCache({ max: options.max ?? 10_000, ttl: options.ttlMs ?? 5_000 });
  }

  /** The cached status, or reads it with `load` and keeps it. */
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.entries.get(key);
    if (cached) return cached;
    const before = this.changes;
    const status = await load();
    if (status && this.changes === before) this.entries.set(key, status);
    return status;
  }

  /** After a request's status change has been committed (told by the repository's `afterCommit`). */
  forget(request: { id: string; quoteNumber: string }): void {
    this.changes++;
    this.entries.delete(cacheKeyOf({ id: request.id }));
    this.entries.delete(cacheKeyOf({ quoteNumber: request.quoteNumber }));
  }
}

/** The status page's cache for `db`: it forgets a request after every commit that changed its status. */
export function requestStatusCache(db: Db): QuoteStatusCache {
  const cache = new QuoteStatusCache();
  onCommitted<{ id: string; quoteNumber: string }>(db, REQUEST_STATUS_CHANGED, (request) => cache.forget(request));
  return cache;
}

export function cacheKeyOf(key: RequestKey): string {
  return 'id' in key ? `id:${key.id}` : key.quoteNumber;
}
