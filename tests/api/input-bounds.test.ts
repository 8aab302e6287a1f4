import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRecords, jobs, quotes } from '../../src/server/db/schema';
import { createQuoteRequest, insertJob, sampleQuoteLines } from '../helpers/factories';
import { makePng } from '../helpers/images';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithCrew, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

// Issue 25.8: dates of year 0000/0001 (and an audit "to" of 9999-12-31) answered 500; a signature of
// zero-width characters signed. Each comes in through HTTP on both databases and answers 400.

const ZERO_WIDTH_NAMES = ['\u200b\u200b', '\u200b \u200c\u200d\ufeff', '\u2060\u2060\u2060', ' \u00ad\u034f\u3164 '];

describe.each(dbKinds)('dates in range and names that show (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let crew: { id: string; auth: Record<string, string> };
  beforeAll(async () => {
    const office = await createMailingTestAppWithCrew(kind);
    ({ smtp, admin, crew } = office);
    t = office;
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** A sold job with the crew member on it. */
  async function crewJob(status: 'Not Started' | 'Completed' = 'Not Started') {
    const request = await createQuoteRequest(t);
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, status });
    if (status === 'Not Started') {
      const assigned = await send('POST', `/api/jobs/${jobId}/assign`, { workers: [{ _id: crew.id }] });
      expect(assigned.statusCode, assigned.body).toBe(200);
    }
    return jobId;
  }
  const refused = (res: { statusCode: number; body: string }, message = 'Must be a date from 2000 to 2100') => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain(message);
  };

  it('a visit on 0001-01-01 or 0000-01-01, or a calendar range from year 1, answers 400', async () => {
    const jobId = await crewJob();
    for (const date of ['0001-01-01', '0000-01-01', '9999-12-31'])
      refused(
        await send('POST', `/api/jobs/${jobId}/visits`, {
          date,
          start: '09:00',
          end: '10:00',
          workerIds: [crew.id],
          confirm: true,
        }),
      );
    refused(await send('GET', '/api/visits?from=0001-01-01T00:00:00Z&to=0001-01-31T00:00:00Z'));
    refused(
      await send('GET', '/api/my/visits?from=0001-01-01T00:00:00Z&to=0001-01-31T00:00:00Z', undefined, crew.auth),
    );
    const ok = await send('POST', `/api/jobs/${jobId}/visits`, {
      date: '2030-01-07',
      start: '09:00',
      end: '10:00',
      workerIds: [crew.id],
      confirm: true,
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('crew hours and a timer in year 1 answer 400', async () => {
    const jobId = await crewJob();
    for (const workDate of ['0001-01-01', '0000-01-01'])
      refused(
        await send(
          'PUT',
          `/api/my/jobs/${jobId}/time/${randomUUID()}`,
          { kind: 'hours', workDate, hours: 2 },
          crew.auth,
        ),
      );
    refused(
      await send(
        'PUT',
        `/api/my/jobs/${jobId}/time/${randomUUID()}`,
        { kind: 'timer', startedAt: '0001-01-01T08:00:00Z', endedAt: '0001-01-01T09:00:00Z' },
        crew.auth,
      ),
    );
    const ok = await send(
      'PUT',
      `/api/my/jobs/${jobId}/time/${randomUUID()}`,
      { kind: 'hours', workDate: '2026-11-20', hours: 2 },
      crew.auth,
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a payment dated 0001-01-01 answers 400', async () => {
    const jobId = await crewJob('Completed');
    const invoice = await send('POST', `/api/jobs/${jobId}/invoice`);
    expect(invoice.statusCode, invoice.body).toBe(201);
    for (const paidOn of ['0001-01-01', '0000-01-01'])
      refused(
        await send('POST', `/api/invoices/${invoice.json()._id}/payments`, { method: 'cash', paidOn, amount: 1 }),
      );
  });

  it('the audit filter from year 1 or to 9999-12-31 answers 400; in range it answers', async () => {
    refused(await send('GET', '/api/audit?to=9999-12-31'));
    refused(await send('GET', '/api/audit?from=0001-01-01'));
    refused(await send('GET', '/api/audit?from=0000-01-01&to=2026-01-01'));
    expect((await send('GET', '/api/audit?from=2000-01-01&to=2100-12-31')).statusCode).toBe(200);
  });

  it("a client's signature made of zero-width characters is refused; a real name accepts", async () => {
    const email = `zw${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email });
    await send('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const sent = await send('POST', '/api/quotes/sendQuote', { ...sampleQuoteLines, quoteRequestId: request._id });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text ?? '')![0]);
    const quoteId = link.pathname.split('/').pop()!;
    const answer = (signatureName: string) =>
      send(
        'POST',
        `/api/client-quotes/${quoteId}/answer`,
        { action: 'accept', token: link.searchParams.get('token'), signatureName },
        {},
      );
    for (const name of ZERO_WIDTH_NAMES) refused(await answer(name), 'Please type your full name to accept');
    const [pending] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
    expect(pending!.status).toBe('Pending');
    const yes = await answer('\u200bDana Whitfield\u200b');
    expect(yes.statusCode, yes.body).toBe(200);
    const [accepted] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
    expect(accepted!.acceptedName).toBe('Dana Whitfield');
  });

  it("the crew's signature pad refuses a name of zero-width characters", async () => {
    const jobId = await crewJob();
    await send('PATCH', `/api/my/jobs/${jobId}/status`, { status: 'In Progress' }, crew.auth);
    const image = `data:image/png;base64,${(await makePng(600, 200)).toString('base64')}`;
    for (const name of ZERO_WIDTH_NAMES)
      refused(
        await send('PUT', `/api/my/jobs/${jobId}/signature`, { name, image }, crew.auth),
        'The client prints their name',
      );
    const [unsigned] = await t.database.db.select().from(jobRecords).where(eq(jobRecords.jobId, jobId));
    expect(unsigned?.signedName ?? null).toBeNull();
    const signed = await send('PUT', `/api/my/jobs/${jobId}/signature`, { name: 'Pat Client', image }, crew.auth);
    expect(signed.statusCode, signed.body).toBe(200);
  });

  it("the client's invoice answers only what their page shows: no ids, payments, office notes or void reason", async () => {
    const jobId = await crewJob('Completed');
    const email = `inv${randomUUID().slice(0, 8)}@home.test`;
    await t.database.db.update(jobs).set({ contactEmail: email }).where(eq(jobs.id, jobId));
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    expect((await send('POST', `/api/invoices/${draft._id}/send`)).statusCode).toBe(200);
    const paid = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'check',
      reference: 'CHECK-REF-1042',
      paidOn: '2026-11-20',
      amount: 10,
      note: 'OFFICE-ONLY: client is slow, call the spouse',
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Invoice ')), {
      what: 'invoice e-mail',
    });
    const link = new URL(/https?:\/\/\S+\/invoice\/\S+/.exec(mail.parsed.text!)![0]);
    const res = await t.app.inject({ method: 'GET', url: `/api/client-invoices/${draft._id}${link.search}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'address',
        'balance',
        // Decision 037: where the bill goes, the client's company and own PO number, printed on their page.
        'billingAddress',
        'companyName',
        'poNumber',
        'clientName',
        'credit',
        'creditedNumber',
        'dueDate',
        'howToPay',
        'issueDate',
        'kind',
        'lines',
        'notes',
        'number',
        'paid',
        'pdfUrl',
        'status',
        'subtotal',
        'tax',
        'taxRateBasisPoints',
        'taxable',
        'total',
      ].sort(),
    );
    expect(body.paid).toBe(10);
    for (const hidden of ['OFFICE-ONLY', 'CHECK-REF-1042', 'payments', 'voidReason', jobId, email, '"_id"'])
      expect(res.body, hidden).not.toContain(hidden);
  });

  it("the answer to the client's yes carries no ids and no network address", async () => {
    const email = `ip${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email });
    await send('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    await send('POST', '/api/quotes/sendQuote', { ...sampleQuoteLines, quoteRequestId: request._id });
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text ?? '')![0]);
    const quoteId = link.pathname.split('/').pop()!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/client-quotes/${quoteId}/answer`,
      remoteAddress: '203.0.113.77',
      payload: { action: 'accept', token: link.searchParams.get('token'), signatureName: 'Dana Whitfield' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
    expect(row!.acceptedIp).toBe('203.0.113.77');
    for (const hidden of ['203.0.113.77', 'acceptedIp', '"_id"', 'quoteRequestId', request._id, row!.id])
      expect(res.body, hidden).not.toContain(hidden);
  });
});
