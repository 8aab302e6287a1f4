// Issue 12, item 5: every error body carries a stable code, listed in the OpenAPI document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#shared/schemas/errors';
import { dataUrl } from '../helpers/images';
import { createQuoteRequest } from '../helpers/factories';
import { routeDbKind } from '../helpers/test-db';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';

describe('error codes', () => {
  let t: TestApp;
  let admin: { token: string; user: { id: string } };
  let employee: { token: string };
  beforeAll(async () => {
    t = await createTestApp(routeDbKind);
    admin = await createUserAndSignIn(t, 'admin');
    employee = await createUserAndSignIn(t, 'employee');
  });
  afterAll(() => t.close());

  type Request = { method: 'GET' | 'POST' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: object };
  const codeOf = async (request: Request) => {
    const res = await t.app.inject(request);
    return { status: res.statusCode, code: (res.json() as { code?: string }).code };
  };
  const newUser = (fields: Record<string, unknown>) => ({
    method: 'POST' as const,
    url: '/api/users/adduser',
    headers: bearer(admin.token),
    payload: {
      username: 'pat.painter',
      password: 'lantern-orchard-quiet',
      role: 'employee',
      fullName: '',
      email: '',
      phone: '',
      tags: [],
      ...fields,
    },
  });

  it('name what went wrong, whatever the wording', async () => {
    expect(await codeOf({ method: 'GET', url: '/api/nothing-here' })).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect(await codeOf({ method: 'POST', url: '/api/contact', payload: {} })).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(await codeOf({ method: 'GET', url: '/api/users' })).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(await codeOf({ method: 'GET', url: '/api/users', headers: bearer(employee.token) })).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await codeOf(newUser({}))).toEqual({ status: 201, code: undefined });
    expect(await codeOf(newUser({ username: 'PAT.PAINTER' }))).toEqual({ status: 400, code: 'USERNAME_TAKEN' });
    expect(await codeOf(newUser({ username: 'sam', password: 'password1' }))).toEqual({
      status: 400,
      code: 'WEAK_PASSWORD',
    });
    expect(
      await codeOf({ method: 'DELETE', url: `/api/users/${admin.user.id}`, headers: bearer(admin.token) }),
    ).toEqual({ status: 400, code: 'OWN_ACCOUNT' });
    const notAPicture = dataUrl(Buffer.from('not a picture at all'), 'image/png');
    expect(
      await codeOf({
        method: 'POST',
        url: '/api/quoterequest/create',
        payload: {
          contactPerson: { name: 'A B', email: 'a@b.test' },
          address: { street: '1 A St', city: 'Sacramento', state: 'CA', zip: '95814' },
          notes: 'x',
          images: [notAPicture],
        },
      }),
    ).toEqual({ status: 400, code: 'INVALID_IMAGE' });
    const request = await createQuoteRequest(t);
    const decline = {
      method: 'POST' as const,
      url: '/api/quoterequest/markDeclined',
      headers: bearer(admin.token),
      payload: { quoteRequestId: request._id, reasonForDecline: 'Out of area' },
    };
    expect((await codeOf(decline)).status).toBe(200);
    expect(await codeOf(decline)).toEqual({ status: 409, code: 'REQUEST_NOT_PENDING' });
    expect(await codeOf({ method: 'GET', url: '/api/client-quotes/QT00000000?token=x' })).toEqual({
      status: 403,
      code: 'LINK_INVALID',
    });
  });

  it('are listed in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).body;
    for (const code of ERROR_CODES) expect(doc).toContain(`"${code}"`);
  });
});
