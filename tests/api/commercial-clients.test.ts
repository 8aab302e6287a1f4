import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { clientAddresses, jobs, quoteRequests } from '../../src/server/db/schema';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithAdmin, type TestApp } from '../helpers/test-app';
import { dbKinds, withAdmin, type DbKind } from '../helpers/test-db';

// Issue 28.5, commercial clients (decision 037): a company name, a billing address apart from the
// service addresses, several service addresses chosen per request and job, a PO number on the quote and
// the invoice (screen, e-mail, PDF); migration 0033 makes every stored address a service address.

describe.each(dbKinds)('commercial clients (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    const mailing = await createMailingTestAppWithAdmin(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = mailing.admin;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('keeps a company, a billing address and two service addresses; a job at the second carries the PO to the invoice', async () => {
    const email = `ap${Date.now()}@acme-storage.test`;
    const contact = { name: 'Pat Ortiz', email, phone: '916-555-0142' };
    const first = await call('POST', '/api/quoterequest/create', {
      contactPerson: contact,
      address: { street: '100 Main St', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Front door closer',
      images: [],
    });
    expect(first.statusCode, first.body).toBe(201);
    const [firstRow] = await t.database.db
      .select()
      .from(quoteRequests)
      .where(eq(quoteRequests.id, first.json().quoteRequest._id));
    const clientId = firstRow!.clientId!;
    // A request's address is one of its client's service addresses.
    expect(firstRow!.serviceAddressId).toEqual(expect.any(String));

    const changed = await call('PUT', `/api/clients/${clientId}`, {
      name: 'Pat Ortiz',
      phone: '916-555-0142',
      notes: '',
      companyName: 'Acme Storage LLC',
      billingAddress: { street: 'PO Box 77', city: 'Sacramento', state: 'CA', zip: '95812' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      companyName: 'Acme Storage LLC',
      billingAddress: { street: 'PO Box 77', zip: '95812' },
    });
    const added = await call('POST', `/api/clients/${clientId}/addresses`, {
      label: 'Warehouse',
      street: '2200 Industrial Blvd',
      city: 'West Sacramento',
      state: 'CA',
      zip: '95691',
    });
    expect(added.statusCode, added.body).toBe(201);
    const addresses = added.json().addresses as { _id: string; label: string; street: string }[];
    expect(addresses.map((a) => [a.label, a.street])).toEqual([
      ['', '100 Main St'],
      ['Warehouse', '2200 Industrial Blvd'],
    ]);
    const again = await call('POST', `/api/clients/${clientId}/addresses`, {
      street: '2200 INDUSTRIAL BLVD',
      city: 'West Sacramento',
      state: 'CA',
      zip: '95691',
    });
    expect(again.statusCode).toBe(409);
    expect((await call('POST', `/api/clients/${clientId}/addresses`, { street: '' })).statusCode).toBe(400);
    // Found by the company's name.
    const found = (await call('GET', '/api/clients?search=acme%20storage')).json();
    expect(found.clients.map((c: { _id: string }) => c._id)).toEqual([clientId]);

    // The office enters a request for the client at their second address.
    const warehouse = addresses[1]!;
    const entry = {
      contactPerson: contact,
      // What the form sent is replaced by the address chosen, as stored.
      address: { street: 'typed over', city: 'x', state: 'CA', zip: '00000' },
      notes: 'Dock door spring',
      images: [],
      clientId,
    };
    const wrong = await call('POST', '/api/quoterequest/staff-entry', { ...entry, serviceAddressId: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect((await call('POST', '/api/quoterequest/staff-entry', entry)).statusCode).toBe(400);
    const entered = await call('POST', '/api/quoterequest/staff-entry', { ...entry, serviceAddressId: warehouse._id });
    expect(entered.statusCode, entered.body).toBe(201);
    const request = entered.json().quoteRequest;
    expect(request).toMatchObject({
      clientId,
      address: { street: '2200 Industrial Blvd', city: 'West Sacramento', zip: '95691' },
    });
    const [requestRow] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, request._id));
    expect(requestRow!.serviceAddressId).toBe(warehouse._id);

    // The quote carries the client's PO: on the staff view, the e-mail and the PDF.
    const sent = await call('POST', '/api/quotes/sendQuote', {
      quoteRequestId: request._id,
      clientName: 'Acme Storage LLC',
      projectName: 'Dock door',
      materials: [{ name: 'Door spring', unitPrice: 120, quantity: 1 }],
      labor: [{ description: 'Replace the spring', hourlyRate: 90, hours: 2 }],
      poNumber: 'PO-4471',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().poNumber).toBe('PO-4471');
    const quoteMail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    expect(quoteMail.parsed.text).toContain('PO-4471');
    expect(await pdfText(quoteMail.parsed.attachments[0]!.content)).toContain('PO No.: PO-4471');
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(quoteMail.parsed.text!)![0]);
    const page = await call(
      'GET',
      `/api/client-quotes/${sent.json().quoteId}?token=${encodeURIComponent(link.searchParams.get('token')!)}`,
      undefined,
      {},
    );
    expect(page.json().poNumber).toBe('PO-4471');
    const accepted = await call(
      'POST',
      `/api/client-quotes/${sent.json().quoteId}/answer`,
      { action: 'accept', token: link.searchParams.get('token'), signatureName: 'Pat Ortiz' },
      {},
    );
    expect(accepted.statusCode, accepted.body).toBe(200);

    // The job is at the second address; the office may move it to another of the client's, not to a stranger's.
    const [jobRow] = await t.database.db.select().from(jobs).where(eq(jobs.quoteRequestId, request._id));
    const jobId = jobRow!.id;
    const job = (await call('GET', `/api/jobs/${jobId}`)).json();
    expect(job).toMatchObject({
      serviceAddressId: warehouse._id,
      address: { street: '2200 Industrial Blvd' },
      quote: { poNumber: 'PO-4471' },
    });
    const moved = await call('PATCH', `/api/jobs/${jobId}/address`, { serviceAddressId: addresses[0]!._id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().address.street).toBe('100 Main St');
    const [stranger] = await t.database.db
      .select()
      .from(clientAddresses)
      .where(eq(clientAddresses.street, '1 Main St'))
      .limit(1);
    expect(
      (await call('PATCH', `/api/jobs/${jobId}/address`, { serviceAddressId: stranger?.id ?? 'nope' })).statusCode,
    ).toBe(400);
    expect(
      (await call('PATCH', `/api/jobs/${jobId}/address`, { serviceAddressId: warehouse._id })).json().address.street,
    ).toBe('2200 Industrial Blvd');

    // The invoice: the PO, bills to the billing address, the work at the warehouse; on its e-mail and PDF.
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' })).statusCode).toBe(200);
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' })).statusCode).toBe(200);
    const drafted = await call('POST', `/api/jobs/${jobId}/invoice`);
    expect(drafted.statusCode, drafted.body).toBe(201);
    expect(drafted.json()).toMatchObject({
      poNumber: 'PO-4471',
      billingAddress: 'PO Box 77, Sacramento, CA 95812',
      address: '2200 Industrial Blvd, West Sacramento, CA 95691',
    });
    const invoiceId = drafted.json()._id as string;
    const send = await call('POST', `/api/invoices/${invoiceId}/send`);
    expect(send.statusCode, send.body).toBe(200);
    const invoiceMail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.includes('Invoice INV-')), {
      what: 'invoice e-mail',
    });
    expect(invoiceMail.parsed.text).toContain('PO-4471');
    const invoicePdf = await pdfText(invoiceMail.parsed.attachments[0]!.content);
    expect(invoicePdf).toContain('PO No.: PO-4471');
    expect(invoicePdf).toContain('PO Box 77, Sacramento, CA 95812');
    expect(invoicePdf).toContain('Service address: 2200 Industrial Blvd, West Sacramento, CA 95691');
  });
});

