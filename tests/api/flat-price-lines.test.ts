import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteLabor, quotes } from '../../src/server/db/schema';
import { createQuoteRequest } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithAdmin, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

// A flat-price line beside hourly labor (issue 28.10, decision 032): priced once, the same figures on the
// builder's draft, the stored quote, the client's page, the e-mail, the PDF, the job's checklist and the invoice.

const lines = {
  clientName: 'Dana Whitfield',
  projectName: 'Gate and ceiling fan',
  materials: [{ name: 'Gate hinge', unitPrice: 39.99, quantity: 2 }],
  labor: [
    { description: 'Rehang the gate', hourlyRate: 65, hours: 2 },
    // A flat line's hours are not asked; any sent are ignored (it is one price for the work).
    { description: 'Install a ceiling fan', hourlyRate: 149.5, hours: 3, flat: true, taxable: false },
  ],
};
// 79.98 (taxed) + 130 + 149.50 = 359.48; tax 8% on 79.98 = 6.40; total 365.88.
const TOTALS = { totalCostBeforeTax: 359.48, taxableBeforeTax: 79.98, taxCost: 6.4, totalCostAfterTax: 365.88 };

describe.each(dbKinds)('flat-price lines (%s)', (kind) => {
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

  it('prints a flat line as its price and agrees on every total from the draft to the invoice', async () => {
    const email = `flat${Date.now()}@home.test`;
    const request = await createQuoteRequest(t, { email, name: 'Dana Whitfield' });
    await call('PUT', `/api/quoterequest/markAccepted/${request._id}`);

    const draft = await call('POST', '/api/quotes/createNew', { ...lines, quoteRequestId: request._id });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject(TOTALS);
    expect(draft.json().labor[1]).toMatchObject({ flat: true, hours: 1, hourlyRate: 149.5, total: 149.5 });

    const sent = await call('POST', '/api/quotes/sendQuote', { ...lines, quoteRequestId: request._id });
    expect(sent.statusCode, sent.body).toBe(201);
    const quote = sent.json();
    expect(quote).toMatchObject(TOTALS);
    expect(quote.labor.map((l: { flat: boolean }) => l.flat)).toEqual([false, true]);
    const [row] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quote.quoteId));
    expect(row).toMatchObject({ subtotalCents: 35948, taxCents: 640, totalCents: 36588 });
    const stored = await t.database.db.select().from(quoteLabor).where(eq(quoteLabor.quoteId, row!.id));
    expect(stored.map((l) => [l.flat, Number(l.hours), l.hourlyRateCents]).sort()).toEqual(
      [
        [false, 2, 6500],
        [true, 1, 14950],
      ].sort(),
    );

    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const text = mail.parsed.text!;
    expect(text).toContain('Labor: Install a ceiling fan');
    expect(text).toMatch(/Labor: Install a ceiling fan:\s+Flat price = \$149\.50/);
    expect(text).toContain('2 h × $65.00/h');
    expect(text).not.toContain('1 h × $149.50');
    expect(text).toContain('$365.88');
    const pdf = await pdfText(mail.parsed.attachments[0]!.content);
    expect(pdf).toContain('Install a ceiling fan');
    expect(pdf).toContain('Flat price');
    expect(pdf).toContain('$365.88');

    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(text)![0]);
    const token = link.searchParams.get('token')!;
    const page = await call(
      'GET',
      `/api/client-quotes/${quote.quoteId}?token=${encodeURIComponent(token)}`,
      undefined,
      {},
    );
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject(TOTALS);
    expect(page.json().labor[1]).toMatchObject({ flat: true, total: 149.5 });

    const accepted = await call(
      'POST',
      `/api/client-quotes/${quote.quoteId}/answer`,
      { action: 'accept', token, signatureName: 'Dana Whitfield' },
      {},
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const jobs = (await call('GET', '/api/jobs?limit=100')).json().jobs as { _id: string; quoteId: string | null }[];
    const job = jobs.find((j) => j.quoteId === quote.quoteId || j.quoteId === row!.id);
    expect(job, JSON.stringify(jobs.slice(0, 2))).toBeDefined();
    const detail = (await call('GET', `/api/jobs/${job!._id}`)).json();
    expect(detail.quote).toMatchObject(TOTALS);

    expect((await call('PATCH', `/api/jobs/${job!._id}/status`, { status: 'In Progress' })).statusCode).toBe(200);
    const completed = await call('PATCH', `/api/jobs/${job!._id}/status`, { status: 'Completed' });
    expect(completed.statusCode, completed.body).toBe(200);
    const record = (await call('GET', `/api/jobs/${job!._id}/record`)).json();
    expect(record.checklist.map((c: { text: string }) => c.text)).toEqual([
      'Gate hinge × 2',
      'Rehang the gate (2 h)',
      'Install a ceiling fan',
    ]);
    const invoice = await call('POST', `/api/jobs/${job!._id}/invoice`);
    expect(invoice.statusCode, invoice.body).toBe(201);
    const drafted = invoice.json();
    expect(
      drafted.lines.map((l: { description: string; quantity: number; unitPrice: number }) => [
        l.description,
        l.quantity,
        l.unitPrice,
      ]),
    ).toEqual([
      ['Gate hinge', 2, 39.99],
      ['Rehang the gate (hours)', 2, 65],
      ['Install a ceiling fan', 1, 149.5],
    ]);
    expect(drafted).toMatchObject({ subtotal: 359.48, tax: 6.4, total: 365.88 });
  });

  it('a quote of labor only prints no empty Materials table', async () => {
    const email = `laboronly${Date.now()}@home.test`;
    const request = await createQuoteRequest(t, { email, name: 'Lara Bor' });
    await call('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const sent = await call('POST', '/api/quotes/sendQuote', {
      ...lines,
      materials: [],
      quoteRequestId: request._id,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const pdf = await pdfText(mail.parsed.attachments[0]!.content);
    expect(pdf).toContain('Labor');
    expect(pdf).toContain('Rehang the gate');
    expect(pdf).not.toContain('Materials');
    expect(pdf).not.toContain('Unit Price');
  });

  it('asks hours of an hourly line only', async () => {
    const request = await createQuoteRequest(t);
    await call('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const noHours = await call('POST', '/api/quotes/createNew', {
      ...lines,
      quoteRequestId: request._id,
      labor: [{ description: 'Rehang the gate', hourlyRate: 65 }],
    });
    expect(noHours.statusCode).toBe(400);
    expect(noHours.json().message).toContain('Hours must be a number');
    const flat = await call('POST', '/api/quotes/createNew', {
      ...lines,
      quoteRequestId: request._id,
      labor: [{ description: 'Haul away the old fan', hourlyRate: 40, flat: true }],
    });
    expect(flat.statusCode, flat.body).toBe(200);
    expect(flat.json().labor[0]).toMatchObject({ flat: true, hours: 1, total: 40 });
  });
});
