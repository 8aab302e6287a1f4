import { randomUUID } from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/server/db/ids';
import {
  invoiceLines,
  invoices,
  jobMaterials,
  jobRecords,
  jobTimeEntries,
  mailOutbox,
  payments,
  users,
} from '../../src/server/db/schema';
import {
  fewMatchesPage,
  invoiceBatches,
  listInvoices,
  paymentBatches,
  type InvoiceFilter,
} from '../../src/server/invoices/repository';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { addDays, todayIn, zonedTimeToUtc } from '#shared/dates';

const today = () => todayIn('America/Los_Angeles');

describe.each(dbKinds)('invoices and payments (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let adminId: string;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    const signedIn = await createUserAndSignIn(t, 'admin');
    admin = bearer(signedIn.token);
    adminId = signedIn.user.id;
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'PUT' | 'DELETE' | 'POST' | 'PATCH', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** A completed job sold with a quote (2 × $34.99 paint, 3.5 h at $65), with what the crew recorded. */
  async function completedJob(extra: { materialCents?: number | null; minutes?: number } = {}) {
    const request = await createQuoteRequest(t);
    const email = `inv${randomUUID().slice(0, 8)}@home.test`;
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email, status: 'Completed' });
    const db = t.database.db;
    if (extra.materialCents !== undefined)
      await db.insert(jobMaterials).values({
        id: randomUUID(),
        jobId,
        name: 'Post anchor',
        quantity: '2',
        unitPriceCents: extra.materialCents,
      });
    if (extra.minutes)
      await db.insert(jobTimeEntries).values({
        id: randomUUID(),
        jobId,
        userId: adminId,
        workDate: '2026-11-20',
        minutes: extra.minutes,
      });
    return { jobId, email };
  }

  it('drafts an invoice from a completed job: the sold lines, the crew’s materials and time beyond the quote', async () => {
    const { jobId } = await completedJob({ materialCents: 1250, minutes: 300 });
    const res = await send('POST', `/api/jobs/${jobId}/invoice`);
    expect(res.statusCode, res.body).toBe(201);
    const invoice = res.json();
    expect(invoice).toMatchObject({ status: 'Draft', number: null, pdfUrl: null });
    expect(invoice.lines).toEqual([
      { description: 'Paint', quantity: 2, unitPrice: 34.99, amount: 69.98, taxable: true },
      { description: 'Rehang the gate (hours)', quantity: 3.5, unitPrice: 65, amount: 227.5, taxable: true },
      { description: 'Post anchor (used on the job)', quantity: 2, unitPrice: 12.5, amount: 25, taxable: true },
      { description: 'Time beyond the quote (hours)', quantity: 1.5, unitPrice: 65, amount: 97.5, taxable: true },
    ]);
    // 419.98 + 8% (33.60) = 453.58
    expect(invoice).toMatchObject({ subtotal: 419.98, tax: 33.6, total: 453.58, balance: 453.58 });
    const again = await send('POST', `/api/jobs/${jobId}/invoice`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('INVOICE_EXISTS');
    expect((await send('GET', `/api/jobs/${jobId}/invoice`)).json().invoice._id).toBe(invoice._id);
  });

  it('refuses a job that is not completed, or whose extra materials are not priced; two drafts at once make one', async () => {
    const open = await insertJob(t, { status: 'In Progress' });
    expect((await send('POST', `/api/jobs/${open}/invoice`)).json().code).toBe('JOB_NOT_COMPLETED');
    const unpriced = await completedJob({ materialCents: null });
    const refused = await send('POST', `/api/jobs/${unpriced.jobId}/invoice`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'UNPRICED_MATERIALS',
      message: expect.stringContaining('Post anchor'),
    });
    const { jobId } = await completedJob();
    const both = await Promise.all([
      send('POST', `/api/jobs/${jobId}/invoice`),
      send('POST', `/api/jobs/${jobId}/invoice`),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('edits a draft, sends it numbered with its PDF and a link the client opens; then it no longer changes', async () => {
    const { jobId, email } = await completedJob();
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    const edited = await send('PUT', `/api/invoices/${draft._id}`, {
      lines: [
        { description: 'Gate repair', quantity: 1, unitPrice: 300 },
        { description: 'Returning client discount', quantity: 1, unitPrice: -20 },
      ],
      dueDays: 30,
      notes: 'Thank you!',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ subtotal: 280, tax: 22.4, total: 302.4, dueDays: 30 });
    const sent = await send('POST', `/api/invoices/${draft._id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const invoice = sent.json();
    expect(invoice.number).toMatch(/^INV-\d{4}-\d{4}$/);
    expect(invoice).toMatchObject({ status: 'Sent', balance: 302.4 });
    expect(Date.parse(invoice.dueDate) - Date.parse(invoice.issueDate)).toBe(30 * 86_400_000);

    const mail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Invoice ${invoice.number}`)),
      {
        what: 'invoice e-mail',
      },
    );
    const text = await pdfText(mail.parsed.attachments[0]!.content);
    for (const expected of [invoice.number, 'Gate repair', 'Returning client discount', 'Balance due', '$302.40'])
      expect(text).toContain(expected);
    const link = new URL(/https?:\/\/\S+\/invoice\/\S+/.exec(mail.parsed.text!)![0]);
    const token = link.searchParams.get('token')!;
    const client = await t.app.inject({
      method: 'GET',
      url: `/api/client-invoices/${draft._id}?token=${encodeURIComponent(token)}`,
    });
    expect(client.statusCode, client.body).toBe(200);
    expect(client.json()).toMatchObject({ number: invoice.number, balance: 302.4 });
    expect(client.json()).not.toHaveProperty('clientEmail');
    const pdf = await t.app.inject({ method: 'GET', url: client.json().pdfUrl });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const wrong = await t.app.inject({ method: 'GET', url: `/api/client-invoices/${draft._id}?token=nope` });
    expect(wrong.statusCode).toBe(403);

    const late = await send('PUT', `/api/invoices/${draft._id}`, {
      lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      dueDays: 1,
      notes: '',
    });
    expect(late.json().code).toBe('INVOICE_NOT_DRAFT');
    expect((await send('POST', `/api/invoices/${draft._id}/send`)).statusCode).toBe(409);
  });

  it('numbers 50 invoices sent at once 50 consecutive numbers, without gaps', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const id = newId();
      ids.push(id);
      await t.database.db.insert(invoices).values({
        id,
        clientName: `Race ${i}`,
        clientEmail: `race${i}@home.test`,
        address: '1 Main St, Davis, CA 95616',
        taxRateBasisPoints: 0,
        subtotalCents: 1000,
        totalCents: 1000,
      });
      await t.database.db
        .insert(invoiceLines)
        .values({ id: newId(), invoiceId: id, position: 0, description: 'Work', quantity: '1', unitPriceCents: 1000 });
    }
    const results = await Promise.all(ids.map((id) => send('POST', `/api/invoices/${id}/send`)));
    expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    const numbers = results.map((r) => Number(r.json().number.slice(-4))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers.at(-1)! - numbers[0]!).toBe(49);
  });

  it('records partial and final payments, refuses an overpayment, and e-mails a receipt for each', async () => {
    const before = (await send('GET', '/api/dashboard')).json();
    const { jobId, email } = await completedJob();
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    expect(
      (
        await send('POST', `/api/invoices/${draft._id}/payments`, { method: 'cash', paidOn: '2026-11-20', amount: 1 })
      ).json().code,
    ).toBe('INVOICE_NOT_PAYABLE');
    const invoice = (await send('POST', `/api/invoices/${draft._id}/send`)).json();
    const total = invoice.balance; // 297.48 + 8% = 321.28
    expect(total).toBe(321.28);
    const partial = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'check',
      reference: '1042',
      paidOn: today(),
      amount: 100,
    });
    expect(partial.statusCode, partial.body).toBe(201);
    expect(partial.json()).toMatchObject({ status: 'Partially Paid', paid: 100, balance: 221.28 });
    const midway = (await send('GET', '/api/dashboard')).json();
    expect(midway.outstanding).toBeCloseTo(before.outstanding + 221.28, 2);
    const over = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'cash',
      paidOn: '2026-11-21',
      amount: 221.29,
    });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'OVERPAYMENT', message: expect.stringContaining('$221.28') });
    const future = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'cash',
      paidOn: '2099-01-01',
      amount: 1,
    });
    expect(future.statusCode).toBe(400);
    const rest = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'bank transfer',
      paidOn: today(),
      amount: 221.28,
    });
    expect(rest.json()).toMatchObject({ status: 'Paid', balance: 0, paid: 321.28 });
    expect(rest.json().payments.map((p: { method: string; reference: string }) => [p.method, p.reference])).toEqual([
      ['check', '1042'],
      ['bank transfer', ''],
    ]);
    const receipts = await waitFor(
      () => {
        const found = smtp.to(email).filter((m) => m.parsed.subject?.startsWith('Receipt for invoice'));
        return found.length === 2 ? found : undefined;
      },
      { what: 'two receipts' },
    );
    expect(receipts.map((m) => m.parsed.text).join('\n')).toContain('paid in full');
    // Revenue is what was received, without the sales tax it carried: $321.28 paid, $297.48 earned.
    const after = (await send('GET', '/api/dashboard')).json();
    expect(after.revenue).toBeCloseTo(before.revenue + 297.48, 2);
    expect(after.revenueThisMonth).toBeCloseTo(before.revenueThisMonth + 297.48, 2);
    expect(after.outstanding).toBeCloseTo(before.outstanding, 2);
  });

  it('takes one of two payments at once that together would pay too much', async () => {
    const { jobId } = await completedJob();
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    await send('POST', `/api/invoices/${draft._id}/send`);
    const pay = () =>
      send('POST', `/api/invoices/${draft._id}/payments`, { method: 'cash', paidOn: '2026-11-20', amount: 200 });
    const both = await Promise.all([pay(), pay()]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await send('GET', `/api/invoices/${draft._id}`)).json()).toMatchObject({ paid: 200, balance: 121.28 });
  });

  it("keeps each invoice's paid amount equal to its payments: recorded at once, changed, moved or removed", async () => {
    const sentInvoice = async () => {
      const { jobId } = await completedJob();
      const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
      await send('POST', `/api/invoices/${draft._id}/send`);
      return draft._id as string;
    };
    const [a, b] = [await sentInvoice(), await sentInvoice()];
    const paid = await Promise.all(
      [a, a, a, a, a, b].map((id) =>
        send('POST', `/api/invoices/${id}/payments`, { method: 'cash', paidOn: '2026-11-20', amount: 10.01 }),
      ),
    );
    expect(paid.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    expect((await send('GET', `/api/invoices/${a}`)).json()).toMatchObject({ paid: 50.05, balance: 271.23 });
    // By hand, as a correction in the database would: the kept figure follows every change.
    const db = t.database.db;
    const onA = await db.select().from(payments).where(eq(payments.invoiceId, a));
    await db.update(payments).set({ amountCents: 2500 }).where(eq(payments.id, onA[0]!.id));
    await db.update(payments).set({ invoiceId: b }).where(eq(payments.id, onA[1]!.id));
    await db.delete(payments).where(eq(payments.id, onA[2]!.id));
    expect((await send('GET', `/api/invoices/${a}`)).json()).toMatchObject({ paid: 45.02 });
    expect((await send('GET', `/api/invoices/${b}`)).json()).toMatchObject({ paid: 20.02 });
    // Every invoice this database holds (all the tests before this one's too) agrees with its payments.
    const disagreeing = await db.execute(sql`
      select i.id from ${invoices} i
      where i.paid_cents <> coalesce((select sum(p.amount_cents) from ${payments} p where p.invoice_id = i.id), 0)`);
    expect((disagreeing as unknown as { rows: unknown[] }).rows).toEqual([]);
  });

  it('voids a sent invoice with a reason, keeping its number; a paid one is not voided; a draft is deleted', async () => {
    const a = await completedJob();
    const draftA = (await send('POST', `/api/jobs/${a.jobId}/invoice`)).json();
    const sent = (await send('POST', `/api/invoices/${draftA._id}/send`)).json();
    expect((await send('POST', `/api/invoices/${draftA._id}/void`, { reason: '' })).statusCode).toBe(400);
    const voided = await send('POST', `/api/invoices/${draftA._id}/void`, { reason: 'Billed the wrong client' });
    expect(voided.json()).toMatchObject({ status: 'Void', number: sent.number, voidReason: 'Billed the wrong client' });
    // The job may be invoiced again.
    expect((await send('POST', `/api/jobs/${a.jobId}/invoice`)).statusCode).toBe(201);

    const b = await completedJob();
    const draftB = (await send('POST', `/api/jobs/${b.jobId}/invoice`)).json();
    await send('POST', `/api/invoices/${draftB._id}/send`);
    await send('POST', `/api/invoices/${draftB._id}/payments`, { method: 'cash', paidOn: '2026-11-20', amount: 10 });
    expect((await send('POST', `/api/invoices/${draftB._id}/void`, { reason: 'x' })).statusCode).toBe(409);

    const c = await completedJob();
    const draftC = (await send('POST', `/api/jobs/${c.jobId}/invoice`)).json();
    expect((await send('POST', `/api/invoices/${draftC._id}/void`, { reason: 'x' })).statusCode).toBe(409);
    expect((await send('DELETE', `/api/invoices/${draftC._id}`)).statusCode).toBe(204);
    expect((await send('GET', `/api/invoices/${draftC._id}`)).statusCode).toBe(404);
    const list = (await send('GET', '/api/invoices?page=1&limit=100')).json();
    expect(list.invoices.some((i: { _id: string }) => i._id === draftA._id)).toBe(true);
  });

  it('is the office’s alone', async () => {
    const crew = await createUserAndSignIn(t, 'employee');
    await t.database.db.update(users).set({ fullName: 'Crew' }).where(eq(users.id, crew.user.id));
    expect((await send('GET', '/api/invoices', undefined, bearer(crew.token))).statusCode).toBe(403);
  });

  it('lists invoices by status (the database agrees with invoiceStatusOf on every status) and finds them by number or client', async () => {
    const made: Record<string, string> = {};
    const draftOf = async (name: string) => {
      const request = await createQuoteRequest(t);
      const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, name, status: 'Completed' });
      return (await send('POST', `/api/jobs/${jobId}/invoice`)).json()._id as string;
    };
    const stamp = randomUUID().slice(0, 6);
    made.Draft = await draftOf(`Filter Draft ${stamp}`);
    for (const status of ['Sent', 'Partially Paid', 'Paid', 'Overdue', 'Void'] as const) {
      const id = await draftOf(`Filter ${status} ${stamp}`);
      const sent = (await send('POST', `/api/invoices/${id}/send`)).json();
      if (status === 'Partially Paid' || status === 'Paid')
        await send('POST', `/api/invoices/${id}/payments`, {
          method: 'cash',
          paidOn: today(),
          amount: status === 'Paid' ? sent.balance : 10,
        });
      if (status === 'Overdue')
        await t.database.db.update(invoices).set({ dueDate: '2020-01-01' }).where(eq(invoices.id, id));
      if (status === 'Void') await send('POST', `/api/invoices/${id}/void`, { reason: 'Wrong client' });
      made[status] = id;
    }
    for (const status of ['Draft', 'Sent', 'Partially Paid', 'Paid', 'Overdue', 'Void']) {
      const listed = (await send('GET', `/api/invoices?limit=100&status=${encodeURIComponent(status)}`)).json();
      expect(listed.invoices.length, status).toBeGreaterThan(0);
      expect(new Set(listed.invoices.map((i: { status: string }) => i.status)), status).toEqual(new Set([status]));
      expect(
        listed.invoices.map((i: { _id: string }) => i._id),
        status,
      ).toContain(made[status]);
      expect(listed.total).toBe(listed.invoices.length);
    }
    const byName = (await send('GET', `/api/invoices?search=${encodeURIComponent(`filter paid ${stamp}`)}`)).json();
    expect(byName.invoices.map((i: { _id: string }) => i._id)).toEqual([made.Paid]);
    const number = (await send('GET', `/api/invoices/${made.Sent}`)).json().number as string;
    expect(
      (await send('GET', `/api/invoices?search=${number}`)).json().invoices.map((i: { _id: string }) => i._id),
    ).toEqual([made.Sent]);
    expect((await send('GET', '/api/invoices?search=%25')).json().total).toBe(0);
    expect((await send('GET', '/api/invoices?status=Lost')).statusCode).toBe(400);
  });

  // Issue 26.1: one rule for revenue, what is owed and overdue, whoever shows it.
  it('the dashboard, the invoice list and Reports give the same money: owed, overdue and revenue', async () => {
    const { jobId } = await completedJob();
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    const sent = (await send('POST', `/api/invoices/${draft._id}/send`)).json();
    await send('POST', `/api/invoices/${draft._id}/payments`, { method: 'check', paidOn: today(), amount: 25.55 });
    await t.database.db.update(invoices).set({ dueDate: '2020-01-01' }).where(eq(invoices.id, sent._id));
    const all: { status: string; balance: number }[] = [];
    for (let page = 1; ; page++) {
      const listed = (await send('GET', `/api/invoices?limit=100&page=${page}`)).json();
      all.push(...listed.invoices);
      if (all.length >= listed.total) break;
    }
    const cents = (dollars: number) => Math.round(dollars * 100);
    const owing = all.filter((i) => ['Sent', 'Partially Paid', 'Overdue'].includes(i.status));
    const dashboard = (await send('GET', '/api/dashboard')).json();
    expect(cents(dashboard.outstanding)).toBe(owing.reduce((sum, i) => sum + cents(i.balance), 0));
    expect(dashboard.overdueInvoices).toBe(all.filter((i) => i.status === 'Overdue').length);
    expect(dashboard.overdueInvoices).toBeGreaterThan(0);
    // Every payment of these tests is dated today: Reports' months add up to the dashboard's revenue.
    const reports = (await send('GET', '/api/reports')).json();
    const months: { month: string; revenue: number }[] = reports.revenueByMonth;
    expect(months.reduce((sum, m) => sum + cents(m.revenue), 0)).toBe(cents(dashboard.revenue));
    expect(cents(months.at(-1)!.revenue)).toBe(cents(dashboard.revenueThisMonth));
    expect(dashboard.revenueThisMonth).toBeGreaterThan(0);
  });

  // Issue 27: the figures are computed once and answered again until a commit changes what they count.
  it('answers the dashboard and Reports from what they computed until a change is committed, then anew', async () => {
    const { jobId } = await completedJob();
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    await send('POST', `/api/invoices/${draft._id}/send`);
    const figures = async () => ({
      dashboard: (await send('GET', '/api/dashboard')).json(),
      reports: (await send('GET', '/api/reports')).json(),
    });
    const before = await figures();
    // A payment written behind the triggers' back (as no code of ours can): the version stands, so the
    // figures computed before are still the answer.
    const db = t.database.db;
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.insert(payments).values({
        id: newId(),
        invoiceId: draft._id,
        method: 'cash',
        paidOn: today(),
        amountCents: 1000,
        recordedBy: null,
      });
    });
    expect(await figures()).toEqual(before);
    // A payment through the app: its commit changes the version, and both figures count both payments.
    const paid = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'check',
      paidOn: today(),
      amount: 2.5,
    });
    expect(paid.statusCode).toBe(201);
    const after = await figures();
    const invoice = (await send('GET', `/api/invoices/${draft._id}`)).json();
    const [taxCents, totalCents] = [Math.round(invoice.tax * 100), Math.round(invoice.total * 100)];
    const net = (cents: number) => cents - Math.round((cents * taxCents) / totalCents);
    expect(Math.round(after.dashboard.revenue * 100) - Math.round(before.dashboard.revenue * 100)).toBe(
      net(1000) + net(250),
    );
    const total = (r: { revenueByMonth: { revenue: number }[] }) =>
      Math.round(r.revenueByMonth.reduce((sum, m) => sum + m.revenue * 100, 0));
    expect(total(after.reports) - total(before.reports)).toBe(
      Math.round(after.dashboard.revenue * 100) - Math.round(before.dashboard.revenue * 100),
    );
  });

  // Pages past the middle are read from the oldest end (prepared per status and end, decision 006).
  it('pages through every invoice, one at a time, in the order of a single page, with or without a status or a search', async () => {
    const pagesAgree = async (filter: string) => {
      const whole = (await send('GET', `/api/invoices?limit=100${filter}`)).json();
      expect(whole.total, filter).toBeGreaterThan(2);
      const ids: string[] = [];
      for (let page = 1; page <= whole.total + 1; page++) {
        const one = (await send('GET', `/api/invoices?limit=1&page=${page}${filter}`)).json();
        expect(one.total, filter).toBe(whole.total);
        ids.push(...one.invoices.map((i: { _id: string }) => i._id));
      }
      expect(ids, filter).toEqual(whole.invoices.map((i: { _id: string }) => i._id));
      return ids;
    };
    for (const filter of ['', '&status=Sent', '&status=Draft']) await pagesAgree(filter);
    const search = { search: 'home.test', today: today() };
    const found = await pagesAgree(`&search=${search.search}`);
    await pagesAgree(`&search=${search.search}&status=Sent`);
    // Newest first, and every match counted, as the database has them.
    const newestFirst = await t.database.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(sql`lower(${invoices.clientEmail}) like '%home.test%' or lower(${invoices.clientName}) like '%home.test%'`)
      .orderBy(desc(invoices.createdAt), desc(invoices.id));
    expect(found).toEqual(newestFirst.map((row) => row.id));
    // Sorted from its few matches (the API's way here) or found by walking the list in order (a search
    // matching more): the same pages, and the same count on each, the page past the last included.
    const n = found.length;
    for (const filter of [search, { ...search, status: 'Sent' as const }] as InvoiceFilter[])
      for (let page = 1; page <= n + 1; page++) {
        const sorted = await listInvoices(t.database.db, { ...filter, page, limit: 1 });
        const walked = await listInvoices(t.database.db, { ...filter, page, limit: 1 }, 0);
        expect(sorted.total, `${filter.status ?? 'any'} page ${page}`).toBe(walked.total);
        expect(sorted.rows.map((row) => row.id)).toEqual(walked.rows.map((row) => row.id));
      }
    // The bound: n matches are sorted when n may be, not when n - 1 may; on a page past the last too.
    for (const page of [1, n + 1]) {
      expect((await fewMatchesPage(t.database.db, search, page, 1, n))?.total, `page ${page}`).toBe(n);
      expect(await fewMatchesPage(t.database.db, search, page, 1, n - 1), `page ${page}`).toBeUndefined();
    }
    expect(await fewMatchesPage(t.database.db, { ...search, search: 'no such client' }, 1, 1)).toEqual({
      rows: [],
      total: 0,
    });
  });

  // Issue 27: the list's counts without a search are kept while the figures' version stands.
  it("keeps the invoice list's counts until a change is committed, then counts anew", async () => {
    const sentInvoice = async () => {
      const { jobId } = await completedJob();
      const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
      return (await send('POST', `/api/invoices/${draft._id}/send`)).json() as { _id: string; balance: number };
    };
    const [paying, other] = [await sentInvoice(), await sentInvoice()];
    const totals = async () => {
      const out = { all: 0, Sent: 0, Paid: 0, Void: 0 };
      for (const status of ['', 'Sent', 'Paid', 'Void'] as const)
        out[status || 'all'] = (
          await send('GET', `/api/invoices?limit=1${status ? `&status=${status}` : ''}`)
        ).json().total;
      return out;
    };
    const before = await totals();
    // One voided behind the triggers' back (as no code of ours can): the version stands, the counts are kept.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.update(invoices).set({ state: 'Void', voidReason: 'Behind the back' }).where(eq(invoices.id, other._id));
    });
    expect(await totals()).toEqual(before);
    // A search is counted live: it finds the change the kept counts do not show yet.
    const number = (await send('GET', `/api/invoices/${other._id}`)).json().number as string;
    expect((await send('GET', `/api/invoices?limit=1&status=Void&search=${number}`)).json().total).toBe(1);
    // A payment in full through the app: its commit moves the version, and every count is read anew.
    const paid = await send('POST', `/api/invoices/${paying._id}/payments`, {
      method: 'check',
      paidOn: today(),
      amount: paying.balance,
    });
    expect(paid.statusCode).toBe(201);
    expect(await totals()).toEqual({
      all: before.all,
      Sent: before.Sent - 2,
      Paid: before.Paid + 1,
      Void: before.Void + 1,
    });
  });

  it('shows a sent invoice past its due date as Overdue, and the dashboard counts it', async () => {
    const before = (await send('GET', '/api/dashboard')).json();
    const { jobId } = await completedJob();
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    await send('POST', `/api/invoices/${draft._id}/send`);
    await t.database.db.update(invoices).set({ dueDate: '2020-01-01' }).where(eq(invoices.id, draft._id));
    expect((await send('GET', `/api/invoices/${draft._id}`)).json().status).toBe('Overdue');
    expect((await send('GET', '/api/dashboard')).json().overdueInvoices).toBe(before.overdueInvoices + 1);
  });

  it('schedules reminders after the due date and calls them off once paid in full or voided', async () => {
    const paidJob = await completedJob();
    const paid = (await send('POST', `/api/jobs/${paidJob.jobId}/invoice`)).json();
    const sent = (await send('POST', `/api/invoices/${paid._id}/send`)).json();
    const reminders = async (id: string) => {
      const [row] = await t.database.db.select().from(invoices).where(eq(invoices.id, id));
      return Promise.all(
        row!.reminderMailIds.map(
          async (mailId) => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId)))[0]!,
        ),
      );
    };
    let waiting = await reminders(paid._id);
    // The settings' default: 7 and 14 days after the due date, at 09:00 in the business's zone.
    expect(waiting.map((m) => m.nextAttemptAt.toISOString())).toEqual(
      [7, 14].map((d) => zonedTimeToUtc(addDays(sent.dueDate, d), '09:00', 'America/Los_Angeles').toISOString()),
    );
    expect(waiting.every((m) => m.cancelledAt === null && m.subject.startsWith('Reminder: invoice'))).toBe(true);
    await send('POST', `/api/invoices/${paid._id}/payments`, { method: 'cash', paidOn: today(), amount: 20 });
    expect((await reminders(paid._id)).every((m) => m.cancelledAt === null)).toBe(true);
    await send('POST', `/api/invoices/${paid._id}/payments`, {
      method: 'cash',
      paidOn: today(),
      amount: sent.balance - 20,
    });
    waiting = await reminders(paid._id);
    expect(waiting.every((m) => m.cancelledAt !== null)).toBe(true);

    const voidJob = await completedJob();
    const voided = (await send('POST', `/api/jobs/${voidJob.jobId}/invoice`)).json();
    await send('POST', `/api/invoices/${voided._id}/send`);
    await send('POST', `/api/invoices/${voided._id}/void`, { reason: 'Sent twice' });
    expect((await reminders(voided._id)).every((m) => m.cancelledAt !== null)).toBe(true);
  });

  it('downloads invoices and payments as CSV a spreadsheet opens safely', async () => {
    const request = await createQuoteRequest(t);
    const jobId = await insertJob(t, {
      withQuote: true,
      quoteRequestId: request._id,
      status: 'Completed',
      name: '=HYPERLINK("http://evil.test","Click")',
    });
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    const sent = (await send('POST', `/api/invoices/${draft._id}/send`)).json();
    await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'check',
      reference: '-1',
      paidOn: today(),
      amount: 21.28,
    });
    const invoicesCsv = await send('GET', '/api/invoices.csv');
    expect(invoicesCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = invoicesCsv.body.replace(/^\uFEFF/, '').split(/\r?\n/);
    expect(rows[0]).toBe(
      'Number,Status,Client,E-mail,Address,Issued,Due,Subtotal,Tax,Total,Deposit credited,Paid,Balance,Void reason',
    );
    const line = rows.find((r) => r.startsWith(sent.number))!;
    expect(line).toContain(`"'=HYPERLINK(""http://evil.test"",""Click"")"`);
    expect(line, line).toContain('Partially Paid');
    expect(line).toContain(',297.48,23.8,321.28,0,21.28,300,');
    const paymentsCsv = (await send('GET', '/api/payments.csv')).body;
    expect(paymentsCsv).toContain(`,${sent.number},`);
    expect(paymentsCsv).toContain(",check,'-1,21.28,");

    // Both are written as they are read, a batch at a time (decision 028): read two by two, every
    // invoice and payment comes once, in the order of the whole list (a key of microseconds
    // rounded to a JavaScript date would read rows again).
    const joined = async <T>(batches: AsyncIterable<T[]>) => {
      const all: T[] = [];
      for await (const batch of batches) all.push(...batch);
      return all;
    };
    for (let i = 0; i < 4; i++) {
      const another = await insertJob(t, {
        withQuote: true,
        quoteRequestId: (await createQuoteRequest(t))._id,
        status: 'Completed',
      });
      expect((await send('POST', `/api/jobs/${another}/invoice`)).statusCode).toBe(201);
    }
    for (const amount of [1, 2]) {
      await send('POST', `/api/invoices/${draft._id}/payments`, { method: 'cash', paidOn: today(), amount });
    }
    const db = t.database.db;
    const everyInvoice = await db
      .select({ id: invoices.id })
      .from(invoices)
      .orderBy(asc(invoices.createdAt), asc(invoices.id));
    expect(everyInvoice.length).toBeGreaterThan(4);
    expect((await joined(invoiceBatches(db, 2))).map((r) => r.invoice.id)).toEqual(everyInvoice.map((r) => r.id));
    const everyPayment = await db
      .select({ id: payments.id })
      .from(payments)
      .orderBy(asc(payments.paidOn), asc(payments.createdAt), asc(payments.id));
    expect(everyPayment.length).toBeGreaterThan(2);
    expect((await joined(paymentBatches(db, 2))).map((r) => r.payment.id)).toEqual(everyPayment.map((r) => r.id));
    expect(parse((await send('GET', '/api/invoices.csv')).body, { bom: true, columns: true })).toHaveLength(
      everyInvoice.length,
    );
  });

  it('reports revenue by month, the funnel from request to paid, and the averages', async () => {
    const before = (await send('GET', '/api/reports')).json();
    expect(before.revenueByMonth.at(-1).month).toBe(today().slice(0, 7));
    expect(before.revenueByMonth.length).toBeGreaterThanOrEqual(11);
    const { jobId } = await completedJob();
    await t.database.db.insert(jobRecords).values({ jobId, reportAt: new Date(Date.now() - 3 * 86_400_000) });
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    const sent = (await send('POST', `/api/invoices/${draft._id}/send`)).json();
    await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'cash',
      paidOn: today(),
      amount: sent.balance,
    });
    const after = (await send('GET', '/api/reports')).json();
    expect(after.revenueByMonth.at(-1).revenue).toBeCloseTo(before.revenueByMonth.at(-1).revenue + 297.48, 2);
    expect(after.funnel).toMatchObject({
      requests: before.funnel.requests + 1,
      quoted: before.funnel.quoted + 1,
      accepted: before.funnel.accepted + 1,
      paid: before.funnel.paid + 1,
    });
    expect(after.averageDaysToPayment).not.toBeNull();
    expect(after.averageDaysToPayment).toBeGreaterThan(0);
    expect(
      (await send('GET', '/api/reports', undefined, bearer((await createUserAndSignIn(t, 'employee')).token)))
        .statusCode,
    ).toBe(403);
  });

  it('invoices a deposit when a client accepts a quote asking one, and credits what was paid on the final invoice', async () => {
    const email = `dep${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email, name: 'Dana Deposit' });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    const refused = await send('POST', '/api/quotes/sendQuote', {
      quoteRequestId: request._id,
      clientName: 'Dana Deposit',
      projectName: 'Fence',
      materials: [{ name: 'Fence boards', unitPrice: 100, quantity: 5 }],
      labor: [],
      deposit: { kind: 'percent', value: 120 },
    });
    expect(refused.statusCode).toBe(400);
    const sent = await send('POST', '/api/quotes/sendQuote', {
      quoteRequestId: request._id,
      clientName: 'Dana Deposit',
      projectName: 'Fence',
      materials: [{ name: 'Fence boards', unitPrice: 100, quantity: 5 }],
      labor: [],
      deposit: { kind: 'percent', value: 30 },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    // $500 + 8% = $540; 30% of it is $162.
    expect(sent.json().deposit).toEqual({ kind: 'percent', value: 30, due: 162 });
    const quoteMail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/https?:\/\/\S+\/quote\/QT\S+/.exec(quoteMail.parsed.text!)![0]);
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/client-quotes/${link.pathname.split('/').pop()}/answer`,
      payload: { action: 'accept', token: link.searchParams.get('token'), signatureName: 'Dana Deposit' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);

    const depositMail = await waitFor(
      () => smtp.to(email).find((m) => /^Deposit invoice INV-/.test(m.parsed.subject ?? '')),
      { what: 'deposit invoice' },
    );
    expect(await pdfText(depositMail.parsed.attachments[0]!.content)).toContain('Deposit for quote');
    const { jobs: found } = (await send('GET', `/api/jobs?page=1&limit=5&search=Dana%20Deposit`)).json();
    const jobId = found[0]._id as string;
    let both = (await send('GET', `/api/jobs/${jobId}/invoice`)).json();
    expect(both.invoice).toBeNull();
    expect(both.deposit).toMatchObject({ kind: 'deposit', status: 'Sent', total: 162, balance: 162 });
    await send('POST', `/api/invoices/${both.deposit._id}/payments`, {
      method: 'card in person',
      paidOn: today(),
      amount: 162,
    });

    await send('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' });
    expect((await send('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' })).statusCode).toBe(200);
    const final = await send('POST', `/api/jobs/${jobId}/invoice`);
    expect(final.statusCode, final.body).toBe(201);
    expect(final.json()).toMatchObject({ kind: 'final', total: 540, credit: 162, balance: 378 });
    const finalSent = (await send('POST', `/api/invoices/${final.json()._id}/send`)).json();
    expect(finalSent).toMatchObject({ credit: 162, balance: 378 });
    both = (await send('GET', `/api/jobs/${jobId}/invoice`)).json();
    expect(both.deposit.status).toBe('Paid');
    expect(both.invoice.number).toBe(finalSent.number);
  });

  /** A quote for $400 of boards with a 25% deposit and a $100 optional line, accepted (with the option when asked). */
  async function acceptDepositQuote(name: string, withOption = false) {
    const email = `pay${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email, name });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    const sent = await send('POST', '/api/quotes/sendQuote', {
      quoteRequestId: request._id,
      clientName: name,
      projectName: 'Fence',
      materials: [
        { name: 'Fence boards', unitPrice: 100, quantity: 4 },
        { name: 'Stain', unitPrice: 100, quantity: 1, optional: true },
      ],
      labor: [],
      deposit: { kind: 'percent', value: 25 },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const quoteMail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/https?:\/\/\S+\/quote\/QT\S+/.exec(quoteMail.parsed.text!)![0]);
    const quoteId = link.pathname.split('/').pop()!;
    const token = link.searchParams.get('token')!;
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/client-quotes/${quoteId}/answer`,
      payload: {
        action: 'accept',
        token,
        signatureName: name,
        selection: { materials: withOption ? [1] : [], labor: [] },
      },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const depositMail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Deposit invoice INV-`)),
      { what: 'deposit invoice e-mail' },
    );
    return { email, quoteId, token, answer: accepted.json(), depositMail: depositMail.parsed };
  }

  it('the deposit request is titled and worded as a deposit, says how to pay (call us when nothing is set), and the accept answer links the signed PDF and the deposit invoice', async () => {
    const { quoteId, token, answer, depositMail } = await acceptDepositQuote('Pat Nothingset');
    // $400 + 8% = $432; 25% of it: $108.
    expect(depositMail.subject).toMatch(new RegExp(`^Deposit invoice INV-\\d{4}-\\d{4} for quote ${quoteId} – `));
    const text = depositMail.text!;
    expect(text).toMatch(new RegExp(`^Deposit invoice INV-\\d{4}-\\d{4} for quote ${quoteId}`));
    expect(text).toContain(`Thank you for accepting quote ${quoteId}. This is the deposit that books your work`);
    expect(text).toContain('Deposit due $108.00');
    expect(text).toContain('How to pay:');
    expect(text).toMatch(/To pay:\s+Call us at \(916\) 555-0142/);

    // The answer carries the client's documents: both open with what the client holds.
    expect(answer.documents.signedQuotePdf).toBe(
      `/api/client-quotes/${quoteId}/pdf?token=${encodeURIComponent(token)}`,
    );
    const pdf = await t.app.inject({ method: 'GET', url: answer.documents.signedQuotePdf });
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain('Typed signature: Pat Nothingset');
    const invoicePage = new URL(answer.documents.depositInvoice, 'http://x');
    expect(invoicePage.pathname).toMatch(/^\/invoice\//);
    const invoice = await t.app.inject({
      method: 'GET',
      url: `/api/client-invoices/${invoicePage.pathname.split('/').pop()}${invoicePage.search}`,
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    expect(invoice.json()).toMatchObject({ kind: 'deposit', balance: 108 });
    expect(invoice.json().howToPay).toEqual([{ label: 'To pay', text: 'Call us at (916) 555-0142' }]);
  });

  it('prints how clients pay, as set on Settings, on the deposit request, the invoice e-mail, its PDF and the client’s page, until it is paid', async () => {
    const settings = (await send('GET', '/api/settings')).json();
    const { logoUrl: _l, updatedAt: _u, ...values } = settings;
    const saved = await send('PUT', '/api/settings', {
      ...values,
      howClientsPay: {
        checkPayee: 'Sac Handyman LLC',
        checkAddress: 'PO Box 4410\nSacramento, CA 95812',
        bankTransfer: 'Zelle: pay@sachandyman.example',
        cardByPhone: true,
        cardPhone: '',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const { answer, depositMail } = await acceptDepositQuote('Robin Payset', true);
      // With the $100 option: $500 + 8% = $540; 25%: $135.
      const text = depositMail.text!;
      expect(text).toContain('Deposit due $135.00');
      expect(text).toMatch(/By check:\s+Payable to Sac Handyman LLC/);
      expect(text).toContain('Mail to: PO Box 4410');
      expect(text).toMatch(/Zelle or bank transfer:\s+Zelle: pay@sachandyman\.example/);
      expect(text).toMatch(/Card by phone:\s+Call \(916\) 555-0142/);
      expect(text).toMatch(/Reference:\s+Please include INV-\d{4}-\d{4} with your payment/);
      expect(depositMail.html).toContain('Payable to Sac Handyman LLC');
      const pdf = await pdfText(depositMail.attachments[0]!.content);
      expect(pdf).toContain('Deposit invoice');
      expect(pdf).toContain('How to pay');
      expect(pdf).toContain('Payable to Sac Handyman LLC');
      expect(pdf).toContain('Zelle: pay@sachandyman.example');

      const page = new URL(answer.documents.depositInvoice, 'http://x');
      const id = page.pathname.split('/').pop()!;
      const clientView = async () =>
        (await t.app.inject({ method: 'GET', url: `/api/client-invoices/${id}${page.search}` })).json();
      expect((await clientView()).howToPay.map((l: { label: string }) => l.label)).toEqual([
        'By check',
        'Zelle or bank transfer',
        'Card by phone',
        'Reference',
      ]);
      // Paid: nothing more to pay, nothing printed.
      await send('POST', `/api/invoices/${id}/payments`, { method: 'check', paidOn: today(), amount: 135 });
      expect((await clientView()).howToPay).toEqual([]);
      const paidPdf = await t.app.inject({ method: 'GET', url: (await clientView()).pdfUrl });
      expect(await pdfText(paidPdf.rawPayload)).not.toContain('How to pay');
    } finally {
      await send('PUT', '/api/settings', values);
    }
  });
});
