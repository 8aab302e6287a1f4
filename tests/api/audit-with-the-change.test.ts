// Issue 25, item 2: a staff change and its entry in the trail are stored together or not at all.
// The trail's insert is made to fail by a trigger (a real database error, as a lone surrogate or a
// full disk would give): the change must be rolled back and the answer an error.
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  auditLog,
  jobRecords,
  jobWorkers,
  payments,
  sessions,
  twoStepSecrets,
  users,
} from '../../src/server/db/schema';
import { todayIn } from '#shared/dates';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const MARK = 'FAIL-THE-TRAIL';

describe.each(dbKinds)('the audit entry commits with its change (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const db = t.database.db;
    // Refuses an entry whose details carry the mark, or whose route is listed.
    await db.execute(sql`create table trail_refuses (route text primary key)`);
    await db.execute(
      sql.raw(`create function refuse_trail() returns trigger language plpgsql as $$
        begin
          if new.details::text like '%${MARK}%' or exists (select 1 from trail_refuses where route = new.route) then
            raise exception 'the trail refuses this entry';
          end if;
          return new;
        end $$`),
    );
    await db.execute(
      sql`create trigger refuse_trail before insert on audit_log for each row execute function refuse_trail()`,
    );
    const signedIn = await createUserAndSignIn(t, 'admin');
    admin = bearer(signedIn.token);
    adminId = signedIn.user.id;
  });
  afterAll(() => t.close());

  type Method = 'GET' | 'PUT' | 'DELETE' | 'POST' | 'PATCH';
  const send = (method: Method, url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const refuseRoute = (route: string) => t.database.db.execute(sql`insert into trail_refuses values (${route})`);
  const allowRoutes = () => t.database.db.execute(sql`delete from trail_refuses`);
  const entries = (action: string, userId = adminId) =>
    t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.userId, userId)));

  it('a new admin, a payment, the owner notices address and crew notes: no entry, no change, an error', async () => {
    const db = t.database.db;
    // Creating an admin.
    const username = `boss${Date.now()}`;
    const addAdmin = (fullName: string) =>
      send('POST', '/api/users/adduser', {
        username,
        password: 'a-long-admin-password',
        fullName,
        email: '',
        phone: '',
        tags: [],
        role: 'admin',
      });
    expect((await addAdmin(`G ${MARK}`)).statusCode).toBe(500);
    expect(await db.select().from(users).where(eq(users.username, username))).toEqual([]);
    expect((await addAdmin('Gina Boss')).statusCode).toBe(201);
    expect(await entries('Created a user')).toHaveLength(1);

    // A payment.
    const sold = await createQuoteRequest(t);
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: sold._id, status: 'Completed' });
    const invoice = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    expect((await send('POST', `/api/invoices/${invoice._id}/send`)).statusCode).toBe(200);
    const pay = (reference: string) =>
      send('POST', `/api/invoices/${invoice._id}/payments`, {
        method: 'check',
        reference,
        paidOn: todayIn('America/Los_Angeles'),
        amount: 10,
      });
    expect((await pay(MARK)).statusCode).toBe(500);
    expect(await db.select().from(payments).where(eq(payments.invoiceId, invoice._id))).toEqual([]);
    expect((await pay('1001')).statusCode).toBe(201);
    expect(await db.select().from(payments).where(eq(payments.invoiceId, invoice._id))).toHaveLength(1);
    expect(await entries('Recorded a payment')).toHaveLength(1);

    // The owner's notices sent to another address.
    const { logoUrl: _l, updatedAt: _u, ...values } = (await send('GET', '/api/settings')).json();
    const redirect = (serviceAreaHeadline: string) =>
      send('PUT', '/api/settings', { ...values, ownerEmail: 'thief@elsewhere.test', serviceAreaHeadline });
    expect((await redirect(MARK)).statusCode).toBe(500);
    expect((await send('GET', '/api/settings')).json().ownerEmail).toBe(values.ownerEmail);
    expect((await redirect('Sacramento and around')).statusCode).toBe(200);
    expect((await send('GET', '/api/settings')).json().ownerEmail).toBe('thief@elsewhere.test');
    expect(await entries('Changed the settings')).toHaveLength(1);

    // Crew notes.
    const crew = await createUserAndSignIn(t, 'employee');
    const openJob = await insertJob(t, { status: 'In Progress' });
    await db.insert(jobWorkers).values({ jobId: openJob, userId: crew.user.id });
    const notes = (text: string) => send('PUT', `/api/my/jobs/${openJob}/notes`, { notes: text }, bearer(crew.token));
    expect((await notes(`Gate code 4411 ${MARK}`)).statusCode).toBe(500);
    const [record] = await db.select().from(jobRecords).where(eq(jobRecords.jobId, openJob));
    expect(record?.crewNotes ?? '').toBe('');
    expect((await notes('Gate code 4411')).statusCode).toBe(200);
    expect(await entries('Wrote notes for the office', crew.user.id)).toHaveLength(1);
  });

  it('routes without a body: deleting a user and signing out stay undone when their entry fails', async () => {
    const db = t.database.db;
    const doomed = await createUserAndSignIn(t, 'employee');
    await refuseRoute('DELETE /api/users/:id');
    expect((await send('DELETE', `/api/users/${doomed.user.id}`)).statusCode).toBe(500);
    expect(await db.select().from(users).where(eq(users.id, doomed.user.id))).toHaveLength(1);

    const leaving = await createUserAndSignIn(t, 'employee');
    await refuseRoute('POST /api/logout');
    expect((await send('POST', '/api/logout', undefined, bearer(leaving.token))).statusCode).toBe(500);
    expect(await db.select().from(sessions).where(eq(sessions.userId, leaving.user.id))).toHaveLength(1);
    expect((await send('GET', '/api/login/user-role', undefined, bearer(leaving.token))).statusCode).toBe(200);

    await allowRoutes();
    expect((await send('DELETE', `/api/users/${doomed.user.id}`)).statusCode).toBe(200);
    expect(await entries('Deleted a user')).toHaveLength(1);
    expect((await send('POST', '/api/logout', undefined, bearer(leaving.token))).statusCode).toBe(200);
    expect(await entries('Signed out', leaving.user.id)).toHaveLength(1);
  });

  // Their answers once warned "an audited write committed no transaction": the entry came after.
  it('the price book, quote templates, API keys and two-step set-up: one-statement writes go with their entry', async () => {
    const db = t.database.db;
    const item = (
      await send('POST', '/api/price-book', {
        kind: 'material',
        name: 'Gate hinge',
        unit: 'each',
        unitPrice: 12.5,
        taxable: true,
      })
    ).json();
    const template = (
      await send('POST', '/api/quote-templates', {
        name: 'Hinge swap',
        materials: [{ name: 'Gate hinge', unitPrice: 12.5, quantity: 2, optional: false, taxable: true }],
        labor: [],
        notes: '',
      })
    ).json();
    const key = (await send('POST', '/api/account/api-keys', { name: 'Books', scope: 'read' })).json();
    const refused = async (method: Method, url: string, route: string, payload?: object) => {
      await refuseRoute(route);
      expect((await send(method, url, payload)).statusCode).toBe(500);
      await allowRoutes();
    };
    await refused('PUT', `/api/price-book/${item._id}`, 'PUT /api/price-book/:id', {
      ...item,
      _id: undefined,
      unitPrice: 14,
    });
    await refused('DELETE', `/api/price-book/${item._id}`, 'DELETE /api/price-book/:id');
    expect((await send('GET', `/api/price-book?search=hinge`)).json().items).toMatchObject([{ unitPrice: 12.5 }]);
    await refused('PATCH', `/api/quote-templates/${template._id}`, 'PATCH /api/quote-templates/:id', {
      name: 'Hinges',
    });
    await refused('DELETE', `/api/quote-templates/${template._id}`, 'DELETE /api/quote-templates/:id');
    expect((await send('GET', `/api/quote-templates/${template._id}`)).json().name).toBe('Hinge swap');
    await refused('DELETE', `/api/account/api-keys/${key._id}`, 'DELETE /api/account/api-keys/:id');
    expect((await send('GET', '/api/account/api-keys')).json().keys).toMatchObject([{ _id: key._id }]);
    await refused('POST', '/api/account/two-step/start', 'POST /api/account/two-step/start');
    expect(await db.select().from(twoStepSecrets).where(eq(twoStepSecrets.userId, adminId))).toEqual([]);

    // Allowed, each is stored with its one entry.
    expect((await send('DELETE', `/api/price-book/${item._id}`)).statusCode).toBe(200);
    expect(await entries('Removed a price book entry')).toHaveLength(1);
    expect((await send('DELETE', `/api/quote-templates/${template._id}`)).statusCode).toBe(200);
    expect(await entries('Deleted a quote template')).toHaveLength(1);
    expect((await send('DELETE', `/api/account/api-keys/${key._id}`)).statusCode).toBe(200);
    expect(await entries('Revoked an API key')).toHaveLength(1);
  });

  it('a sign-in and its entry go together too', async () => {
    const { user, password } = await createUserAndSignIn(t, 'employee');
    const before = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    await refuseRoute('POST /api/login');
    const login = () =>
      t.app.inject({ method: 'POST', url: '/api/login', payload: { username: user.username, password } });
    expect((await login()).statusCode).toBe(500);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(before.length);
    await allowRoutes();
    expect((await login()).statusCode).toBe(200);
  });

  it('a lone UTF-16 surrogate cannot make the entry fail: refused as input, or stored with its entry', async () => {
    const username = `surrogate${Date.now()}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/adduser',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: `{"username":"${username}","password":"a-long-crew-password","fullName":"G \\ud800","email":"","phone":"","tags":[],"role":"employee"}`,
    });
    expect([201, 400]).toContain(res.statusCode);
    const created = await t.database.db.select().from(users).where(eq(users.username, username));
    const recorded = (await entries('Created a user')).filter(
      (e) => (e.details as { changes?: { username?: string } }).changes?.username === username,
    );
    expect(created).toHaveLength(res.statusCode === 201 ? 1 : 0);
    expect(recorded).toHaveLength(created.length);
    if (recorded.length) expect(JSON.stringify(recorded[0]!.details)).toContain('G \uFFFD');
  });

  it('an attempt the role may not make (403) is recorded with who tried', async () => {
    const crew = await createUserAndSignIn(t, 'employee');
    const tried = await send(
      'POST',
      '/api/users/adduser',
      { username: 'sneaky', password: 'x', fullName: 'x', role: 'admin' },
      bearer(crew.token),
    );
    expect(tried.statusCode).toBe(403);
    const [entry] = await entries('Refused: Created a user', crew.user.id);
    expect(entry).toMatchObject({ kind: 'users', route: 'POST /api/users/adduser', ip: '127.0.0.1' });
    expect((await send('GET', '/api/users', undefined, bearer(crew.token))).statusCode).toBe(403);
    expect(await entries('Refused: GET /api/users', crew.user.id)).toHaveLength(1);
  });

  // CI of session 20: a phone reloaded while its delete ran. The socket of a client that went away has
  // no address, and the entry's address was read from it, so the delete was rolled back.
  it('a client that hangs up while its write runs: the change and its entry are still kept, with its address', async () => {
    const doomed = await createUserAndSignIn(t, 'employee');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    // Hangs up as the request arrives, after Fastify has taken it and before the handler runs.
    const hangUp = (request: IncomingMessage) => {
      if (request.method === 'DELETE') request.socket.destroy();
    };
    t.app.server.on('request', hangUp);
    try {
      const answered = await new Promise<string>((resolve) => {
        const call = http.request({
          host: '127.0.0.1',
          port,
          method: 'DELETE',
          path: `/api/users/${doomed.user.id}`,
          headers: admin,
        });
        call.on('response', () => resolve('answered'));
        call.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        call.end();
      });
      expect(answered).toBe('ECONNRESET');
      await vi.waitFor(async () => {
        expect(await t.database.db.select().from(users).where(eq(users.id, doomed.user.id))).toEqual([]);
      });
    } finally {
      t.app.server.off('request', hangUp);
    }
    const deleted = (await entries('Deleted a user')).filter((e) => e.target === doomed.user.id);
    expect(deleted).toMatchObject([{ ip: '127.0.0.1', route: 'DELETE /api/users/:id' }]);
  });

  // Issue 27: a trail of years is not counted whole for every page.
  it('counts the trail up to 10,000, says there is more, and still finds older entries by date', async () => {
    await t.database.db.execute(sql`
      insert into ${auditLog} (id, at, user_id, actor_name, ip, kind, action, route)
      select 'seeded-' || g, now() - make_interval(mins => 2 * g), ${adminId}, 'Seeded Admin', '203.0.113.9', 'jobs',
             'Seeded action ' || g, 'GET /api/seeded'
      from generate_series(1, 10050) g`);
    const trail = (await send('GET', '/api/audit?page=1&limit=50')).json();
    expect(trail).toMatchObject({ total: 10_000, capped: true, totalPages: 200 });
    expect(trail.entries).toHaveLength(50);
    // The kept people list names the admin by the name of their newest entry.
    expect(trail.people).toContainEqual({ userId: adminId, name: expect.any(String) });
    // A few days back is under the cap, counted exactly.
    const from = new Date(Date.now() - 4 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const older = (await send('GET', `/api/audit?page=1&limit=50&from=${from}&to=${to}`)).json();
    expect(older.capped).toBe(false);
    expect(older.total).toBeGreaterThan(1000);
    expect(older.total).toBeLessThan(10_000);
    expect(older.entries[0].action).toMatch(/^Seeded action /);

    // A filter counted past the cap is not counted again (the trail only grows): the second read of the
    // same filter makes two statements fewer (the count and its capped subquery).
    const selects = vi.spyOn(t.database.db, 'select');
    try {
      const first = (await send('GET', '/api/audit?page=1&limit=50&kind=jobs')).json();
      const counted = selects.mock.calls.length;
      selects.mockClear();
      expect((await send('GET', '/api/audit?page=1&limit=50&kind=jobs')).json()).toEqual(first);
      expect(first).toMatchObject({ total: 10_000, capped: true });
      expect(selects.mock.calls.length).toBe(counted - 2);
    } finally {
      selects.mockRestore();
    }
    // One under the cap is counted every time, exactly, as entries are added.
    await t.database.db.execute(sql`
      insert into ${auditLog} (id, at, user_id, actor_name, ip, kind, action, route)
      select 'seeded-more-' || g, ${`${from}T12:00:00Z`}::timestamptz + make_interval(secs => g), ${adminId},
             'Seeded Admin', '203.0.113.9', 'jobs', 'Seeded action more ' || g, 'GET /api/seeded'
      from generate_series(1, 3) g`);
    const more = (await send('GET', `/api/audit?page=1&limit=50&from=${from}&to=${to}`)).json();
    expect(more.total).toBe(older.total + 3);
    expect((await send('GET', '/api/audit?page=3&limit=50')).json()).toMatchObject({ total: 10_000, capped: true });
  });
});
