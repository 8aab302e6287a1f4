// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, apiResponse, publicApi, tokenStore } from '../../src/web/lib/api-client';

// Issue 26.2: a signed-in call whose token is refused sends the person to sign in by default (it was an
// opt-in in 15 files); a visitor's or a client's call sends no staff token and never redirects.
describe('the web app’s one API client', () => {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  let answer = 200;
  const assign = vi.fn();
  beforeEach(() => {
    calls.length = 0;
    answer = 200;
    assign.mockReset();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: { headers: Record<string, string> }) => {
        calls.push({ url, headers: init.headers });
        return new Response(JSON.stringify(answer === 200 ? { ok: true } : { message: 'Unauthorized' }), {
          status: answer,
        });
      }),
    );
    vi.spyOn(window.location, 'assign').mockImplementation(assign);
    window.history.replaceState(null, '', '/admin/invoices?status=Paid');
    tokenStore.set('staff-token');
  });
  afterEach(() => {
    tokenStore.clear();
    vi.unstubAllGlobals();
  });

  it('a staff call sends the stored token; refused, it forgets the token and goes to sign in and back', async () => {
    await api('GET', '/invoices');
    expect(calls[0]!.headers.authorization).toBe('Bearer staff-token');
    answer = 401;
    await expect(api('GET', '/invoices')).rejects.toBeInstanceOf(ApiError);
    expect(tokenStore.get()).toBeNull();
    expect(assign).toHaveBeenCalledTimes(1);
    expect(assign.mock.calls[0]![0]).toContain('/login');
    expect(decodeURIComponent(assign.mock.calls[0]![0] as string)).toContain('/admin/invoices?status=Paid');
  });

  it('a call that handles a refused token itself does not redirect', async () => {
    answer = 401;
    await expect(api('GET', '/login/user-role', { redirectOn401: false })).rejects.toBeInstanceOf(ApiError);
    expect(assign).not.toHaveBeenCalled();
    expect(tokenStore.get()).toBe('staff-token');
  });

  it("a visitor's or a client's call sends no staff token and never redirects", async () => {
    answer = 401;
    await expect(publicApi('GET', '/client-quotes/q1?token=link')).rejects.toBeInstanceOf(ApiError);
    expect(calls[0]!.headers.authorization).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
    expect(tokenStore.get()).toBe('staff-token');
  });

  it("the crew's queue goes through the same client: its own headers, the token, the same rule", async () => {
    const response = await apiResponse('PUT', '/my/jobs/j1/notes', {
      body: { notes: 'x' },
      headers: { 'x-change-id': 'c1' },
    });
    expect(response.status).toBe(200);
    expect(calls[0]!.headers).toMatchObject({ 'x-change-id': 'c1', authorization: 'Bearer staff-token' });
    answer = 401;
    expect((await apiResponse('PUT', '/my/jobs/j1/notes', { body: {} })).status).toBe(401);
    expect(assign).toHaveBeenCalledTimes(1);
  });
});
