import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteRequests } from '../../src/server/db/schema';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { dataUrl, makeJpeg } from '../helpers/images';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

describe.each(dbKinds)('back office: quote requests (%s)', (kind) => {
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

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });

  it('lists requests newest first, a page at a time, filtered by status and searched by name', async () => {
    const made = [];
    for (let i = 0; i < 12; i++)
      made.push(await createQuoteRequest(t, { name: i === 3 ? 'Zoë 100%_Match' : `Lister ${i}` }));
    await t.database.db.update(quoteRequests).set({ status: 'Declined' }).where(eq(quoteRequests.id, made[0]!._id));

    const first = (await get('/api/quoterequest/all?page=1&limit=10')).json();
    expect(first.quoteRequests).toHaveLength(10);
    expect(first.quoteRequests[0]._id).toBe(made[11]!._id);
    expect(first.totalPages).toBe(Math.ceil(first.total / 10));
    const second = (await get('/api/quoterequest/all?page=2&limit=10')).json();
    expect(second.quoteRequests.map((q: { _id: string }) => q._id)).not.toContain(first.quoteRequests[0]._id);

    const declined = (await get('/api/quoterequest/all?status=Declined')).json();
    expect(declined.quoteRequests.map((q: { _id: string }) => q._id)).toEqual([made[0]!._id]);
    const all = (await get('/api/quoterequest/all?status=All')).json();
    expect(all.total).toBeGreaterThanOrEqual(12);

    const search = (await get(`/api/quoterequest/all?search=${encodeURIComponent('zoë 100%_')}`)).json();
    expect(search.quoteRequests.map((q: { contactPerson: { name: string } }) => q.contactPerson.name)).toEqual([
      'Zoë 100%_Match',
    ]);
    expect(
      (await get('/api/quoterequest/all?search=%25')).json().quoteRequests.map((q: { _id: string }) => q._id),
    ).toEqual([made[3]!._id]);

    // By its number, as the client reads it out (with or without the Q, any case), and by e-mail (issue 13.8).
    const target = await createQuoteRequest(t, { name: 'Numbered Client', email: 'Findme.Byemail@Home.test' });
    for (const key of [
      target.quoteNumber,
      target.quoteNumber.slice(1).toLowerCase(),
      'findme.byemail@',
      'BYEMAIL@home',
    ])
      expect(
        (await get(`/api/quoterequest/all?search=${encodeURIComponent(key)}`))
          .json()
          .quoteRequests.map((q: { _id: string }) => q._id),
        key,
      ).toEqual([target._id]);

    const pending = (await get('/api/quoterequest/byStatus?status=Pending&limit=3')).json();
    expect(pending).toHaveLength(3);
    expect(pending.every((q: { quoteStatus: string }) => q.quoteStatus === 'Pending')).toBe(true);
    expect((await get('/api/quoterequest/all?page=0')).statusCode).toBe(400);
  });

  it('gives every page the right rows, also pages read from the oldest end', async () => {
    const made = [];
    for (let i = 0; i < 7; i++) made.push((await createQuoteRequest(t, { name: `Pager ${i}` }))._id);
    const newestFirst = [...made].reverse();
    const pages = [];
    for (let page = 1; page <= 4; page++) {
      const res = (await get(`/api/quoterequest/all?search=Pager&limit=2&page=${page}`)).json();
      expect(res.totalPages).toBe(4);
      pages.push(...res.quoteRequests.map((q: { _id: string }) => q._id));
    }
    expect(pages).toEqual(newestFirst);
    expect((await get('/api/quoterequest/all?search=Pager&limit=2&page=9')).json().quoteRequests).toEqual([]);
  });

  it('shows one request with photos served only through signed addresses', async () => {
    const { _id } = await createQuoteRequest(t, {
      images: [dataUrl(await makeJpeg()), dataUrl(await makeJpeg({ width: 300, height: 300 }))],
    });
    const detail = (await get(`/api/quoterequest/${_id}`)).json();
    expect(detail.images).toHaveLength(2);
    const [first, second] = detail.images;
    const full = await t.app.inject({ method: 'GET', url: first.url });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/jpeg');
    const thumb = await t.app.inject({ method: 'GET', url: first.thumbnailUrl });
    expect(thumb.headers['content-type']).toBe('image/webp');
    // The same link on a later refetch: the browser's cached copy stays valid.
    expect((await get(`/api/quoterequest/${_id}`)).json().images[0].url).toBe(first.url);

    const unsigned = await t.app.inject({ method: 'GET', url: `/api/quoterequest/images/${first._id}` });
    expect(unsigned.statusCode).toBe(401);
    const otherSig = new URL(second.url, 'http://x').searchParams.get('sig');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/quoterequest/images/${first._id}?sig=${otherSig}` })).statusCode,
    ).toBe(401);
    const tampered = first.url.replace(/sig=(.{10})/, 'sig=AAAAAAAAAA');
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(401);
    expect((await get('/api/quoterequest/nope')).statusCode).toBe(404);
  });

  it('accepts a pending request once, e-mailing the client; a second decision answers 409', async () => {
    const { _id, quoteNumber } = await createQuoteRequest(t, { email: 'accept-me@home.test' });
    const res = await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${_id}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().quoteStatus).toBe('Accepted');
    const mail = await waitFor(
      () => smtp.to('accept-me@home.test').find((m) => m.parsed.subject?.includes('a quote is being prepared')),
      {
        what: 'accept e-mail',
      },
    );
    expect(mail.parsed.subject).toContain(quoteNumber);
    const again = await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${_id}`, headers: admin });
    expect(again.statusCode).toBe(409);
    const decline = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/markDeclined',
      headers: admin,
      payload: { quoteRequestId: _id, reasonForDecline: 'x' },
    });
    expect(decline.statusCode).toBe(409);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/quoterequest/markAccepted/nope', headers: admin })).statusCode,
    ).toBe(404);
  });

  it('declines with the reason, e-mailed to the stored address whatever the body names', async () => {
    const { _id, quoteNumber } = await createQuoteRequest(t, { email: 'decline-me@home.test' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/markDeclined',
      headers: admin,
      payload: {
        quoteRequestId: _id,
        clientEmail: 'victim@elsewhere.test',
        clientName: 'X',
        reasonForDecline: 'We do not do roofing <b>work</b>.',
      },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, _id));
    expect(row).toMatchObject({ status: 'Declined', declineReason: 'We do not do roofing <b>work</b>.' });
    const mail = await waitFor(
      () => smtp.to('decline-me@home.test').find((m) => m.parsed.subject === `Your quote request ${quoteNumber}`),
      {
        what: 'decline e-mail',
      },
    );
    expect(mail.parsed.text).toContain('We do not do roofing <b>work</b>.');
    expect(mail.parsed.html).toContain('&lt;b&gt;work&lt;/b&gt;');
    expect(smtp.to('victim@elsewhere.test')).toHaveLength(0);
    const status = await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${_id}` });
    expect(status.json()).toEqual({ quoteStatus: 'Declined', quoteState: null, nextVisit: null });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/markDeclined',
      headers: admin,
      payload: { quoteRequestId: _id, reasonForDecline: '  ' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('counts real figures for the dashboard', async () => {
    const before = (await get('/api/dashboard')).json();
    const request = await createQuoteRequest(t);
    await insertJob(t, { status: 'Completed', withQuote: true, quoteRequestId: request._id });
    await insertJob(t, { status: 'In Progress' });
    const after = (await get('/api/dashboard')).json();
    expect(after.completedJobs).toBe(before.completedJobs + 1);
    // Revenue is money received (issue 17): completing a job adds none (tests/api/invoices.test.ts pays).
    expect(after.revenue).toBe(before.revenue);
    expect(after.pendingQuoteRequests).toBe(before.pendingQuoteRequests + 1);
    expect(after.newThisWeek).toBe(before.newThisWeek + 1);
    expect(after.newThisMonth).toBeGreaterThanOrEqual(after.newThisWeek);
    // The kept counts are read in one statement: Pending is counted apart from the rest.
    const declined = await createQuoteRequest(t);
    const decline = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/markDeclined',
      headers: admin,
      payload: { quoteRequestId: declined._id, reasonForDecline: 'Outside our area' },
    });
    expect(decline.statusCode).toBe(200);
    const total = async (status: string) => (await get(`/api/quoterequest/all?status=${status}`)).json().total;
    const [pending, all] = [await total('Pending'), await total('All')];
    expect(pending).toBeLessThan(all);
    expect((await get('/api/dashboard')).json().pendingQuoteRequests).toBe(pending);
  });
});

describe.each(dbKinds)('request counts kept by the database (%s)', (kind) => {
  it('follow inserts, status changes made any way, and deletes', async () => {
    const t = await createTestApp(kind);
    const admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    const totals = async () => {
      const out: Record<string, number> = {};
      for (const status of ['All', 'Pending', 'Accepted', 'Declined'])
        out[status] = (
          await t.app.inject({ method: 'GET', url: `/api/quoterequest/all?status=${status}`, headers: admin })
        ).json().total;
      return out;
    };
    const a = await createQuoteRequest(t);
    const b = await createQuoteRequest(t);
    await createQuoteRequest(t);
    expect(await totals()).toEqual({ All: 3, Pending: 3, Accepted: 0, Declined: 0 });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${a._id}`, headers: admin });
    await t.database.db.update(quoteRequests).set({ status: 'Declined' }).where(eq(quoteRequests.id, b._id));
    expect(await totals()).toEqual({ All: 3, Pending: 1, Accepted: 1, Declined: 1 });
    await t.database.db.delete(quoteRequests).where(eq(quoteRequests.id, b._id));
    expect(await totals()).toEqual({ All: 2, Pending: 1, Accepted: 1, Declined: 0 });
    await t.close();
  });
});
