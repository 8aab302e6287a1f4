import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, quoteRequests, quotes } from '../../src/server/db/schema';
import { createQuoteRequest, sampleQuoteLines } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, TEST_JWT_SECRET, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const lines = sampleQuoteLines;
// 69.98 + 18.50 + 227.50 = 315.98; tax 25.28; total 341.26

describe.each(dbKinds)('quotes end to end (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers = admin) =>
    t.app.inject({ method: 'POST', url, payload, headers });

  async function acceptedRequest(email = `q${Date.now()}${Math.random().toString(36).slice(2, 6)}@home.test`) {
    const request = await createQuoteRequest(t, { email });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    return { ...request, email };
  }

  async function sendQuote() {
    const request = await acceptedRequest();
    const draft = (await post('/api/quotes/createNew', { ...lines, quoteRequestId: request._id })).json();
    const sent = await post('/api/quotes/sendQuote', {
      ...lines,
      quoteRequestId: request._id,
      userEmail: 'ignored@elsewhere.test',
      quote: draft,
      quoteHTML: '<script>evil()</script>',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(
      () => smtp.to(request.email).find((m) => m.parsed.subject?.startsWith('Your quote QT')),
      { what: 'quote e-mail' },
    );
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text ?? '')![0]);
    return {
      request,
      draft,
      quote: sent.json(),
      mail,
      quoteId: link.pathname.split('/').pop()!,
      token: link.searchParams.get('token')!,
    };
  }

  it('shows each status change in the public lookup at once, by quote number and by id', async () => {
    const request = await createQuoteRequest(t, { email: `lookup${Date.now()}@home.test` });
    const lookup = async () =>
      Promise.all(
        [request.quoteNumber, request.quoteNumber.toLowerCase(), request._id].map(
          async (key) =>
            (await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${key}` })).json().quoteStatus,
        ),
      );
    expect(await lookup()).toEqual(['Pending', 'Pending', 'Pending']);
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    expect(await lookup()).toEqual(['Accepted', 'Accepted', 'Accepted']);
    expect((await post('/api/quotes/sendQuote', { ...lines, quoteRequestId: request._id })).statusCode).toBe(201);
    expect(await lookup()).toEqual(['Quote Sent', 'Quote Sent', 'Quote Sent']);
  });

  it('drafts a quote with its number and totals, storing nothing', async () => {
    const request = await acceptedRequest();
    const res = await post('/api/quotes/createNew', { ...lines, quoteRequestId: request._id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      quoteId: expect.stringMatching(/^QT\d{8}$/),
      totalCostBeforeTax: 315.98,
      taxCost: 25.28,
      totalCostAfterTax: 341.26,
    });
    expect(await t.database.db.select().from(quotes).where(eq(quotes.quoteRequestId, request._id))).toHaveLength(0);
  });

  it('refuses an empty quote, missing names, bad numbers, and a request that is not Accepted', async () => {
    const request = await acceptedRequest();
    const empty = await post('/api/quotes/createNew', {
      ...lines,
      materials: [],
      labor: [],
      quoteRequestId: request._id,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Add at least one material or labor line');
    const noNames = await post('/api/quotes/sendQuote', {
      ...lines,
      clientName: ' ',
      projectName: '',
      quoteRequestId: request._id,
    });
    expect(noNames.json().message).toMatch(
      /clientName: Client name is required.*projectName: Project name is required/,
    );
    const negative = await post('/api/quotes/createNew', {
      ...lines,
      materials: [{ name: 'x', unitPrice: -1, quantity: 1 }],
      quoteRequestId: request._id,
    });
    expect(negative.json().message).toContain('Unit Price cannot be negative');
    const fractionCents = await post('/api/quotes/createNew', {
      ...lines,
      labor: [{ hourlyRate: 10.001, hours: 1 }],
      quoteRequestId: request._id,
    });
    expect(fractionCents.statusCode).toBe(400);
    const pending = await createQuoteRequest(t);
    expect((await post('/api/quotes/sendQuote', { ...lines, quoteRequestId: pending._id })).statusCode).toBe(409);
    expect((await post('/api/quotes/sendQuote', { ...lines, quoteRequestId: 'nope' })).statusCode).toBe(404);
  });

  it('sends once: stores the quote, moves the request to Quote Sent, and e-mails totals, a PDF and the link', async () => {
    const { request, draft, quote, mail } = await sendQuote();
    expect(quote).toMatchObject({
      quoteId: draft.quoteId,
      status: 'Pending',
      totalCostAfterTax: 341.26,
      materials: [{ name: 'Gate hinge kit', subtotal: 69.98 }, { name: 'Faucet cartridge' }],
    });
    const [row] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, request._id));
    expect(row!.status).toBe('Quote Sent');
    const [stored] = await t.database.db.select().from(quotes).where(eq(quotes.quoteRequestId, request._id));
    expect(stored).toMatchObject({ subtotalCents: 31598, taxCents: 2528, totalCents: 34126 });

    expect(mail.envelopeTo).toEqual([request.email]);
    expect(mail.parsed.text).toContain('Total:');
    expect(mail.parsed.text).toContain('$341.26');
    expect(mail.parsed.html).not.toContain('evil()');
    const [pdf] = mail.parsed.attachments;
    expect(pdf!.contentType).toBe('application/pdf');
    const text = await pdfText(pdf!.content);
    for (const expected of [
      draft.quoteId,
      'Gate hinge kit',
      '$69.98',
      '$227.50',
      '$315.98',
      '$25.28',
      '$341.26',
      'Fence gate and faucet',
    ])
      expect(text).toContain(expected);

    const again = await post('/api/quotes/sendQuote', { ...lines, quoteRequestId: request._id, quote: draft });
    expect(again.statusCode).toBe(409);
    expect(await t.database.db.select().from(quotes).where(eq(quotes.quoteRequestId, request._id))).toHaveLength(1);

    const byRequest = await t.app.inject({
      method: 'GET',
      url: `/api/quotes/by-quote-request/${request._id}`,
      headers: admin,
    });
    expect(byRequest.json().quoteId).toBe(draft.quoteId);
    const byNumber = await t.app.inject({ method: 'GET', url: `/api/quotes/${draft.quoteId}`, headers: admin });
    expect(byNumber.json()).toMatchObject({ clientName: 'Dana Whitfield', projectName: 'Fence gate and faucet' });
  });

  it("finds the request by its quote's number (QT…) in the public lookup, as the quote e-mail and PDF show it", async () => {
    const { quoteId } = await sendQuote();
    for (const key of [quoteId, quoteId.toLowerCase(), ` ${quoteId} `]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${encodeURIComponent(key)}` });
      expect(res.statusCode, key).toBe(200);
      expect(res.json()).toEqual({ quoteStatus: 'Quote Sent', quoteState: 'Pending', nextVisit: null });
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/api/quoterequest/status/QT00000001' });
    expect(unknown.statusCode).toBe(404);
  });

  it('shows the client their quote by the link, without changing its status', async () => {
    const { quoteId, token } = await sendQuote();
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/client-quotes/${quoteId}?token=${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        quoteId,
        status: 'Pending',
        totalCostAfterTax: 341.26,
        business: { name: t.config.BUSINESS_NAME },
      });
      expect(res.json()).not.toHaveProperty('quoteRequestId');
    }
    const [row] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
    expect(row!.status).toBe('Pending');
  });

  it('refuses a tampered, foreign or expired link with a clear 4xx', async () => {
    const first = await sendQuote();
    const second = await sendQuote();
    const tampered = `${first.token.slice(0, -4)}AAAA`;
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/client-quotes/${first.quoteId}?token=${tampered}` })).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/client-quotes/${first.quoteId}?token=${second.token}` }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/client-quotes/${first.quoteId}` })).statusCode).toBe(403);
    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(first.quoteId)
      .setAudience('client-quote')
      .setIssuedAt(1)
      .setExpirationTime(2)
      .sign(key);
    const res = await post(
      `/api/client-quotes/${first.quoteId}/answer`,
      { action: 'accept', token: expired, signatureName: 'Dana Whitfield' },
      {},
    );
    expect(res.statusCode).toBe(410);
    expect(res.json().message).toContain('expired');
    const staffToken = admin.authorization!.slice(7);
    expect(
      (
        await post(
          `/api/client-quotes/${first.quoteId}/answer`,
          { action: 'accept', token: staffToken, signatureName: 'Dana Whitfield' },
          {},
        )
      ).statusCode,
    ).toBe(403);
    const [row] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, first.quoteId));
    expect(row!.status).toBe('Pending');
  });

  it('turns an acceptance into a job in the same step, tells the owner, and refuses a second answer', async () => {
    const { quoteId, token, request } = await sendQuote();
    const res = await post(
      `/api/client-quotes/${quoteId}/answer`,
      { action: 'accept', token, signatureName: 'Dana Whitfield' },
      {},
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('Accepted');
    const [quote] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.quoteId, quote!.id));
    expect(job).toMatchObject({
      status: 'Not Started',
      quoteRequestId: request._id,
      city: 'Sacramento',
      contactEmail: request.email,
    });

    const list = (await t.app.inject({ method: 'GET', url: '/api/jobs?limit=100', headers: admin })).json();
    expect(list.jobs.map((j: { _id: string }) => j._id)).toContain(job!.id);
    const detail = (await t.app.inject({ method: 'GET', url: `/api/jobs/${job!.id}`, headers: admin })).json();
    expect(detail.quote).toMatchObject({
      quoteId,
      totalCostAfterTax: 341.26,
      labor: [{ hourlyRate: 65, hours: 3.5, total: 227.5 }],
    });

    const notice = await waitFor(
      () =>
        smtp.to('owner@handyman.test').find((m) => m.parsed.subject === `Quote ${quoteId} accepted by Dana Whitfield`),
      {
        what: 'owner notice',
      },
    );
    expect(notice.parsed.text).toContain(`/admin/jobs/${job!.id}`);

    const second = await post(`/api/client-quotes/${quoteId}/answer`, { action: 'decline', token }, {});
    expect(second.statusCode).toBe(409);
    expect(await t.database.db.select().from(jobs).where(eq(jobs.quoteId, quote!.id))).toHaveLength(1);
  });

  it('records a decline with its reason, and a question, each e-mailed to the owner', async () => {
    const declined = await sendQuote();
    const d = await post(
      `/api/client-quotes/${declined.quoteId}/answer`,
      { action: 'decline', token: declined.token, reason: 'Found someone closer.' },
      {},
    );
    expect(d.json()).toMatchObject({ status: 'Declined', clientMessage: 'Found someone closer.' });
    await waitFor(
      () =>
        smtp
          .to('owner@handyman.test')
          .find(
            (m) =>
              m.parsed.subject === `Quote ${declined.quoteId} declined by Dana Whitfield` &&
              m.parsed.text?.includes('Found someone closer.'),
          ),
      { what: 'decline notice' },
    );

    const asked = await sendQuote();
    const empty = await post(
      `/api/client-quotes/${asked.quoteId}/answer`,
      { action: 'more-info', token: asked.token, message: ' ' },
      {},
    );
    expect(empty.statusCode).toBe(400);
    const q = await post(
      `/api/client-quotes/${asked.quoteId}/answer`,
      { action: 'more-info', token: asked.token, message: 'Can you start before Christmas?' },
      {},
    );
    expect(q.json()).toMatchObject({ status: 'Requested More Info', clientMessage: 'Can you start before Christmas?' });
    await waitFor(
      () =>
        smtp
          .to('owner@handyman.test')
          .find(
            (m) =>
              m.parsed.subject === `Question about quote ${asked.quoteId} from Dana Whitfield` &&
              m.parsed.text?.includes('Can you start before Christmas?'),
          ),
      { what: 'question notice' },
    );
  });
});
