// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, tokenStore } from '../../src/web/lib/api-client';
import { downloadFile } from '../../src/web/lib/download';

describe('downloadFile', () => {
  let answer: Response;
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer),
    );
    tokenStore.set('staff-token');
  });
  afterEach(() => {
    tokenStore.clear();
    vi.unstubAllGlobals();
  });

  it("fails with the server's own words when it gave some (two full exports already downloading)", async () => {
    const message = 'Two full exports are downloading now. Try again in a minute, once one has finished.';
    answer = new Response(JSON.stringify({ statusCode: 503, message, code: 'SERVICE_UNAVAILABLE' }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '60' },
    });
    const failed = await downloadFile('/export/everything.json', 'everything.json').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).message).toBe(message);
    expect((failed as ApiError).code).toBe('SERVICE_UNAVAILABLE');
  });

  it('fails with the status when the answer is not the API’s (a proxy’s page)', async () => {
    answer = new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
    await expect(downloadFile('/export/clients.csv', 'clients.csv')).rejects.toThrow('The download failed (502)');
  });
});
