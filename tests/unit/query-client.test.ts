import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../src/web/app/query-client';
import { ApiError } from '../../src/web/lib/api-client';

describe('query defaults (spec section 7)', () => {
  const options = createQueryClient().getDefaultOptions().queries!;

  it('refetches every 60 s and keeps data fresh for 5 minutes', () => {
    expect(options.refetchInterval).toBe(60_000);
    expect(options.staleTime).toBe(300_000);
  });

  it('retries 3 times with an exponential delay capped at 30 s, but not a 4xx', () => {
    const retry = options.retry as (failures: number, error: unknown) => boolean;
    const delay = options.retryDelay as (attempt: number) => number;
    expect([0, 1, 2, 3].map((n) => retry(n, new Error('network')))).toEqual([true, true, true, false]);
    expect(retry(0, new ApiError(404, 'Not Found'))).toBe(false);
    expect(retry(0, new ApiError(503, 'Down'))).toBe(true);
    expect([0, 1, 2, 3, 4, 5, 6].map(delay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
