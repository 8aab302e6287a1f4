import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '#shared/dates';
import { statusTimelineResponse, type StatusTimeline } from '#shared/schemas/status-timeline';
import { createQuoteRequest } from '../helpers/factories';
import { waitFor } from '../helpers/smtp';
import { createMailingTestAppWithAdmin } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const today = () => todayIn('America/Los_Angeles');

describe.each(dbKinds)('the client’s status page follows the job to the end (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof createMailingTestAppWithAdmin>>;
  beforeAll(async () => {
    t = await createMailingTestAppWithAdmin(kind);
  });
  afterAll(() => t.close());

  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
    headers: Record<string, string> = t.admin,
  ) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const ok = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
    headers: Record<string, string> = t.admin,
  ) => {
    const res = await send(method, url, payload, headers);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  /** The page's answer, fetched as the page does (no sign-in), and checked against its schema. */
  const timelineOf = async (numberOrId: string): Promise<StatusTimeline> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${numberOrId}/timeline` });
    expect(res.statusCode, res.body).toBe(200);
    return statusTimelineResponse.parse(res.json());
  };
  const stepsOf = (timeline: StatusTimeline) =>
    timeline.steps.map((s) => `${s.step}${s.kind === 'deposit' ? ' (deposit)' : ''}${s.done ? ' ✓' : ''}`);
  const step = (timeline: StatusTimeline, name: string) =>
    timeline.steps.find((s) => s.step === name && s.kind !== 'deposit')!;
  const statusOf = async (numberOrId: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${numberOrId}` })).json();
  /** The seven steps, the first `n` done. */
  const doneUpTo = (n: number) =>
    ['received', 'quoteSent', 'accepted', 'visit', 'workDone', 'invoice', 'paid'].map((name, i) =>
      i < n ? `${name} ✓` : name,
    );

  /** The office accepts the request and sends a quote; the client's signed link is read from its e-mail. */
  async function quoteSentFor(email: string, extra: object = {}) {
    return quoteSent(await createQuoteRequest(t, { email, name: 'Robin Vale' }), email, extra);
  }
  async function quoteSent<R extends { _id: string }>(request: R, email: string, extra: object = {}) {
    await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    await ok('POST', '/api/quotes/sendQuote', {
      quoteRequestId: request._id,
      clientName: 'Robin Vale',
      projectName: 'Gate',
      materials: [{ name: 'Hinge', unitPrice: 50, quantity: 2 }],
      labor: [{ hourlyRate: 100, hours: 1 }],
      ...extra,
    });
    const mail = await waitFor(() => t.smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text!)![0]);
    return { request, link, quoteNumber: link.pathname.split('/').pop()!, token: link.searchParams.get('token')! };
  }
  const answer = (quoteNumber: string, body: object) =>
    send('POST', `/api/client-quotes/${quoteNumber}/answer`, body, {});

  it('request → quote sent → accepted → visit booked → job completed → invoice sent → partly paid → paid, by the e-mailed link', async () => {
    const email = `timeline${Date.now()}@home.test`;
    const created = await createQuoteRequest(t, { email, name: 'Robin Vale' });
    const byId = () => timelineOf(created._id);
    let now = await byId();
    expect(now).toMatchObject({ quoteStatus: 'Pending', quoteState: null, documents: true, jobCancelled: false });
    expect(stepsOf(now)).toEqual(doneUpTo(1));
    expect(step(now, 'received').date).toBe(today());

    // The quote is sent: its number and the client's signed link, the one its e-mail carries.
    const { request, link: mailed, quoteNumber, token } = await quoteSent(created, email);
    now = await byId();
    expect(stepsOf(now)).toEqual(doneUpTo(2));
    const quoteStep = step(now, 'quoteSent');
    expect(quoteStep).toMatchObject({ number: quoteNumber, date: today() });
    const quoteLink = new URL(quoteStep.href!, 'http://handyman.test');
    expect(quoteLink.pathname).toBe(mailed.pathname);
    const opened = await t.app.inject({
      method: 'GET',
      url: `/api/client-quotes/${quoteNumber}?token=${encodeURIComponent(quoteLink.searchParams.get('token')!)}`,
    });
    expect(opened.statusCode, opened.body).toBe(200);

    // No job yet: the office's request page is answered "none", not 404 (a console error in the browser).
    expect(await ok('GET', `/api/jobs/by-quote-request/${request._id}`)).toBeNull();

    // The client accepts: a job is made.
    const accepted = await answer(quoteNumber, { action: 'accept', token, signatureName: 'Robin Vale' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    now = await byId();
    expect(stepsOf(now)).toEqual(doneUpTo(3));
    const jobId = (await ok('GET', `/api/jobs/by-quote-request/${request._id}`))._id as string;

    // A visit yesterday and one booked the day after tomorrow: the page shows the one to come.
    const yesterday = addDays(today(), -1);
    const later = addDays(today(), 2);
    await ok('POST', `/api/jobs/${jobId}/visits`, { date: yesterday, start: '09:00', end: '11:00' });
    await ok('POST', `/api/jobs/${jobId}/visits`, { date: later, start: '13:00', end: '15:30' });
    now = await byId();
    expect(stepsOf(now)).toEqual(doneUpTo(4));
    expect(step(now, 'visit')).toMatchObject({
      date: later,
      window: { start: '13:00', end: '15:00', arriving: true },
      upcoming: true,
    });
    // Opened from our e-mail's link: the visit links to the client's own page, where it is moved or cancelled.
    const pageLink = step(now, 'visit').href!;
    expect(pageLink).toMatch(/^\/your-page\/[^?]+\?token=[^#]+#visits$/);
    const [clientId, pageToken] = [
      pageLink.split('/')[2]!.split('?')[0]!,
      new URL(pageLink, 'http://x').searchParams.get('token')!,
    ];
    const theirPage = await t.app.inject({
      method: 'GET',
      url: `/api/client-page/${clientId}?token=${encodeURIComponent(pageToken)}`,
    });
    expect(theirPage.statusCode, theirPage.body).toBe(200);
    expect(theirPage.json().visits.map((v: { date: string }) => v.date)).toContain(later);
    expect((await statusOf(request._id)).nextVisit).toEqual({
      date: later,
      start: '13:00',
      end: '15:00',
      arriving: true,
    });

    // The job is completed (the office does it): the visit still ahead is no longer announced.
    await ok('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' });
    await ok('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' });
    now = await byId();
    expect(stepsOf(now)).toEqual(doneUpTo(5));
    expect(step(now, 'visit')).toMatchObject({
      date: yesterday,
      window: { start: '09:00', end: '11:00', arriving: true },
      upcoming: false,
    });
    expect(JSON.stringify(now)).not.toContain(later);
    expect((await statusOf(request._id)).nextVisit).toBeNull();
    const report = step(now, 'workDone');
    expect(report.date).toBe(today());
    const pdf = await t.app.inject({ method: 'GET', url: report.href! });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');

    // The invoice is sent: Due, its balance, and the client's signed link.
    const draft = await ok('POST', `/api/jobs/${jobId}/invoice`);
    const sent = await ok('POST', `/api/invoices/${draft._id}/send`);
    now = await byId();
    expect(stepsOf(now)).toEqual(doneUpTo(6));
    expect(step(now, 'invoice')).toMatchObject({
      kind: 'final',
      invoiceStatus: 'Due',
      number: sent.number,
      balance: sent.balance,
      dueDate: sent.dueDate,
      date: sent.issueDate,
    });
    const invoiceLink = new URL(step(now, 'invoice').href!, 'http://handyman.test');
    expect(invoiceLink.pathname).toBe(`/invoice/${draft._id}`);
    const client = await t.app.inject({
      method: 'GET',
      url: `/api/client-invoices/${draft._id}?token=${encodeURIComponent(invoiceLink.searchParams.get('token')!)}`,
    });
    expect(client.statusCode, client.body).toBe(200);
    expect(client.json().balance).toBe(sent.balance);

    // Partly paid, then paid.
    await ok('POST', `/api/invoices/${draft._id}/payments`, { method: 'cash', paidOn: yesterday, amount: 100 });
    now = await byId();
    expect(step(now, 'invoice')).toMatchObject({ invoiceStatus: 'Partly paid', balance: sent.balance - 100 });
    expect(step(now, 'paid').done).toBe(false);
    await ok('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'check',
      reference: '1024',
      paidOn: today(),
      amount: sent.balance - 100,
    });
    now = await byId();
    expect(stepsOf(now)).toEqual(doneUpTo(7));
    expect(step(now, 'invoice')).toMatchObject({ invoiceStatus: 'Paid', balance: 0 });
    expect(step(now, 'paid').date).toBe(today());
    expect(await statusOf(request._id)).toMatchObject({ quoteState: 'Accepted', nextVisit: null });

    // By a typed number (Q… or QT…), which a stranger could guess: the same steps and days, no documents.
    for (const typed of [request.quoteNumber, quoteNumber, request.quoteNumber.toLowerCase()]) {
      const stranger = await timelineOf(typed);
      expect(stranger.documents).toBe(false);
      expect(stepsOf(stranger)).toEqual(stepsOf(now));
      for (const s of stranger.steps)
        expect(s).toMatchObject({ number: null, href: null, balance: null, dueDate: null });
      expect(JSON.stringify(stranger)).not.toMatch(/token|INV-|QT\d/);
    }
  });

  it('ends the timeline where a request or a quote was declined, or a job cancelled; an unknown number is a 404', async () => {
    const declined = await createQuoteRequest(t);
    await ok('POST', '/api/quoterequest/markDeclined', {
      quoteRequestId: declined._id,
      reasonForDecline: 'Outside our area',
    });
    expect(stepsOf(await timelineOf(declined._id))).toEqual(['received ✓']);

    const quoted = async (body: object, extra: object = {}) => {
      const sent = await quoteSentFor(`ends${Date.now()}${Math.random().toString(36).slice(2, 6)}@home.test`, extra);
      const res = await answer(sent.quoteNumber, { ...body, token: sent.token });
      expect(res.statusCode, res.body).toBe(200);
      return sent.request;
    };
    const refused = await quoted({ action: 'decline', reason: 'Too dear' });
    expect(stepsOf(await timelineOf(refused._id))).toEqual(['received ✓', 'quoteSent ✓']);

    const cancelled = await quoted({ action: 'accept', signatureName: 'Casey Stone' });
    const jobId = (await ok('GET', `/api/jobs/by-quote-request/${cancelled._id}`))._id as string;
    await ok('PATCH', `/api/jobs/${jobId}/status`, { status: 'Cancelled', reason: 'Client moved' });
    const ended = await timelineOf(cancelled._id);
    expect(ended.jobCancelled).toBe(true);
    expect(stepsOf(ended)).toEqual(['received ✓', 'quoteSent ✓', 'accepted ✓']);

    const unknown = await t.app.inject({ method: 'GET', url: '/api/quoterequest/status/Q000000000/timeline' });
    expect(unknown.statusCode).toBe(404);
  });

  it('shows a deposit’s invoice, sent on acceptance, right after "accepted"', async () => {
    const sent = await quoteSentFor(`deposit${Date.now()}@home.test`, { deposit: { kind: 'percent', value: 20 } });
    const res = await answer(sent.quoteNumber, { action: 'accept', token: sent.token, signatureName: 'Robin Vale' });
    expect(res.statusCode, res.body).toBe(200);
    const now = await timelineOf(sent.request._id);
    expect(stepsOf(now)).toEqual([
      ...doneUpTo(3).slice(0, 3),
      'invoice (deposit) ✓',
      'visit',
      'workDone',
      'invoice',
      'paid',
    ]);
    const deposit = now.steps.find((s) => s.kind === 'deposit')!;
    expect(deposit).toMatchObject({ invoiceStatus: 'Due', date: today(), number: expect.stringMatching(/^INV-/) });
    // 20% of the $100 of hinges (taxed 8%: $21.60) and of the $100 of labor (not taxed: $20).
    expect(deposit.balance).toBe(41.6);
  });
});
