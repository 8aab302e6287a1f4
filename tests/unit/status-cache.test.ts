import { describe, expect, it } from 'vitest';
import { QuoteStatusCache } from '../../src/server/quote-requests/status-cache';

const request = { id: '0123456789abcdef01234567', quoteNumber: 'QEF0123456' };

describe('QuoteStatusCache', () => {
  it('reads once, then answers from memory until the status changes', async () => {
    const cache = new QuoteStatusCache<string>();
    let reads = 0;
    const load = async () => (reads++, 'Pending' as const);
    expect(await cache.get(request.quoteNumber, load)).toBe('Pending');
    expect(await cache.get(request.quoteNumber, load)).toBe('Pending');
    expect(reads).toBe(1);
    cache.forget(request);
    expect(await cache.get(request.quoteNumber, async () => 'Accepted')).toBe('Accepted');
  });

  it('does not keep "not found", so a new request is found at once', async () => {
    const cache = new QuoteStatusCache<string>();
    expect(await cache.get(request.quoteNumber, async () => undefined)).toBeUndefined();
    expect(await cache.get(request.quoteNumber, async () => 'Pending')).toBe('Pending');
  });

  it('does not put back a status read before a change that committed meanwhile', async () => {
    const cache = new QuoteStatusCache<string>();
    let finishRead!: (status: 'Pending') => void;
    const slowRead = cache.get(request.quoteNumber, () => new Promise((resolve) => (finishRead = resolve)));
    cache.forget(request); // the change commits while the read is on its way
    finishRead('Pending');
    expect(await slowRead).toBe('Pending');
    expect(await cache.get(request.quoteNumber, async () => 'Accepted')).toBe('Accepted');
  });

  it('forgets after its time to live, for changes made by other processes', async () => {
    const cache = new QuoteStatusCache<string>({ ttlMs: 30 });
    await cache.get(request.quoteNumber, async () => 'Pending');
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get(request.quoteNumber, async () => 'Declined')).toBe('Declined');
  });
});