/** A database of its own, empty: migrated by the test up to a point, then the rest. */
async function emptyDatabase(kind: DbKind) {
  if (kind === 'pglite') {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzlePglite({ client, schema });
    return {
      db,
      exec: (text: string) => client.exec(text),
      migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `hm_move_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withAdmin(adminUrl, (c) => c.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  const db = drizzlePg({ client: pool, schema });
  return {
    db,
    exec: (text: string) => pool.query(text),
    migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await withAdmin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

describe.each(dbKinds)('migration 0033 makes every stored address a service address (%s)', (kind) => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-migrations-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('links each request and job to its client’s address, adding the ones missing, nothing lost', async () => {
    const before = path.join(dir, 'before');
    fs.cpSync(migrationsFolder, before, { recursive: true });
    const journalFile = path.join(before, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
    journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < 33);
    fs.writeFileSync(journalFile, JSON.stringify(journal));

    const database = await emptyDatabase(kind);
    try {
      await database.migrate(before);
      await database.exec(`
        insert into clients (id, name, email) values ('c00000000000000000000001', 'Pat', 'pat@home.test'),
          ('c00000000000000000000002', 'Lee', 'lee@home.test');
        insert into client_addresses (id, client_id, street, city, state, zip)
        values ('d00000000000000000000001', 'c00000000000000000000001', '1 Elm St', 'Davis', 'CA', '95616');
        insert into quote_requests (id, quote_number, contact_name, contact_email, street, city, state, zip, notes, client_id)
        values ('a00000000000000000000001', 'Q000000001', 'Pat', 'pat@home.test', '1 ELM ST', 'Davis', 'CA', '95616', 'x', 'c00000000000000000000001'),
               ('a00000000000000000000002', 'Q000000002', 'Lee', 'lee@home.test', '9 Oak Ave', 'Woodland', 'CA', '95695', 'y', 'c00000000000000000000002'),
               ('a00000000000000000000003', 'Q000000003', 'Nobody', 'no@home.test', '5 Pine St', 'Davis', 'CA', '95616', 'z', null);
        insert into jobs (id, client_id, contact_name, contact_email, street, city, state, zip)
        values ('e00000000000000000000001', 'c00000000000000000000001', 'Pat', 'pat@home.test', '7 Birch Ct', 'Davis', 'CA', '95618');
      `);
      await database.migrate(migrationsFolder);
      const db = database.db;
      const addresses = await db.select().from(clientAddresses).orderBy(clientAddresses.street);
      expect(addresses.map((a) => [a.clientId.slice(-1), a.street, a.city, a.zip, a.label])).toEqual([
        ['1', '1 Elm St', 'Davis', '95616', ''],
        ['1', '7 Birch Ct', 'Davis', '95618', ''],
        ['2', '9 Oak Ave', 'Woodland', '95695', ''],
      ]);
      const byStreet = new Map(addresses.map((a) => [a.street, a.id]));
      const requests = await db.select().from(quoteRequests).orderBy(quoteRequests.id);
      expect(requests.map((r) => r.serviceAddressId)).toEqual([
        'd00000000000000000000001',
        byStreet.get('9 Oak Ave'),
        null,
      ]);
      // The request keeps its address as sent.
      expect(requests[0]!.street).toBe('1 ELM ST');
      const [job] = await db.select().from(jobs);
      expect(job!.serviceAddressId).toBe(byStreet.get('7 Birch Ct'));
      const [client] = await db.select().from(schema.clients).where(eq(schema.clients.id, 'c00000000000000000000001'));
      expect(client).toMatchObject({ companyName: '', billingStreet: '' });
    } finally {
      await database.close();
    }
  });
});
