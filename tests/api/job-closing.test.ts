import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, mailOutbox, quotes, visits } from '../../src/server/db/schema';
import { addDays, todayIn } from '../../src/shared/dates';
import { createQuoteRequest, insertJob, sampleQuoteLines } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';
const OWNER = 'owner@handyman.test';

describe.each(dbKinds)('a job’s end is honest (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let crew: { id: string; auth: Record<string, string> };
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    const worker = await createUserAndSignIn(t, 'employee');
    crew = { id: worker.user.id, auth: bearer(worker.token) };
  });
  afterAll(() => t.close());

  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: object, payload?: object) => {
    const res = await t.app.inject({
      method,
      url,
      headers: headers as Record<string, string>,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };

  /** A job of a sold quote (two lines), the worker on it, in progress. */
  async function jobInProgress() {
    const request = await createQuoteRequest(t);
    const email = `end${randomUUID().slice(0, 8)}@home.test`;
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email, status: 'In Progress' });
    await ok('POST', `/api/jobs/${jobId}/assign`, admin, { workers: [{ _id: crew.id }] });
    return { jobId, email };
  }

  /** A visit in `days` days: its reminder waits in the outbox. */
  async function visitIn(jobId: string, days: number) {
    const visit = await ok('POST', `/api/jobs/${jobId}/visits`, admin, {
      date: addDays(todayIn(ZONE), days),
      start: '09:00',
      end: '11:00',
      confirm: true,
    });
    const [row] = await t.database.db.select().from(visits).where(eq(visits.id, visit._id));
    expect(row!.reminderMailId).not.toBeNull();
    return row!;
  }
  const outboxRow = async (id: string) =>
    (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;

  it('the report of a job completed with items not ticked lists the sold work as done, never "Not done"', async () => {
    const { jobId, email } = await jobInProgress();
    const record = await ok('GET', `/api/my/jobs/${jobId}/record`, crew.auth);
    const [paint] = record.checklist as { _id: string; text: string }[];
    await ok('PUT', `/api/my/jobs/${jobId}/checklist/${paint!._id}`, crew.auth, { text: paint!.text, done: true });
    // The crew's own item, left unticked: not the client's business.
    await ok('PUT', `/api/my/jobs/${jobId}/checklist/${randomUUID()}`, crew.auth, {
      text: 'Look at the fence post',
      done: false,
    });
    await ok('POST', `/api/my/jobs/${jobId}/complete`, crew.auth);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your job report')), {
      what: 'job report',
    });
    const text = await pdfText(mail.parsed.attachments[0]!.content);
    expect(text).toContain('Paint × 2');
    expect(text).toContain('Rehang the gate (3.5 h)');
    expect(text).not.toContain('Not done');
    expect(text).not.toContain('Look at the fence post');
  });

  it('completing a job calls off its coming visits’ reminders', async () => {
    const { jobId } = await jobInProgress();
    const soon = await visitIn(jobId, 3);
    const later = await visitIn(jobId, 10);
    await ok('POST', `/api/my/jobs/${jobId}/complete`, crew.auth);
    for (const v of [soon, later]) expect((await outboxRow(v.reminderMailId!)).cancelledAt).not.toBeNull();
    const [after] = await t.database.db.select().from(visits).where(eq(visits.id, soon.id));
    expect(after!.reminderMailId).toBeNull();
  });

  it('cancelling a job calls off its visits’ reminders; undoing the cancellation books them again', async () => {
    const { jobId, email } = await jobInProgress();
    const visit = await visitIn(jobId, 4);
    await ok('PATCH', `/api/jobs/${jobId}/status`, admin, { status: 'Cancelled', reason: 'The client moved' });
    expect((await outboxRow(visit.reminderMailId!)).cancelledAt).not.toBeNull();

    await ok('POST', `/api/jobs/${jobId}/undo-cancel`, admin);
    const [back] = await t.database.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(back!.reminderMailId).not.toBeNull();
    const reminder = await outboxRow(back!.reminderMailId!);
    expect(reminder).toMatchObject({ toAddress: email, cancelledAt: null, sent: false });
    expect(reminder.subject).toContain('Reminder');
    expect(reminder.nextAttemptAt.getTime()).toBe(back!.startsAt.getTime() - 86_400_000);
  });

  it('tells the office when a job ends with its deposit invoice unpaid, and says nothing once it is paid', async () => {
    // A quote with a 25% deposit, accepted: the job and its deposit invoice.
    async function soldWithDeposit(name: string) {
      const email = `dep${randomUUID().slice(0, 8)}@home.test`;
      const request = await createQuoteRequest(t, { email, name });
      await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`, admin);
      await ok('POST', '/api/quotes/sendQuote', admin, {
        ...sampleQuoteLines,
        quoteRequestId: request._id,
        deposit: { kind: 'percent', value: 25 },
      });
      const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
        what: 'quote e-mail',
      });
      const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text!)![0]);
      const quoteId = link.pathname.split('/').pop()!;
      await ok(
        'POST',
        `/api/client-quotes/${quoteId}/answer`,
        {},
        {
          action: 'accept',
          token: link.searchParams.get('token'),
          signatureName: name,
        },
      );
      const [quote] = await t.database.db.select().from(quotes).where(eq(quotes.quoteId, quoteId));
      const [job] = await t.database.db.select().from(jobs).where(eq(jobs.quoteId, quote!.id));
      const { deposit } = await ok('GET', `/api/jobs/${job!.id}/invoice`, admin);
      expect(deposit.balance).toBeGreaterThan(0);
      return { jobId: job!.id, deposit };
    }
    const noticeOf = (number: string) =>
      smtp.to(OWNER).filter((m) => m.parsed.subject?.includes(`deposit ${number} still open`));

    // Cancelled with the deposit unpaid.
    const cancelled = await soldWithDeposit('Pat Cancel');
    await ok('PATCH', `/api/jobs/${cancelled.jobId}/status`, admin, { status: 'Cancelled', reason: 'Changed plans' });
    const notice = await waitFor(() => noticeOf(cancelled.deposit.number)[0], {
      what: 'owner notice (cancelled)',
      timeoutMs: 20_000,
    });
    expect(notice.parsed.subject).toContain('cancelled');
    expect(notice.parsed.text).toContain(`$${cancelled.deposit.balance.toFixed(2)} unpaid`);
    expect(notice.parsed.text).toContain('Void the deposit invoice');

    // Completed with the deposit unpaid.
    const completed = await soldWithDeposit('Lee Complete');
    await ok('PATCH', `/api/jobs/${completed.jobId}/status`, admin, { status: 'In Progress' });
    await ok('PATCH', `/api/jobs/${completed.jobId}/status`, admin, { status: 'Completed' });
    const done = await waitFor(() => noticeOf(completed.deposit.number)[0], {
      what: 'owner notice (completed)',
      timeoutMs: 20_000,
    });
    expect(done.parsed.subject).toContain('completed');

    // Paid in full: nothing to tell.
    const paid = await soldWithDeposit('Kim Paid');
    await ok('POST', `/api/invoices/${paid.deposit._id}/payments`, admin, {
      amount: paid.deposit.balance,
      method: 'check',
      paidOn: todayIn(ZONE),
    });
    await ok('PATCH', `/api/jobs/${paid.jobId}/status`, admin, { status: 'Cancelled', reason: 'Changed plans' });
    await new Promise((r) => setTimeout(r, 1500));
    const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, OWNER));
    expect(rows.filter((r) => r.subject.includes(`deposit ${paid.deposit.number}`))).toHaveLength(0);
  });
});
