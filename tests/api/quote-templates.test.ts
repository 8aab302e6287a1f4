import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteTemplates } from '../../src/server/db/schema';
import { createQuoteRequest } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithAdmin, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

// Issue 28.10's rest (decision 032): a quote kept as a template and a new quote started from it; the
// builder's Preview is the client's page's own data. The office's internal notes reach neither.

const SECRET = 'Internal: client haggles, gate code 4417';
const quote = {
  clientName: 'Dana Whitfield',
  projectName: 'Gate and ceiling fan',
  materials: [{ name: 'Gate hinge', unitPrice: 39.99, quantity: 2, optional: false, taxable: true }],
  labor: [
    { description: 'Rehang the gate', hourlyRate: 65, hours: 2, taxable: false },
    { description: 'Install a ceiling fan', hourlyRate: 149.5, flat: true, taxable: false, optional: true },
  ],
  notes: 'Price includes hauling the old gate away.',
  internalNotes: SECRET,
};

describe.each(dbKinds)('quote templates and the preview (%s)', (kind) => {
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

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('keeps lines and client notes, never internal notes, and a new quote starts from it with its prices', async () => {
    // The builder sends the whole form; what the office keeps to itself and one client's names are dropped.
    const saved = await call('POST', '/api/quote-templates', { ...quote, name: 'Gate rehang + fan' });
    expect(saved.statusCode, saved.body).toBe(201);
    const template = saved.json();
    expect(saved.body).not.toContain('4417');
    expect(template).toMatchObject({
      name: 'Gate rehang + fan',
      notes: quote.notes,
      materials: [{ name: 'Gate hinge', unitPrice: 39.99, quantity: 2, optional: false, taxable: true }],
      labor: [
        { description: 'Rehang the gate', hourlyRate: 65, hours: 2, flat: false, optional: false, taxable: false },
        { description: 'Install a ceiling fan', hourlyRate: 149.5, hours: 1, flat: true, optional: true },
      ],
    });
    expect(template).not.toHaveProperty('internalNotes');
    expect(template).not.toHaveProperty('clientName');
    const [row] = await t.database.db.select().from(quoteTemplates).where(eq(quoteTemplates.id, template._id));
    expect(JSON.stringify(row)).not.toContain('4417');
    expect(row!.materials[0]).toMatchObject({ unitPriceCents: 3999 });

    // The list, a rename, a second of the same name refused, and the one read to start a quote.
    const list = (await call('GET', '/api/quote-templates')).json();
    expect(list.templates.map((x: { name: string }) => x.name)).toContain('Gate rehang + fan');
    const renamed = await call('PATCH', `/api/quote-templates/${template._id}`, { name: 'Gate and fan' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().name).toBe('Gate and fan');
    const twin = await call('POST', '/api/quote-templates', { ...quote, name: 'GATE AND FAN' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().message).toBe('A template named "GATE AND FAN" already exists');
    const empty = await call('POST', '/api/quote-templates', { name: 'Empty', materials: [], labor: [] });
    expect(empty.statusCode).toBe(400);
    expect((await call('POST', '/api/quote-templates', { ...quote, name: '' })).json().message).toContain(
      'Template name is required',
    );
    const read = (await call('GET', `/api/quote-templates/${template._id}`)).json();

    // A new quote from it: its lines and client notes, a price changed by the office, sent to a new client.
    const email = `tpl${Date.now()}@home.test`;
    const request = await createQuoteRequest(t, { email, name: 'Robin Ames' });
    await call('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const body = {
      quoteRequestId: request._id,
      clientName: 'Robin Ames',
      projectName: 'Gate',
      materials: read.materials.map((m: { unitPrice: number }) => ({ ...m, unitPrice: 42 })),
      labor: read.labor,
      notes: read.notes,
      internalNotes: 'Office only: 2nd visit likely',
    };
    const preview = await call('POST', '/api/quotes/preview', body);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.body).not.toContain('Office only');
    expect(preview.json()).not.toHaveProperty('internalNotes');
    // 84 (taxed) + 130 = 214, tax 6.72; the optional fan is shown, not counted.
    expect(preview.json()).toMatchObject({
      clientName: 'Robin Ames',
      notes: quote.notes,
      status: 'Pending',
      totalCostBeforeTax: 214,
      taxCost: 6.72,
      totalCostAfterTax: 220.72,
      business: { name: expect.any(String) },
      replacedBy: null,
    });
    // Nothing was stored or sent by the preview.
    expect((await call('GET', `/api/quotes/by-quote-request/${request._id}`)).statusCode).toBe(404);

    const sent = await call('POST', '/api/quotes/sendQuote', body);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ notes: quote.notes, internalNotes: 'Office only: 2nd visit likely' });
    const quoteId = sent.json().quoteId as string;
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    expect(mail.parsed.text).toContain(quote.notes);
    expect(mail.parsed.text).not.toContain('Office only');
    const pdf = await pdfText(mail.parsed.attachments[0]!.content);
    expect(pdf).toContain('hauling the old gate');
    expect(pdf).not.toContain('Office only');
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text!)![0]);
    const page = await call(
      'GET',
      `/api/client-quotes/${quoteId}?token=${encodeURIComponent(link.searchParams.get('token')!)}`,
      undefined,
      {},
    );
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Office only');
    // The preview showed what the client's page shows (but the date and the number, fixed at sending).
    const { quoteDate: _a, quoteId: _b, ...previewed } = preview.json();
    expect(page.json()).toMatchObject({ ...previewed, clientMessage: null });

    // Deleting the template leaves the quote sent from it.
    expect((await call('DELETE', `/api/quote-templates/${template._id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/quote-templates/${template._id}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/api/quote-templates/${template._id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await call('GET', `/api/quotes/${quoteId}`)).json().materials[0].unitPrice).toBe(42);
  });
});
