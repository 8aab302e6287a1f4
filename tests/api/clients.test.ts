import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { clients, mailOutbox, quoteRequests } from '../../src/server/db/schema';
import { createQuoteRequest, quoteRequestBody, sampleQuoteLines, soldJobWithDeposit } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('clients (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
  const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  it('matches a returning client by e-mail, whatever its case, and keeps each property address', async () => {
    const id = unique();
    const first = await createQuoteRequest(t, { email: `Pat.${id}@Home.test`, name: 'Pat Lee' });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      payload: {
        ...quoteRequestBody({ email: `pat.${id}@home.TEST`, name: 'Patricia Lee' }),
        address: { street: '9 Oak Ave', city: 'Folsom', state: 'CA', zip: '95630' },
      },
    });
    expect(again.statusCode).toBe(201);
    const rows = await t.database.db
      .select()
      .from(quoteRequests)
      .where(sql`lower(${quoteRequests.contactEmail}) = ${`pat.${id}@home.test`}`);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.clientId)).size).toBe(1);
    const client = (await get(`/api/clients/${rows[0]!.clientId}`)).json();
    expect(client).toMatchObject({ name: 'Pat Lee', email: `Pat.${id}@Home.test` });
    expect(client.addresses.map((a: { city: string }) => a.city).sort()).toEqual(['Folsom', 'Sacramento']);
    expect(client.history.requests.map((r: { _id: string }) => r._id).sort()).toEqual(
      [first._id, again.json().quoteRequest._id].sort(),
    );
    expect(client.history.requests[0]).toMatchObject({ status: 'Pending', quoteState: null });
  });

  it('makes one client when a new client sends several requests at once', async () => {
    const email = `rush${unique()}@home.test`;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({ method: 'POST', url: '/api/quoterequest/create', payload: quoteRequestBody({ email }) }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    const found = await t.database.db.select().from(clients).where(eq(clients.email, email));
    expect(found).toHaveLength(1);
  });

  it('searches by name, e-mail, phone (with or without punctuation) or address, server-side and paged', async () => {
    const id = unique();
    const body = quoteRequestBody({ email: `searchme${id}@home.test`, name: `Quinn ${id}` });
    await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      payload: {
        ...body,
        contactPerson: { ...body.contactPerson, phone: '(916) 555-7731' },
        address: { street: `${id} Larkspur Lane`, city: 'Elk Grove', state: 'CA', zip: '95757' },
      },
    });
    for (const q of [
      `quinn ${id}`,
      `searchme${id}@`,
      '916-555-7731',
      '+1 (916) 555 7731',
      '5557731',
      '7731',
      `${id} larkspur`,
      'ELK GROVE',
      '95757',
    ]) {
      const res = (await get(`/api/clients?search=${encodeURIComponent(q)}`)).json();
      expect(
        res.clients.map((c: { name: string }) => c.name),
        q,
      ).toEqual([`Quinn ${id}`]);
      expect(res.total).toBe(1);
    }
    expect((await get(`/api/clients?search=nobody${id}`)).json()).toMatchObject({ clients: [], total: 0 });
    const page = (await get('/api/clients?page=1&limit=2')).json();
    expect(page.clients).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.totalPages).toBe(Math.ceil(page.total / 2));
    const last = (await get(`/api/clients?page=${page.totalPages}&limit=2`)).json();
    expect(last.clients.length).toBeGreaterThanOrEqual(1);
    expect((await get('/api/clients?limit=500')).statusCode).toBe(400);
  });

  it('lets the office change a client’s name, phone and notes, with clear errors', async () => {
    const request = await createQuoteRequest(t, { email: `edit${unique()}@home.test` });
    const [row] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, request._id));
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/clients/${row!.clientId}`, headers: admin, payload });
    const bad = await put({ name: ' ', phone: '', notes: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Name is required');
    const ok = await put({ name: 'Robin Park', phone: '916 555 0199', notes: 'Gate code 4411' });
    expect(ok.json()).toMatchObject({ name: 'Robin Park', notes: 'Gate code 4411' });
    expect((await get('/api/clients?search=robin%20park')).json().clients[0]._id).toBe(row!.clientId);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/clients/none',
          headers: admin,
          payload: { name: 'x', phone: '', notes: '' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('enters a phoned-in request: same checks, no photos needed, accepted at once, e-mail to the client only when asked', async () => {
    const quiet = `phone${unique()}@home.test`;
    const entry = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/quoterequest/staff-entry', headers: admin, payload });
    const invalid = await entry({ ...quoteRequestBody({ email: 'not-an-email' }) });
    expect(invalid.statusCode).toBe(400);
    const res = await entry({ ...quoteRequestBody({ email: quiet, name: 'Phone Caller' }) });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().quoteRequest;
    // The office took it on by answering the phone: Accepted at once, for the Quote Builder (issue 28.10).
    expect(created).toMatchObject({ quoteStatus: 'Accepted', clientId: expect.any(String) });
    const events = (await get(`/api/quoterequest/${created._id}/timeline`)).json().events;
    expect(events.slice(0, 2)).toMatchObject([
      { kind: 'request-created', actor: 'staff', mail: null, details: { enteredBy: 'office' } },
      { kind: 'request-accepted', actor: 'staff', mail: null, details: { enteredBy: 'office' } },
    ]);

    const told = `told${unique()}@home.test`;
    const toldRequest = await entry({ ...quoteRequestBody({ email: told }), emailClient: true });
    expect(toldRequest.statusCode).toBe(201);
    await waitFor(() => smtp.to(told)[0], { what: 'confirmation to the client' });
    // Its quote is the next e-mail they get: never "a quote is being prepared" (read off the real SMTP server).
    const toldId = toldRequest.json().quoteRequest._id;
    const quoted = await t.app.inject({
      method: 'POST',
      url: '/api/quotes/sendQuote',
      headers: admin,
      payload: { ...sampleQuoteLines, quoteRequestId: toldId },
    });
    expect(quoted.statusCode, quoted.body).toBe(201);
    await waitFor(() => smtp.to(told).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'the quote e-mail',
    });
    expect(smtp.to(told).map((m) => m.parsed.subject)).toEqual([
      expect.stringMatching(/Quote Number|quote request/i),
      expect.stringMatching(/^Your quote QT/),
    ]);
    expect(smtp.to(told).some((m) => /being prepared/.test(m.parsed.subject ?? ''))).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(quiet)).toHaveLength(0);
    // No rate limit for the office: more than the public form allows in a minute.
    const burst = await Promise.all(
      Array.from({ length: 12 }, () => entry(quoteRequestBody({ email: `burst${unique()}@home.test` }))),
    );
    expect(burst.every((r) => r.statusCode === 201)).toBe(true);
  });
  it('keeps a phoned-in client without an e-mail: matched by phone, and nothing is e-mailed to them (issue 28.4)', async () => {
    const digits = String(Math.floor(1000 + Math.random() * 9000));
    const entry = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/quoterequest/staff-entry', headers: admin, payload });
    const phoned = (phone: string, email = '') => {
      const body = quoteRequestBody({ name: 'Walt Nomail' });
      return { ...body, contactPerson: { ...body.contactPerson, email, phone }, emailClient: true };
    };
    const neither = await entry(phoned(''));
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toContain('Give an e-mail or a phone number');
    const outbox = async () => Number((await t.database.db.select({ n: sql`count(*)` }).from(mailOutbox))[0]!.n);
    const before = await outbox();
    // Three at once, the number written three ways: one client.
    const made = await Promise.all(
      [`(530) 555-${digits}`, `530-555-${digits}`, `+1 530 555 ${digits}`].map((phone) => entry(phoned(phone))),
    );
    expect(made.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const requests = made.map((r) => r.json().quoteRequest);
    expect(new Set(requests.map((r) => r.clientId)).size).toBe(1);
    expect(requests[0].contactPerson.email).toBe('');
    const client = (await get(`/api/clients/${requests[0].clientId}`)).json();
    expect(client).toMatchObject({ email: '', name: 'Walt Nomail' });
    expect(client.history.requests).toHaveLength(3);
    expect((await get(`/api/clients?search=555${digits}`)).json().total).toBe(1);

    // Accepting and sending the quote e-mail nobody, and say so nowhere wrongly: no mail, no reminders.
    const id = requests[0]._id;
    const call = (method: 'PUT' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    // Entered by the office, it is accepted already.
    expect((await call('PUT', `/api/quoterequest/markAccepted/${id}`)).json().code).toBe('REQUEST_NOT_PENDING');
    const sent = await call('POST', '/api/quotes/sendQuote', { ...sampleQuoteLines, quoteRequestId: id });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    expect(await outbox()).toBe(before);
    const events = (await get(`/api/quoterequest/${id}/timeline`)).json().events;
    expect(events.find((e: { kind: string }) => e.kind === 'quote-sent')).toMatchObject({ mail: null });
    expect(events.filter((e: { kind: string }) => e.kind === 'reminder')).toEqual([]);

    // A phone-in without an e-mail from a client on file with one takes their e-mail.
    const email = `walt${unique()}@home.test`;
    const known = await entry({ ...phoned(`916-555-${digits}`, email), emailClient: false });
    const again = await entry(phoned(`(916) 555-${digits}`));
    expect(again.json().quoteRequest).toMatchObject({
      clientId: known.json().quoteRequest.clientId,
      contactPerson: { email },
    });
  });

  it("shows a client's invoices and what they owe, and their jobs and invoices know them (issue 28.7)", async () => {
    const email = `owes${unique()}@home.test`;
    const { jobId } = await soldJobWithDeposit(t, smtp, admin, { email, name: 'Owen Owes' });
    const job = (await get(`/api/jobs/${jobId}`)).json();
    expect(job.clientId).toEqual(expect.any(String));
    const detail = (await get(`/api/clients/${job.clientId}`)).json();
    expect(detail.history.invoices).toHaveLength(1);
    const [deposit] = detail.history.invoices;
    expect(deposit).toMatchObject({ kind: 'deposit', status: 'Sent', clientId: job.clientId });
    expect(detail.history.balance).toBe(deposit.balance);
    expect(detail.history.balance).toBeGreaterThan(0);
    expect((await get(`/api/invoices/${deposit._id}`)).json().clientId).toBe(job.clientId);
    const listed = (await get(`/api/invoices?search=${encodeURIComponent(email)}`)).json().invoices;
    expect(listed[0].clientId).toBe(job.clientId);

    const pay = await t.app.inject({
      method: 'POST',
      url: `/api/invoices/${deposit._id}/payments`,
      headers: admin,
      payload: { method: 'cash', amount: 10, paidOn: '2026-11-20', reference: '', note: '' },
    });
    expect(pay.statusCode, pay.body).toBeLessThan(300);
    const after = (await get(`/api/clients/${job.clientId}`)).json().history;
    expect(after.balance).toBeCloseTo(deposit.balance - 10, 2);
    expect(after.invoices[0].status).toBe('Partially Paid');
  });
});

describe('migration 0008 attaches the requests already stored to their clients', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-migrations-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes one client per e-mail (any case), with every address, the quote state and the history', async () => {
    // The migrations as they stood before 0008.
    const before = path.join(dir, 'before');
    fs.cpSync(migrationsFolder, before, { recursive: true });
    const journalFile = path.join(before, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
    journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < 8);
    fs.writeFileSync(journalFile, JSON.stringify(journal));

    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzle({ client, schema });
    try {
      await migrate(db, { migrationsFolder: before });
      await client.exec(`
        insert into quote_requests (id, quote_number, contact_name, contact_email, contact_phone, street, city, state, zip, notes, status, created_at)
        values ('a00000000000000000000001', 'Q000000001', 'Old Name', 'Sam@Home.test', '', '1 Elm St', 'Davis', 'CA', '95616', 'x', 'Quote Sent', now() - interval '2 days'),
               ('a00000000000000000000002', 'Q000000002', 'Sam Smith', 'sam@home.test', '916 555 0100', '2 Ash St', 'Davis', 'CA', '95616', 'y', 'Pending', now() - interval '1 day'),
               ('a00000000000000000000003', 'Q000000003', 'Ann', 'ann@home.test', '', '3 Fir St', 'Davis', 'CA', '95616', 'z', 'Pending', now());
        insert into quotes (id, quote_id, quote_request_id, client_name, project_name, status, subtotal_cents, tax_cents, total_cents, client_message, answered_at)
        values ('b00000000000000000000001', 'QT00000001', 'a00000000000000000000001', 'Sam', 'Deck', 'Requested More Info', 1000, 80, 1080, 'When?', now());
      `);
      await migrate(db, { migrationsFolder });
      const found = await db.select().from(clients).orderBy(clients.email);
      expect(found.map((c) => [c.email.toLowerCase(), c.name])).toEqual([
        ['ann@home.test', 'Ann'],
        ['sam@home.test', 'Sam Smith'],
      ]);
      const requests = await db.select().from(quoteRequests).orderBy(quoteRequests.id);
      expect(requests.map((r) => r.clientId)).toEqual([found[1]!.id, found[1]!.id, found[0]!.id]);
      expect(requests[0]!.quoteStatus).toBe('Requested More Info');
      const addresses = await db.query.clientAddresses.findMany({
        where: eq(schema.clientAddresses.clientId, found[1]!.id),
      });
      expect(addresses.map((a) => a.street).sort()).toEqual(['1 Elm St', '2 Ash St']);
      expect(found[1]!.searchText).toContain('9165550100');
      const [count] = await db.select().from(schema.clientCounts);
      expect(count!.n).toBe(2);
      const [quote] = await db.select().from(schema.quotes);
      expect(quote!.validUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Migration 0024 renamed the column; the number stored before is kept.
      expect(quote!.quoteNumber).toBe('QT00000001');
      const events = await db.select().from(schema.quoteRequestEvents).orderBy(schema.quoteRequestEvents.createdAt);
      expect(events.filter((e) => e.quoteRequestId === 'a00000000000000000000001').map((e) => e.kind)).toEqual([
        'request-created',
        'quote-sent',
        'question',
      ]);
    } finally {
      await client.close();
    }
  });
});
