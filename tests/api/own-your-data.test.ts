import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { generate } from 'otplib';
import { getTableName, is } from 'drizzle-orm';
import { PgDialect, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../src/server/db/schema';
import { auditLog } from '../../src/server/db/schema';
import { BYTES_PIECE, longBytes, REMOVED_LINK, withoutLinks } from '../../src/server/exports/json';
import { quoteRequestImages } from '../../src/server/db/schema';
import { createQuoteRequest, insertJob, sampleQuoteLines } from '../helpers/factories';
import { jobberExport } from '../helpers/jobber-export';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { createTestDatabase, dbKinds } from '../helpers/test-db';
import { dataUrl, makeJpeg } from '../helpers/images';
import { todayIn } from '#shared/dates';
import { backupIfDue, restoreBackup } from '../../src/server/backups/service';

type Method = 'GET' | 'PUT' | 'DELETE' | 'POST' | 'PATCH';

describe.each(dbKinds)('own your data: exports, the clients import and the audit trail (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const signedIn = await createUserAndSignIn(t, 'admin');
    admin = bearer(signedIn.token);
  });
  afterAll(() => t.close());

  const send = (method: Method, url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const upload = (url: string, body: string | Buffer, headers = admin) =>
    t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'text/csv' }, payload: body });
  const csv = (body: string) => parse(body, { bom: true, columns: true }) as Record<string, string>[];

  describe.runIf(kind === 'pglite')('automatic backups', () => {
    it('takes the first at once, then at 1 AM business time, keeps the number the settings say, and lists them', async () => {
      const options = (now: string, keep = 2) => ({
        everyHours: 24,
        keep,
        timeZone: 'America/Los_Angeles',
        now: new Date(now),
      });
      // 2 AM in Sacramento: none yet, so one at once.
      expect(await backupIfDue(t.database, t.dataDir, options('2026-11-20T10:00:00Z'))).toMatch(
        /backup-2026-11-20T10-00-00Z\.tar\.gz$/,
      );
      // 12:59 AM the next night: not yet; 1 AM: the night's backup; and the night after.
      expect(await backupIfDue(t.database, t.dataDir, options('2026-11-21T08:59:00Z'))).toBeNull();
      expect(await backupIfDue(t.database, t.dataDir, options('2026-11-21T09:00:00Z'))).not.toBeNull();
      expect(await backupIfDue(t.database, t.dataDir, options('2026-11-22T09:05:00Z'))).not.toBeNull();
      const listed = (await send('GET', '/api/backups')).json();
      expect(listed).toMatchObject({ database: 'pglite', keep: 14 });
      expect(listed.backups.map((b: { createdAt: string }) => b.createdAt)).toEqual([
        '2026-11-22T09:05:00.000Z',
        '2026-11-21T09:00:00.000Z',
      ]);
      expect(listed.backups[0].size).toBeGreaterThan(100_000);
      // Three backups of the whole database (copied, then packed): 6 s on an idle 2-core host, over 30
      // under load 20.
    }, 90_000);
  });

  describe('exports', () => {
    it('gives each part of the business as CSV, spreadsheet-safe, and everything as one JSON', async () => {
      const request = await createQuoteRequest(t, {
        name: '=HYPERLINK("http://evil.test","x")',
        email: 'export.client@home.test',
        images: [dataUrl(await makeJpeg())],
      });
      await send('PUT', `/api/quoterequest/markAccepted/${request._id}`);
      expect(
        (await send('POST', '/api/quotes/sendQuote', { ...sampleQuoteLines, quoteRequestId: request._id })).statusCode,
      ).toBe(201);
      await insertJob(t, { name: 'Export Job Client' });

      const clients = await send('GET', '/api/export/clients.csv');
      expect(clients.statusCode).toBe(200);
      expect(clients.headers['content-type']).toContain('text/csv');
      expect(clients.headers['content-disposition']).toBe('attachment; filename="clients.csv"');
      const clientRows = csv(clients.body);
      const exported = clientRows.find((r) => r.Email === 'export.client@home.test')!;
      expect(exported.Name).toBe(`'=HYPERLINK("http://evil.test","x")`);
      expect(exported.City).toBe('Sacramento');

      const requests = csv((await send('GET', '/api/export/requests.csv')).body);
      expect(requests.find((r) => r.Number === request.quoteNumber)).toMatchObject({
        Email: 'export.client@home.test',
        Photos: '1',
      });
      const quoteLines = csv((await send('GET', '/api/export/quotes.csv')).body).filter(
        (r) => r.Request === request.quoteNumber,
      );
      expect(quoteLines.map((l) => [l.Kind, l.Description, l['Line total']])).toEqual([
        ['Material', 'Gate hinge kit', '69.98'],
        ['Material', 'Faucet cartridge', '18.50'],
        ['Labor', '', '227.50'],
      ]);
      expect(quoteLines[0]).toMatchObject({ Subtotal: '315.98', Total: '341.26' });
      expect(csv((await send('GET', '/api/export/jobs.csv')).body).some((r) => r.Client === 'Export Job Client')).toBe(
        true,
      );
      expect(csv((await send('GET', '/api/export/visits.csv')).body)).toEqual([]);
      expect((await send('GET', '/api/export/secrets.csv')).statusCode).toBe(400);

      // Someone signs in with two steps: their sealed secret and recovery codes are credentials too.
      const enrolment = (await send('POST', '/api/account/two-step/start')).json<{ secret: string }>();
      const turnedOn = await send('POST', '/api/account/two-step/confirm', {
        code: await generate({ secret: enrolment.secret }),
      });
      expect(turnedOn.statusCode, turnedOn.body).toBe(200);

      const everything = await send('GET', '/api/export/everything.json');
      expect(everything.statusCode).toBe(200);
      const doc = everything.json();
      expect(doc).toMatchObject({ format: 'handyman-export', version: 1 });
      expect(doc.tables.quote_requests.find((r: { id: string }) => r.id === request._id)).toBeTruthy();
      const photo = doc.tables.quote_request_images.find(
        (r: { quoteRequestId: string }) => r.quoteRequestId === request._id,
      );
      expect(Buffer.from(photo.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      // No credentials leave: no password hashes, sessions or feed tokens.
      expect(doc.tables.users[0]).not.toHaveProperty('passwordHash');
      expect(doc.tables).not.toHaveProperty('sessions');
      expect(doc.tables).not.toHaveProperty('calendar_feeds');
      expect(doc.tables).not.toHaveProperty('two_step_secrets');
      expect(doc.tables).not.toHaveProperty('two_step_recovery_codes');
      expect(everything.body).not.toContain('$argon2');
      // No live link leaves either (issue 25.3): the quote's e-mail keeps its words, not its signed link.
      const quoteMail = doc.tables.mail_outbox.find(
        (m: { toAddress: string; text: string }) =>
          m.toAddress === 'export.client@home.test' && m.text.includes('/quote/'),
      );
      expect(quoteMail.text).toContain('[link removed]');
      expect(everything.body).not.toMatch(/(token|sig)=eyJ/);
      expect(everything.body).not.toMatch(/eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/);
      expect(everything.body).not.toMatch(/\/api\/feeds\/[\w-]{16,64}\.ics/);
    });

    it('downloads asked for as a browser asks (brotli, or gzip) unpack to the same file', async () => {
      await createQuoteRequest(t, { name: 'Packed Download', email: 'packed.download@home.test' });
      const unpack = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };
      for (const url of [
        '/api/export/clients.csv',
        '/api/export/requests.csv',
        '/api/invoices.csv',
        '/api/payments.csv',
      ]) {
        const plain = await t.app.inject({ method: 'GET', url, headers: { ...admin, 'accept-encoding': 'identity' } });
        expect(plain.statusCode, url).toBe(200);
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        for (const encoding of ['br', 'gzip'] as const) {
          const packed = await t.app.inject({ method: 'GET', url, headers: { ...admin, 'accept-encoding': encoding } });
          expect(packed.headers['content-encoding'], url).toBe(encoding);
          expect(unpack[encoding](packed.rawPayload).toString('utf8'), `${url} ${encoding}`).toBe(plain.body);
        }
      }
      const everything = await t.app.inject({
        method: 'GET',
        url: '/api/export/everything.json',
        headers: { ...admin, 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      // Brotli on Node 20; zstd where the runtime has it (Node 24), which the plugin prefers then.
      const encoding = everything.headers['content-encoding'];
      const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
      expect(zstd ? ['zstd', 'br'] : ['br']).toContain(encoding);
      const text = (encoding === 'zstd' ? zstd! : zlib.brotliDecompressSync)(everything.rawPayload).toString('utf8');
      const doc = JSON.parse(text);
      expect(
        doc.tables.quote_requests.some(
          (r: { contactEmail?: string }) => r.contactEmail === 'packed.download@home.test',
        ),
      ).toBe(true);
    });

    it('everything.json reads long bytes (a photo, a PDF) in pieces: every byte of every size, in order', async () => {
      const request = await createQuoteRequest(t, { name: 'Bytes Pieces', email: 'bytes.pieces@home.test' });
      // Sizes around a piece: with the row, one piece, just over one, several.
      const sizes = [
        0,
        1,
        BYTES_PIECE,
        BYTES_PIECE + 1,
        16 * BYTES_PIECE,
        16 * BYTES_PIECE + 7,
        40 * BYTES_PIECE + 2,
        1000,
      ];
      const images = sizes.map((size, i) => ({
        id: `bytesbatch${String(i).padStart(2, '0')}`,
        data: randomBytes(size),
      }));
      for (const [i, image] of images.entries()) {
        await t.database.db.execute(
          sql`insert into quote_request_images (id, quote_request_id, position, mime_type, width, height, data, thumbnail)
              values (${image.id}, ${request._id}, ${i}, 'image/jpeg', 10, 10, ${image.data}, ${randomBytes(100)})`,
        );
      }
      // PostgreSQL's rows and pieces come through COPY, each table in one statement (decision 028,
      // session 49); PGlite's through queries.
      const copies: string[] = [];
      const copyOut = t.app.database.copyOut;
      if (copyOut)
        t.app.database.copyOut = (query) => {
          copies.push(new PgDialect().sqlToQuery(query).sql);
          return copyOut(query);
        };
      const res = await send('GET', '/api/export/everything.json').finally(() => (t.app.database.copyOut = copyOut));
      expect(res.statusCode).toBe(200);
      expect(Boolean(copies.length)).toBe(kind === 'postgres');
      if (kind === 'postgres') {
        const tablesRead = copies.filter((text) => !text.includes('generate_series'));
        expect(tablesRead.length).toBe(Object.keys(res.json().tables).length);
        // Every size over a piece is read by itself.
        expect(copies.length - tablesRead.length).toBe(sizes.filter((size) => size > BYTES_PIECE).length);
      }
      const rows = (res.json() as { tables: Record<string, { id: string; data: string }[]> }).tables
        .quote_request_images!;
      const exported = rows.filter((row) => row.id.startsWith('bytesbatch'));
      expect(exported.map((row) => row.id)).toEqual(images.map((image) => image.id));
      for (const [i, row] of exported.entries())
        expect(row.data === images[i]!.data.toString('base64'), row.id).toBe(true);
    }, 60_000);

    it('everything.json reads long bytes of tables keyed otherwise than by id (a job report, a stored PDF)', async () => {
      // A completed job's report with its photos is megabytes; a quote's PDF with a logo often over a piece.
      const jobId = await insertJob(t, { name: 'Long Report' });
      const report = randomBytes(5 * BYTES_PIECE + 3);
      const signature = randomBytes(2 * BYTES_PIECE);
      await t.database.db.execute(
        sql`insert into job_records (job_id, signature, report) values (${jobId}, ${signature}, ${report})`,
      );
      const pdf = randomBytes(BYTES_PIECE + 1);
      await t.database.db.execute(
        sql`insert into documents (key, version, size, bytes) values ('quote:longbytes', 'v1', ${pdf.length}, ${pdf})`,
      );
      const res = await send('GET', '/api/export/everything.json');
      expect(res.statusCode).toBe(200);
      const tables = (res.json() as { tables: Record<string, Record<string, unknown>[]> }).tables;
      const record = tables.job_records!.find((row) => row.jobId === jobId)!;
      expect(record.report === report.toString('base64')).toBe(true);
      expect(record.signature === signature.toString('base64')).toBe(true);
      const document = tables.documents!.find((row) => row.key === 'quote:longbytes')!;
      expect(document.bytes === pdf.toString('base64')).toBe(true);
    });

    it('long bytes changed or gone since their row was read are written as they now are', async () => {
      const request = await createQuoteRequest(t, { name: 'Bytes Changed', email: 'bytes.changed@home.test' });
      const data = randomBytes(3 * BYTES_PIECE + 5);
      await t.database.db.execute(
        sql`insert into quote_request_images (id, quote_request_id, position, mime_type, width, height, data, thumbnail)
            values ('byteschanged01', ${request._id}, 0, 'image/jpeg', 10, 10, ${data}, ${randomBytes(10)})`,
      );
      const read = async (id: string, length: number) => {
        let text = '';
        for await (const piece of longBytes(t.database, quoteRequestImages, id, {
          column: quoteRequestImages.data,
          length,
        }))
          text += piece;
        return text;
      };
      const whole = `"${data.toString('base64')}"`;
      // As read with the row; then as if the bytes had been longer, or shorter, when the row was read.
      expect(await read('byteschanged01', data.length)).toBe(whole);
      expect(await read('byteschanged01', 9 * BYTES_PIECE)).toBe(whole);
      expect(await read('byteschanged01', BYTES_PIECE + 1)).toBe(whole);
      await t.database.db.execute(sql`update quote_request_images set data = ''::bytea where id = 'byteschanged01'`);
      expect(await read('byteschanged01', data.length)).toBe('""');
      expect(await read('no such image', data.length)).toBe('null');
    });

    it('everything.json holds every row of every table as the database holds it, but secrets and live links', async () => {
      // Values the database writes as JSON must read back as the app reads them: escapes, every script,
      // times to the millisecond (microseconds cut), fixed-point figures, arrays, documents and bytes.
      const tricky = 'Line one\nTab\there "quoted" \\ back \u0001 ü 日本 🛠 /p/ab';
      const request = await createQuoteRequest(t, { name: 'Json Exact', email: 'json.exact@home.test' });
      await t.database.db.execute(
        sql`update quote_requests set notes = ${tricky}, created_at = '2026-11-30 17:04:05.123999+00' where id = ${request._id}`,
      );
      await t.database.db.execute(
        sql`insert into audit_log (id, actor_name, ip, kind, action, details) values ('jsonexact0000000000000001', 'Test', '127.0.0.1', 'data', 'Json exact', ${JSON.stringify(
          {
            note: tricky,
            link: 'https://x.test/quote/QT1?token=eyJhbGciOi.eyJzdWIiOiJ4.c2lnbmF0dXJl',
            n: [1, 2.5],
          },
        )}::jsonb)`,
      );
      // An e-mail's invitation (.ics) carries a calendar feed's secret address and a signed link: its
      // text is cleared of both, a PDF's bytes are left as they are.
      const invitation = `BEGIN:VCALENDAR\nURL:https://x.test/api/feeds/abcdefghijklmnopqrstuvwx.ics\nDESCRIPTION:https://x.test/quote/QT1?token=eyJhbGciOi.eyJzdWIiOiJ4.c2lnbmF0dXJl ü\nEND:VCALENDAR\n`;
      const attachments = [
        {
          filename: 'visit.ics',
          contentType: 'text/calendar',
          contentBase64: Buffer.from(invitation).toString('base64'),
        },
        {
          filename: 'quote.pdf',
          contentType: 'application/pdf',
          contentBase64: Buffer.from('%PDF eyJhbGciOi.eyJzdWIiOiJ4.c2lnbmF0dXJl').toString('base64'),
        },
      ];
      await t.database.db.execute(
        sql`insert into mail_outbox (id, to_address, subject, text, html, attachments)
            values ('jsonexactmail', 'json.exact@home.test', 'Your visit', 'See you', '<p>See you</p>', ${JSON.stringify(attachments)}::jsonb)`,
      );
      // A quote sent by an earlier test is drawn as a PDF after its commit: the export and the rows it is
      // compared with below must both see it (a slow host drew it between the two).
      await t.app.documents.settled();
      const res = await send('GET', '/api/export/everything.json');
      expect(res.statusCode).toBe(200);
      const doc = res.json() as { tables: Record<string, Record<string, unknown>[]> };

      // The same rows read through the app's own mapping, turned into JSON values the plain way.
      const asJson = (value: unknown): unknown => {
        if (value === null || value === undefined) return null;
        if (typeof value === 'string') return withoutLinks(value);
        if (value instanceof Date) return value.toISOString();
        if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
        if (Array.isArray(value)) return value.map(asJson);
        if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asJson(v)]));
        return value;
      };
      const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
      const exportedNames = Object.keys(doc.tables);
      expect(exportedNames.length).toBeGreaterThan(40);
      for (const table of tables) {
        const name = getTableName(table);
        if (!exportedNames.includes(name)) {
          expect([
            'sessions',
            'calendar_feeds',
            'payment_accounts',
            'two_step_secrets',
            'two_step_recovery_codes',
            'api_keys',
            'text_accounts',
            'text_links',
          ]).toContain(name);
          continue;
        }
        const rows = (await t.database.db.select().from(table)) as Record<string, unknown>[];
        const expected = rows.map((row) => {
          const { passwordHash: _p, tokenVersion: _v, ...kept } = row;
          const out = asJson(name === 'users' ? kept : row) as Record<string, unknown>;
          if (name === 'webhook_endpoints') delete out.secretSealed;
          if (name === 'mail_outbox' && Array.isArray(row.attachments))
            out.attachments = (row.attachments as { contentType: string; contentBase64: string }[]).map((a) =>
              a.contentType.startsWith('text/')
                ? {
                    ...a,
                    contentBase64: Buffer.from(
                      withoutLinks(Buffer.from(a.contentBase64, 'base64').toString('utf8')),
                    ).toString('base64'),
                  }
                : a,
            );
          return out;
        });
        const byKey = (r: Record<string, unknown>) => JSON.stringify(r.id ?? r);
        const sort = (list: Record<string, unknown>[]) => [...list].sort((a, b) => byKey(a).localeCompare(byKey(b)));
        expect(sort(doc.tables[name]!), name).toEqual(sort(expected));
      }
      const exact = doc.tables.quote_requests!.find((r) => r.id === request._id)!;
      expect(exact).toMatchObject({ notes: tricky, createdAt: '2026-11-30T17:04:05.123Z' });
      const mail = doc.tables.mail_outbox!.find((r) => r.id === 'jsonexactmail')!;
      const [ics, pdf] = mail.attachments as { contentBase64: string }[];
      expect(Buffer.from(ics!.contentBase64, 'base64').toString('utf8')).toBe(
        invitation
          .replace('/api/feeds/abcdefghijklmnopqrstuvwx.ics', `/api/feeds/${REMOVED_LINK}`)
          .replace('eyJhbGciOi.eyJzdWIiOiJ4.c2lnbmF0dXJl', REMOVED_LINK),
      );
      expect(pdf!.contentBase64).toBe(attachments[1]!.contentBase64);
      const entry = doc.tables.audit_log!.find((r) => r.action === 'Json exact')!;
      expect(entry.details).toEqual({
        note: tricky,
        link: `https://x.test/quote/QT1?token=${REMOVED_LINK}`,
        n: [1, 2.5],
      });
    });
  });

  describe('clients import', () => {
    it('previews and imports a full Jobber export: every phone, the billing address, a formula row refused alone, spreadsheet row numbers', async () => {
      const tag = String(100 + Math.floor(Math.random() * 900));
      const file = jobberExport(tag);
      const preview = await upload('/api/clients/import/preview', file);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({
        source: 'Jobber',
        rows: 7,
        clients: 4,
        newClients: 4,
        existingClients: 0,
        refused: [
          { row: 5, reason: expect.stringContaining('Column "Display Name" starts with "="') },
          { row: 6, reason: expect.stringContaining('E-mail and phone are missing') },
        ],
      });
      const columns = preview.json().columns as { header: string; field: string | null }[];
      for (const header of ['Main Phone #s', 'Mobile Phone #s', 'Work Phone #s', 'Home Phone #s', 'Fax Phone #s'])
        expect(columns).toContainEqual({ header, field: 'phone' });
      expect(columns).toContainEqual({ header: 'Billing Street 1', field: 'billingStreet' });
      expect(columns).toContainEqual({ header: 'Service Street 1', field: 'street' });
      expect(preview.json().sample[2]).toMatchObject({
        name: `Cy ${tag} Park`,
        email: '',
        phone: `+1 916 555 ${tag}5`,
      });

      const done = await upload('/api/clients/import', file);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({ created: 4, merged: 0, addressesAdded: 5 });
      const find = async (search: string) => {
        const found = (await send('GET', `/api/clients?search=${encodeURIComponent(search)}`)).json().clients;
        expect(found, search).toHaveLength(1);
        return found[0];
      };
      const ann = await find(`ann.${tag}@home.test`);
      expect(ann).toMatchObject({
        name: `Ann ${tag} Lee`,
        phone: `(916) 555-${tag}1`,
        notes: `Other phones: Work 916-555-${tag}2`,
        billingAddress: { street: 'PO Box 44', city: 'Sacramento', state: 'CA', zip: '95812' },
      });
      expect(ann.addresses.map((a: { street: string }) => a.street).sort()).toEqual(['1 Elm St, Unit B', '9 Pine Rd']);
      expect(await find(`office.${tag}@ngbuilders.test`)).toMatchObject({
        phone: `916-555-${tag}3`,
        notes: `Other phones: Work 916-555-${tag}4, Fax 916-555-${tag}9`,
        billingAddress: { street: '20 K St', zip: '95814' },
      });
      // No e-mail: kept, and found by phone.
      expect(await find(`555${tag}5`)).toMatchObject({ name: `Cy ${tag} Park`, email: '' });
      // Only a billing address: it is their property too.
      const flo = await find(`flo.${tag}@home.test`);
      expect(flo).toMatchObject({ phone: `916-555-${tag}6`, billingAddress: { street: '7 Oak Ave' } });
      expect(flo.addresses).toMatchObject([{ street: '7 Oak Ave', city: 'Roseville' }]);
      // Found by the billing address too.
      expect((await find('PO Box 44'))._id).toBe(ann._id);

      // The same file again merges (the client without an e-mail by phone): nothing new.
      expect((await upload('/api/clients/import', file)).json()).toMatchObject({
        created: 0,
        merged: 4,
        addressesAdded: 0,
      });
      expect((await send('GET', `/api/clients?search=555${tag}5`)).json().total).toBe(1);
    });

    it('reads a Housecall Pro export and the template (an export of ours imports back)', async () => {
      const hcp = [
        'First Name,Last Name,Email,Mobile Number,Company,Address,City,State,Zip,Notes',
        'Cy,Park,cy.park@home.test,+1 916 555 0104,,3 Ash Ct,Folsom,CA,95630,Gate code 1234',
      ].join('\n');
      const preview = (await upload('/api/clients/import/preview', hcp)).json();
      expect(preview).toMatchObject({ source: 'Housecall Pro', clients: 1, refused: [] });
      expect((await upload('/api/clients/import', hcp)).json().created).toBe(1);
      const exported = (await send('GET', '/api/export/clients.csv')).body;
      const again = (await upload('/api/clients/import/preview', exported)).json();
      expect(again).toMatchObject({ source: 'Template', newClients: 0, refused: [] });
      expect(again.existingClients).toBe(again.clients);
    });

    it('refuses bad files with a clear message and changes nothing', async () => {
      const count = async () => (await send('GET', '/api/clients')).json().total as number;
      const before = await count();
      const cases: [string | Buffer, RegExp][] = [
        ['', /empty/],
        [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), /Excel workbook/],
        [Buffer.from('Name,Email\nJos\xe9,jose@home.test\n', 'latin1'), /not UTF-8/],
        [Buffer.concat([Buffer.from('Name,Email\n'), Buffer.from([0, 1, 2, 3, 0, 0])]), /binary/],
        ['Name,Email\n', /no rows/],
        ['Name,Notes\nA,1\n', /e-mail addresses or phone numbers/],
        ['Name,Email\n"Unclosed,a@b.test\n', /not valid CSV/],
      ];
      for (const [body, message] of cases) {
        for (const url of ['/api/clients/import/preview', '/api/clients/import']) {
          const res = await upload(url, body);
          expect(res.statusCode, `${url} ${String(body).slice(0, 30)}`).toBe(400);
          expect(res.json()).toMatchObject({ code: 'IMPORT_FILE_INVALID', message: expect.stringMatching(message) });
        }
      }
      // A formula refuses its row alone (issue 28.6), named by the spreadsheet's row number.
      const formulas: [string, RegExp][] = [
        ['"=cmd|\' /C calc\'!A0",evil@home.test', /Column "Name" starts with "="/],
        ['@SUM(1+1),at@home.test', /formula/],
        ['-2+3,minus@home.test', /formula/],
        // Quoted, a leading space, tab or carriage return is kept, and a spreadsheet still runs the rest (issue 25.8).
        ['" =1+1",space@home.test', /starts with "="/],
        ['"\t=1+1",tab@home.test', /formula/],
        ['"\r=1+1",cr@home.test', /formula/],
        ['Safe,"\r\n @evil.test"', /formula/],
      ];
      for (const [line, reason] of formulas) {
        const body = `Name,Email\nSafe,safe@home.test\n\n${line}\n`;
        const res = await upload('/api/clients/import/preview', body);
        expect(res.statusCode, line).toBe(200);
        expect(res.json(), line).toMatchObject({
          clients: 1,
          refused: [{ row: 4, reason: expect.stringMatching(reason) }],
        });
      }
      const big = await upload('/api/clients/import', Buffer.alloc(50 * 1024 * 1024, 'a'));
      expect(big.statusCode).toBe(413);
      expect(await count()).toBe(before);
      // A phone written +1… is a phone, not a formula.
      expect(
        (await upload('/api/clients/import/preview', 'Name,Email,Phone\nDi,di@home.test,+1 916 555 0105\n')).statusCode,
      ).toBe(200);
    });
  });

  describe('big imports and restores (issue 25.8)', () => {
    it('imports 5,000 clients in chunks: the site answers meanwhile', async () => {
      const file = [
        'Name,Email,Phone,Street,City,State,Zip',
        ...Array.from(
          { length: 5000 },
          (_, i) =>
            `Chunk Client ${i},chunk${i}@home.test,916-555-${String(i % 10_000).padStart(4, '0')},${i} Chunk St,Davis,CA,95616`,
        ),
      ].join('\n');
      let done = false;
      const waits: number[] = [];
      const probe = (async () => {
        while (!done) {
          const started = performance.now();
          const health = await t.app.inject({ method: 'GET', url: '/api/health' });
          waits.push(performance.now() - started);
          expect(health.statusCode).toBe(200);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const started = performance.now();
      const imported = await upload('/api/clients/import', file);
      const took = performance.now() - started;
      done = true;
      await probe;
      expect(imported.json()).toMatchObject({ created: 5000, merged: 0, addressesAdded: 5000 });
      // One transaction kept /api/health waiting for the whole import on the embedded database.
      expect(waits.length).toBeGreaterThan(5);
      expect(Math.max(...waits), `${waits.length} answers, the import took ${Math.round(took)} ms`).toBeLessThan(
        took / 4,
      );
      expect((await send('GET', '/api/clients?search=chunk4999@home.test')).json().total).toBe(1);
    }, 120_000);

    it('writes the clients CSV as it reads it: 5,000 imported clients, each once, in the order they came', async () => {
      // Read 500 clients a query (decision 028); an import's chunk shares one creation time, so the
      // batches meet clients of the same time and go on by their ids.
      const body = (await send('GET', '/api/export/clients.csv')).body;
      const rows = csv(body).filter((row) => row.Name!.startsWith('Chunk Client '));
      expect(rows).toHaveLength(5000);
      expect(new Set(rows.map((row) => row.Email)).size).toBe(5000);
      const tied = (await t.database.db.execute(
        sql`select count(*)::int as ties from (select created_at from clients group by created_at having count(*) > 1) tied`,
      )) as { rows: { ties: number }[] };
      expect(tied.rows[0]!.ties).toBeGreaterThan(0);
      const ordered = (await t.database.db.execute(sql`select email from clients order by created_at, id`)) as {
        rows: { email: string }[];
      };
      const all = csv(body);
      expect([...new Set(all.map((row) => row.Email))]).toEqual(ordered.rows.map((row) => row.email));
    }, 60_000);

    describe.runIf(kind === 'pglite')('backups of any size', () => {
      /** The process's resident memory, sampled while `run` runs: its peak above what it was before. */
      async function growth(run: () => Promise<unknown>): Promise<number> {
        const baseline = process.memoryUsage.rss();
        let peak = baseline;
        const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
        try {
          await run();
        } finally {
          clearInterval(timer);
        }
        return Math.max(peak, process.memoryUsage.rss()) - baseline;
      }

      it('streams a backup: 60 MB of photos are backed up with little memory', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-big-backup-'));
        const database = await createTestDatabase('pglite', { dataDir: path.join(dir, 'db') });
        try {
          const request = (
            (await database.db.execute(sql`insert into quote_requests (id, quote_number, contact_name, contact_email,
              street, city, state, zip, notes) values ('big', 'QBIG000001', 'Big', 'big@home.test', '1 A St',
              'Davis', 'CA', '95616', '') returning id`)) as { rows: { id: string }[] }
          ).rows[0]!.id;
          // One random megabyte sent, copied 59 times by the database: sending 60 MB as parameters takes
          // PGlite most of a minute, and a copy 1 MB away from the next shrinks no more than random bytes do
          // (deflate looks back 32 KB), so the backup still carries 60 MB.
          await database.db.execute(sql`insert into quote_request_images (id, quote_request_id, position, mime_type,
            width, height, data, thumbnail) values ('big0', ${request}, 0, 'image/jpeg', 1, 1,
            ${randomBytes(1_048_576)}, ${Buffer.alloc(1)})`);
          await database.db.execute(sql`insert into quote_request_images (id, quote_request_id, position, mime_type,
            width, height, data, thumbnail)
            select 'big' || n, quote_request_id, n, mime_type, width, height, data, thumbnail
            from quote_request_images, generate_series(1, 59) as n where id = 'big0'`);
          let file: string | null = null;
          const grew = await growth(async () => {
            file = await backupIfDue(database, dir, { everyHours: 24, keep: 1, timeZone: 'America/Los_Angeles' });
          });
          expect(fs.statSync(file!).size).toBeGreaterThan(60 * 1_048_576);
          expect(grew).toBeLessThan(40 * 1_048_576);
          // And it restores, photos included.
          const restored = await restoreBackup(file!, path.join(dir, 'restored'));
          expect(restored.counts).toMatchObject({ quote_request_images: 60 });
        } finally {
          await database.destroy();
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }, 600_000);

      /** A backup file around `database` (the bytes of database.tar, given as chunks). */
      async function craft(file: string, database: { size: number; chunks: () => Iterable<Buffer> }) {
        const pack = tar.pack();
        pack.entry(
          { name: 'manifest.json' },
          JSON.stringify({ format: 'handyman-backup', version: 1, createdAt: 'x', lastMigrationAt: 0, counts: {} }),
        );
        const entry = pack.entry({ name: 'database.tar', size: database.size }, () =>
          pack.finalize(),
        ) as unknown as NodeJS.WritableStream;
        const written = pipeline(pack, zlib.createGzip({ level: 1 }), fs.createWriteStream(file));
        for (const chunk of database.chunks()) {
          if (!entry.write(chunk)) await new Promise((r) => entry.once('drain', r));
        }
        entry.end();
        await written;
      }

      it('refuses a small crafted backup that unpacks to gigabytes, with little memory, and changes nothing', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-crafted-'));
        try {
          const file = path.join(dir, 'crafted.tar.gz');
          const size = Math.round(1.2 * 1024 ** 3);
          const zeros = Buffer.alloc(4 * 1_048_576);
          await craft(file, {
            size,
            *chunks() {
              for (let left = size; left > 0; left -= zeros.length)
                yield zeros.subarray(0, Math.min(left, zeros.length));
            },
          });
          expect(fs.statSync(file).size).toBeLessThan(10 * 1_048_576);
          const dataDir = path.join(dir, 'data');
          let refusal: unknown;
          const grew = await growth(() => restoreBackup(file, dataDir).catch((error: unknown) => (refusal = error)));
          expect(String(refusal)).toMatch(/unpacks to more than 1\.0 GB.*damaged or was made to harm/);
          expect(grew).toBeLessThan(150 * 1_048_576);
          expect(fs.readdirSync(dataDir)).toEqual([]);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }, 300_000);

      it('refuses a backup whose database holds a path outside its folder, or too many files', async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-crafted-'));
        try {
          const inner = async (names: string[]) => {
            const pack = tar.pack();
            for (const name of names) pack.entry({ name, type: 'directory' });
            pack.finalize();
            const parts: Buffer[] = [];
            for await (const chunk of pack) parts.push(chunk as Buffer);
            return Buffer.concat(parts);
          };
          const cases: [string[], RegExp][] = [
            [['base', '../../escaped'], /a file it may not write/],
            [Array.from({ length: 20_001 }, (_, i) => `d${i}`), /more than 20,000 files/],
          ];
          for (const [names, message] of cases) {
            const file = path.join(dir, 'crafted.tar.gz');
            const bytes = await inner(names);
            await craft(file, { size: bytes.length, chunks: () => [bytes] });
            const dataDir = path.join(dir, 'data');
            await expect(restoreBackup(file, dataDir)).rejects.toThrow(message);
            expect(fs.existsSync(path.join(dir, 'escaped'))).toBe(false);
            expect(fs.readdirSync(dataDir)).toEqual([]);
          }
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      }, 300_000);
    });
  });

  describe('the audit trail', () => {
    it('records each staff action with who, when, from where and what changed; entries cannot be changed', async () => {
      const started = new Date();
      const login = (username: string, password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username, password },
          remoteAddress: '203.0.113.7',
        });
      const owner = await createUserAndSignIn(t, 'admin', { username: `owner${Date.now()}` });
      expect((await login(owner.user.username, 'wrong password')).statusCode).toBe(401);
      // A password typed into the username field (issue 25, item 2): the trail keeps that no such user
      // exists, never the text.
      const stranger = `Hunter2-secret-${Date.now()}`;
      expect((await login(stranger, 'guess')).statusCode).toBe(401);
      const token = (await login(owner.user.username, owner.password)).json().token as string;
      const as = bearer(token);
      const call = (method: Method, url: string, payload?: object) => send(method, url, payload, as);

      // Users
      const added = await call('POST', '/api/users/adduser', {
        username: `crew${Date.now()}`,
        password: 'a-long-crew-password',
        fullName: 'Audit Crew',
        email: '',
        phone: '',
        tags: [],
        role: 'employee',
      });
      expect(added.statusCode, added.body).toBe(201);
      const crew = added.json();
      expect(
        (await call('POST', '/api/users/updateuser', { ...crew, fullName: 'Audit Crew Two', password: '' })).statusCode,
      ).toBe(200);
      // Requests, quotes
      const request = await createQuoteRequest(t, { email: 'audit.client@home.test' });
      await call('PUT', `/api/quoterequest/markAccepted/${request._id}`);
      const declined = await createQuoteRequest(t);
      await call('POST', '/api/quoterequest/markDeclined', {
        quoteRequestId: declined._id,
        reasonForDecline: 'Out of our area',
      });
      expect(
        (await call('POST', '/api/quotes/sendQuote', { ...sampleQuoteLines, quoteRequestId: request._id })).statusCode,
      ).toBe(201);
      expect(
        (
          await call('POST', '/api/quotes/revise', {
            ...sampleQuoteLines,
            projectName: 'Revised',
            quoteRequestId: request._id,
          })
        ).statusCode,
      ).toBe(201);
      // Jobs and visits
      const jobId = await insertJob(t, { name: 'Audit Job' });
      expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' })).statusCode).toBe(200);
      const visit = await call('POST', `/api/jobs/${jobId}/visits`, {
        date: '2027-03-10',
        start: '09:00',
        end: '11:00',
        workerIds: [crew._id],
        confirm: true,
      });
      expect(visit.statusCode, visit.body).toBe(201);
      expect(
        (
          await call('PATCH', `/api/visits/${visit.json()._id}`, {
            date: '2027-03-11',
            start: '09:00',
            end: '11:00',
            workerIds: [crew._id],
            confirm: true,
          })
        ).statusCode,
      ).toBe(200);
      // Invoices and payments
      const sold = await createQuoteRequest(t);
      const doneJob = await insertJob(t, { withQuote: true, quoteRequestId: sold._id, status: 'Completed' });
      const invoice = (await call('POST', `/api/jobs/${doneJob}/invoice`)).json();
      expect((await call('POST', `/api/invoices/${invoice._id}/send`)).statusCode).toBe(200);
      expect(
        (
          await call('POST', `/api/invoices/${invoice._id}/payments`, {
            method: 'check',
            reference: '1001',
            paidOn: todayIn('America/Los_Angeles'),
            amount: 10,
          })
        ).statusCode,
      ).toBe(201);
      // Settings, exports, imports, backups
      const settings = (await call('GET', '/api/settings')).json();
      const { logoUrl: _l, updatedAt: _u, ...values } = settings;
      expect((await call('PUT', '/api/settings', { ...values, quoteValidityDays: 21 })).statusCode).toBe(200);
      expect((await call('GET', '/api/export/clients.csv')).statusCode).toBe(200);
      expect((await call('GET', '/api/invoices.csv')).statusCode).toBe(200);
      const importFile = 'Name,Email\nAudit Import,audit.import@home.test\n';
      // A preview changes nothing and is not an action; the import is.
      expect((await upload('/api/clients/import/preview', importFile, as)).statusCode).toBe(200);
      expect((await upload('/api/clients/import', importFile, as)).statusCode).toBe(200);
      if (kind === 'pglite') expect((await call('GET', '/api/backups/download')).statusCode).toBe(200);
      else expect((await call('GET', '/api/backups/download')).json().code).toBe('BACKUP_NOT_EMBEDDED');
      // Delete the user, then sign out
      expect((await call('DELETE', `/api/users/${crew._id}`)).statusCode).toBe(200);
      expect((await call('POST', '/api/logout')).statusCode).toBe(200);

      const trail = await send('GET', `/api/audit?limit=200&from=${todayIn('America/Los_Angeles', started)}`);
      expect(trail.statusCode).toBe(200);
      const mine = (
        trail.json().entries as {
          userId: string | null;
          actorName: string;
          action: string;
          kind: string;
          ip: string;
          details: Record<string, unknown>;
          target: string | null;
        }[]
      )
        .filter((e) => e.actorName === owner.user.username || e.userId === owner.user.id)
        .reverse();
      expect(mine.map((e) => e.action)).toEqual([
        'Signed in', // createUserAndSignIn
        'Failed sign-in',
        'Signed in',
        'Created a user',
        'Changed a user',
        'Accepted a request',
        'Declined a request',
        'Sent a quote',
        'Revised a quote',
        "Changed a job's status",
        'Booked a visit',
        'Changed a visit',
        'Drafted an invoice',
        'Sent an invoice',
        'Recorded a payment',
        'Changed the settings',
        'Exported data (clients.csv)',
        'Exported invoices (CSV)',
        'Imported clients',
        ...(kind === 'pglite' ? ['Downloaded a backup'] : []),
        'Deleted a user',
        'Signed out',
      ]);
      const failed = mine.find((e) => e.action === 'Failed sign-in')!;
      expect(trail.json().entries).toContainEqual(
        expect.objectContaining({
          actorName: 'Unknown username',
          userId: null,
          action: 'Failed sign-in',
          ip: '203.0.113.7',
        }),
      );
      expect(JSON.stringify(trail.json())).not.toContain(stranger);
      expect(failed).toMatchObject({ kind: 'sign-in', ip: '203.0.113.7' });
      expect(JSON.stringify(mine)).not.toContain('wrong password');
      const created = mine.find((e) => e.action === 'Created a user')!;
      expect(created.details.changes).toMatchObject({ fullName: 'Audit Crew', password: '(hidden)' });
      expect(mine.find((e) => e.action === 'Changed the settings')!.details.changes).toMatchObject({
        quoteValidityDays: 21,
      });
      expect(mine.find((e) => e.action === 'Recorded a payment')).toMatchObject({
        kind: 'invoices',
        target: invoice._id,
      });
      expect(mine.find((e) => e.action === 'Imported clients')!.details).toEqual({
        file: expect.stringMatching(/bytes/),
      });

      // Filters: person, kind, dates.
      const byPerson = (await send('GET', `/api/audit?userId=${owner.user.id}&kind=quotes`)).json();
      expect(byPerson.entries.map((e: { action: string }) => e.action)).toEqual(['Revised a quote', 'Sent a quote']);
      expect(byPerson.people).toContainEqual({ userId: owner.user.id, name: expect.any(String) });
      // The people list is kept as entries are added: the same as reading the whole trail, a deleted
      // user included (migration 0026).
      const everyone = (await t.database.db.execute(sql`
        select distinct on (user_id) user_id as "userId", actor_name as "name"
        from ${auditLog} where user_id is not null order by user_id, at desc, seq desc`)) as unknown as {
        rows: { userId: string; name: string }[];
      };
      expect(
        [...byPerson.people].sort((a: { userId: string }, b: { userId: string }) => a.userId.localeCompare(b.userId)),
      ).toEqual(everyone.rows.sort((a, b) => a.userId.localeCompare(b.userId)));
      expect(everyone.rows.length).toBeGreaterThan(1);
      expect((await send('GET', '/api/audit?from=2001-01-01&to=2001-01-02')).json()).toMatchObject({
        entries: [],
        total: 0,
      });
      expect((await send('GET', '/api/audit?kind=nonsense')).statusCode).toBe(400);
      expect((await send('GET', '/api/audit', undefined, {})).statusCode).toBe(401);

      // Append-only, even to a statement the app never runs.
      const db = t.database.db;
      await expect(db.execute(sql`update ${auditLog} set action = 'nothing happened'`)).rejects.toThrow();
      await expect(db.execute(sql`delete from ${auditLog}`)).rejects.toThrow();
      await expect(db.execute(sql`truncate ${auditLog}`)).rejects.toThrow();
      expect((await send('GET', `/api/audit?userId=${owner.user.id}&limit=1`)).json().total).toBe(mine.length);
    });
  });
});
