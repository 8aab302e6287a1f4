import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../src/server/db/schema';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/**
 * Issue 25.2: one lone UTF-16 surrogate in a short text field (`"fullName":"G \ud800"`) was stored with
 * the change, then broke the audit trail's JSON insert: 500 and a change with no entry. The input guard
 * refuses it like NUL, before any handler runs.
 */
describe.each(dbKinds)('lone UTF-16 surrogates are refused at the door (%s)', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ token } = await createUserAndSignIn(t, 'admin'));
  });
  afterAll(() => t.close());

  const addUser = (raw: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/adduser',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: raw,
    });
  const body = (fullName: string, username: string) =>
    // Written by hand: JSON.stringify would escape the lone half the same way, but this is the attack's text.
    `{"username":"${username}","password":"correct horse battery","role":"admin","fullName":"${fullName}"}`;

  it.each([
    ['a high half alone', 'G \\ud800', 'high'],
    ['a low half alone', '\\udc00 G', 'low'],
    ['two high halves', '\\ud83d\\ud83d', 'twohigh'],
    ['the halves in the wrong order', '\\ude00\\ud83d', 'reversed'],
  ])('refuses %s with 400 and stores nothing', async (_name, fullName, username) => {
    const usersBefore = (await t.database.db.select().from(users)).length;
    const auditBefore = (await t.database.db.select().from(auditLog)).length;
    const res = await addUser(body(fullName, username));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(
      'body.fullName: text cannot contain a lone UTF-16 surrogate (\\ud800–\\udfff without its pair)',
    );
    expect((await t.database.db.select().from(users)).length).toBe(usersBefore);
    expect((await t.database.db.select().from(auditLog)).length).toBe(auditBefore);
  });

  it('refuses one in a field name, a query and a path too', async () => {
    const key = await addUser(`{"username":"keyed","password":"correct horse battery","role":"admin","x\\udfff":1}`);
    expect(key.statusCode, key.body).toBe(400);
    expect(key.json().message).toMatch(/^body\.x\ufffd: text cannot contain a lone UTF-16 surrogate/);
    const query = await t.app.inject({
      method: 'GET',
      url: '/api/quoterequest/all',
      query: { search: 'G \ud800' },
      headers: bearer(token),
    });
    // The query string is UTF-8 on the wire: the lone half arrives as U+FFFD, a real character.
    expect(query.statusCode).toBeLessThan(500);
  });

  it('accepts a whole pair (an emoji) and keeps it, with its audit entry', async () => {
    const res = await addUser(body('G \\ud83d\\ude00', 'emoji'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().fullName).toBe('G 😀');
  });
});
