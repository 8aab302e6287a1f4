import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '#shared/dates';
import { NEEDS_YOU_LIST_LIMIT } from '#shared/schemas/dashboard';
import { eq, sql } from 'drizzle-orm';
import {
  clients,
  invoices,
  jobs,
  mailOutbox,
  payments,
  quoteRequestEvents,
  quoteRequests,
  textMessages,
  visits,
} from '../../src/server/db/schema';
import { newId } from '../../src/server/db/ids';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/**
 * Issue 28, item 9: the dashboard's "Needs you today". Each test app has a database of its own, so the
 * counts are exactly the rows made here.
 */
describe.each(dbKinds)('needs you today (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const send = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const today = () => todayIn('America/Los_Angeles');

  it('reads well with nothing waiting: every list empty', async () => {
    const body = await send('GET', '/api/dashboard/today');
    expect(body.date).toBe(today());
    for (const list of [
      'visits',
      'acceptedRequests',
      'jobsWithoutVisit',
      'jobsToInvoice',
      'unpaidDeposits',
      'failingEmails',
    ]) {
      expect(body[list], list).toEqual({ count: 0, items: [] });
    }
  });

  it('counts and lists what waits: each record with the id its link opens', async () => {
    // Today's visits, in the business's zone: one just after midnight, one late; not tomorrow's, not a cancelled one.
    const visited = await insertJob(t, { name: 'Visited Today' });
    const early = await send('POST', `/api/jobs/${visited}/visits`, { date: today(), start: '00:30', end: '01:30' });
    await send('POST', `/api/jobs/${visited}/visits`, { date: today(), start: '22:00', end: '23:30' });
    await send('POST', `/api/jobs/${visited}/visits`, { date: addDays(today(), 1), start: '00:15', end: '01:00' });
    const dropped = await send('POST', `/api/jobs/${visited}/visits`, { date: today(), start: '12:00', end: '13:00' });
    await send('POST', `/api/visits/${dropped._id}/cancel`, { reason: 'The parts are late.' });
    expect(early.date).toBe(today());

    // A request accepted for quoting (a pending one is not the owner's to quote yet).
    const accepted = await createQuoteRequest(t, { name: 'Waiting Quote' });
    await send('PUT', `/api/quoterequest/markAccepted/${accepted._id}`);
    await createQuoteRequest(t, { name: 'Still Pending' });

    // Open jobs: one with no visit; the visited one has its visits.
    const unscheduled = await insertJob(t, { name: 'No Visit Yet' });
    // Made an hour before the next: PGlite's clock can give two jobs made at once the same moment, and
    // the list's newest-first order is what is checked below.
    await t.database.db
      .update(jobs)
      .set({ createdAt: sql`now() - interval '1 hour'` })
      .where(eq(jobs.id, unscheduled));
    // Only a cancelled visit still leaves a job with no visit.
    const onlyCancelled = await insertJob(t, { name: 'Visit Called Off', status: 'In Progress' });
    const off = await send('POST', `/api/jobs/${onlyCancelled}/visits`, {
      date: addDays(today(), 3),
      start: '09:00',
      end: '10:00',
    });
    await send('POST', `/api/visits/${off._id}/cancel`, { reason: 'Client away.' });

    // Completed jobs: one without an invoice, one invoiced.
    const toInvoice = await insertJob(t, { name: 'Done Not Billed', status: 'Completed' });
    const billed = await insertJob(t, { name: 'Done And Billed', status: 'Completed' });
    await send('POST', `/api/jobs/${billed}/invoice`);

    // A sent deposit with something owed, and one paid in full.
    const deposit = (over: object) => ({
      id: newId(),
      kind: 'deposit' as const,
      state: 'Sent' as const,
      clientName: 'Deposit Client',
      clientEmail: 'deposit@home.test',
      address: '1 Oak Ave, Davis, CA 95616',
      taxRateBasisPoints: 800,
      subtotalCents: 20_000,
      totalCents: 20_000,
      issueDate: today(),
      dueDate: addDays(today(), 14),
      ...over,
    });
    const owing = deposit({ number: 'INV-2099-9001', paidCents: 5_000 });
    await t.database.db.insert(invoices).values([owing, deposit({ number: 'INV-2099-9002', paidCents: 20_000 })]);

    // An e-mail the relay cannot deliver, in a request's history; one that went out; one called off.
    const failing = { id: newId(), toAddress: 'bounced@home.test', subject: 'Your quote QT1', text: 't', html: 'h' };
    await t.database.db.insert(mailOutbox).values([
      { ...failing, lastError: '550 mailbox unavailable', attempts: 3 },
      { ...failing, id: newId(), subject: 'Sent fine', sent: true, lastError: 'timeout' },
      { ...failing, id: newId(), subject: 'Called off', cancelledAt: new Date(), lastError: 'timeout' },
    ]);
    await t.database.db.insert(quoteRequestEvents).values({
      id: newId(),
      quoteRequestId: accepted._id,
      kind: 'quote_sent',
      actor: 'staff',
      mailId: failing.id,
    });

    const body = await send('GET', '/api/dashboard/today');
    expect(body.visits.count).toBe(2);
    expect(body.visits.items).toEqual([
      { id: visited, label: 'Visited Today', detail: '12:30 AM – 1:30 AM · Davis' },
      { id: visited, label: 'Visited Today', detail: '10:00 PM – 11:30 PM · Davis' },
    ]);
    expect(body.acceptedRequests).toEqual({
      count: 1,
      items: [{ id: accepted._id, label: 'Waiting Quote', detail: `Request ${accepted.quoteNumber} · Sacramento` }],
    });
    expect(body.jobsWithoutVisit.count).toBe(2);
    // Newest first.
    expect(body.jobsWithoutVisit.items.map((i: { id: string }) => i.id)).toEqual([onlyCancelled, unscheduled]);
    expect(body.jobsWithoutVisit.items[1].label).toBe('No Visit Yet');
    expect(body.jobsToInvoice).toEqual({
      count: 1,
      items: [{ id: toInvoice, label: 'Done Not Billed', detail: expect.stringMatching(/^Job J\w{9} · Davis$/) }],
    });
    expect(body.unpaidDeposits).toEqual({
      count: 1,
      items: [{ id: owing.id, label: 'INV-2099-9001 · Deposit Client', detail: '$150.00 owed' }],
    });
    expect(body.failingEmails).toEqual({
      count: 1,
      items: [{ id: accepted._id, label: 'Your quote QT1', detail: 'To bounced@home.test' }],
    });
  });
  it('counts every failing e-mail and text while listing the first few: the count is not the list’s length', async () => {
    // Each test app has a database of its own, but the test before left one failing e-mail: start from none.
    await t.database.db.update(mailOutbox).set({ cancelledAt: new Date() }).where(eq(mailOutbox.sent, false));
    const extra = NEEDS_YOU_LIST_LIMIT + 2;
    const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
    await t.database.db.insert(mailOutbox).values(
      Array.from({ length: extra }, (_, i) => ({
        id: newId(),
        toAddress: `bounced${i}@home.test`,
        subject: `Failing ${i}`,
        text: 't',
        html: 'h',
        lastError: '550 mailbox unavailable',
        attempts: 3,
        createdAt: minutesAgo(100 - i),
      })),
    );
    const [client] = await t.database.db
      .insert(clients)
      .values({ id: newId(), name: 'Texted Client', email: 'texted@home.test' })
      .returning({ id: clients.id });
    const text = (i: number, over: Partial<typeof textMessages.$inferInsert> = {}) => ({
      id: newId(),
      kind: 'visit-booked' as const,
      toNumber: `+1916555${String(1000 + i)}`,
      body: 'Your visit is booked.',
      state: 'failed' as const,
      createdAt: minutesAgo(100 - i),
      ...over,
    });
    await t.database.db.insert(textMessages).values([
      ...Array.from({ length: extra }, (_, i) =>
        text(i, i % 2 ? { clientId: client!.id, reason: '30003: Unreachable' } : { state: 'not-sent' }),
      ),
      // Neither counts: one delivered, one failed more than a week ago.
      text(90, { state: 'delivered' }),
      text(91, { createdAt: new Date(Date.now() - 8 * 86_400_000) }),
    ]);

    const body = await send('GET', '/api/dashboard/today');
    // E-mails oldest first, texts newest first; each list the first NEEDS_YOU_LIST_LIMIT, each count all.
    expect(body.failingEmails.count).toBe(extra);
    expect(body.failingEmails.items.map((i: { label: string }) => i.label)).toEqual(
      Array.from({ length: NEEDS_YOU_LIST_LIMIT }, (_, i) => `Failing ${i}`),
    );
    expect(body.failingTexts.count).toBe(extra);
    expect(body.failingTexts.items).toHaveLength(NEEDS_YOU_LIST_LIMIT);
    expect(body.failingTexts.items[0]).toEqual({ id: null, label: '+19165551006', detail: 'Not delivered' });
    expect(body.failingTexts.items[1]).toEqual({
      id: client!.id,
      label: 'Texted Client',
      detail: '30003: Unreachable',
    });
  });

  it('is kept between changes, and each kind of change shows at once: a request accepted or renamed, a visit, a payment', async () => {
    type List = { count: number; items: { id: string | null; label: string; detail: string }[] };
    const lists = async () => (await send('GET', '/api/dashboard/today')) as Record<string, List>;
    const before = await lists();

    // A request accepted for quoting (its status), then its client's name corrected (its words).
    const request = await createQuoteRequest(t, { name: 'Kept Lists Client' });
    await send('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const accepted = await lists();
    expect(accepted.acceptedRequests!.count).toBe(before.acceptedRequests!.count + 1);
    expect(accepted.acceptedRequests!.items[0]!.label).toBe('Kept Lists Client');
    await t.database.db
      .update(quoteRequests)
      .set({ contactName: 'Kept Lists Renamed' })
      .where(eq(quoteRequests.id, request._id));
    expect((await lists()).acceptedRequests!.items[0]!.label).toBe('Kept Lists Renamed');

    // A visit booked for today (the calendar's version).
    const job = await insertJob(t, { name: 'Kept Lists Visit' });
    const visit = await send('POST', `/api/jobs/${job}/visits`, { date: today(), start: '23:00', end: '23:30' });
    const visited = await lists();
    expect(visited.visits!.count).toBe(before.visits!.count + 1);
    // Called off by a change to the visit alone: only the calendar's version moves.
    await t.database.db.update(visits).set({ cancelledAt: new Date() }).where(eq(visits.id, visit._id));
    expect((await lists()).visits!.count).toBe(before.visits!.count);

    // A deposit owed, then paid in full (the money's version).
    const id = newId();
    await t.database.db.insert(invoices).values({
      id,
      number: 'INV-2099-9100',
      kind: 'deposit',
      state: 'Sent',
      clientName: 'Kept Deposit',
      clientEmail: 'kept.deposit@home.test',
      address: '1 Oak Ave, Davis, CA 95616',
      taxRateBasisPoints: 0,
      subtotalCents: 10_000,
      totalCents: 10_000,
      issueDate: today(),
      dueDate: addDays(today(), 14),
    });
    const owed = await lists();
    expect(owed.unpaidDeposits!.items.map((i) => i.id)).toContain(id);
    await t.database.db
      .insert(payments)
      .values({ id: newId(), invoiceId: id, amountCents: 10_000, method: 'cash', paidOn: today() });
    expect((await lists()).unpaidDeposits!.items.map((i) => i.id)).not.toContain(id);
  });
});
