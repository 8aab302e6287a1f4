import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, users, visits } from '../../src/server/db/schema';
import { addDays, todayIn } from '#shared/dates';
import { createQuoteRequest, insertJob, soldJobWithDeposit } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithCrew, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { openDepositAdvice } from '#shared/schemas/invoices';

const ZONE = 'America/Los_Angeles';
const OWNER = 'owner@handyman.test';
/** What the office tells the crew about a visit, and what the crew tells the office: never the client's. */
const CREW_NOTE = 'Gate code 4471, collect the check first';
const OFFICE_NOTE = 'Client was rude; bill the extra hour quietly';
/** What the office and the crew mean the client to read. */
const VISIT_CLIENT_NOTE = 'Please keep the dog inside';
const REPORT_CLIENT_NOTE = 'Let the new caulk cure for a day before using the shower';

/**
 * Every message the client was sent (or will be: the reminders waiting in the outbox), as text: the
 * subject and bodies, each PDF's text and each calendar file.
 */
async function clientDocuments(t: TestApp, email: string) {
  const rows = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const documents: { what: string; text: string }[] = [];
  for (const row of rows) {
    documents.push({ what: `e-mail "${row.subject}"`, text: `${row.subject}\n${row.text}\n${row.html}` });
    for (const a of row.attachments) {
      // A PDF is attached by reference to its stored copy (decision 022): the bytes the relay sends.
      const bytes =
        'document' in a ? (await t.app.documents.current(a.document))!.bytes : Buffer.from(a.contentBase64, 'base64');
      const text = a.contentType.startsWith('application/pdf') ? await pdfText(bytes) : bytes.toString('utf8');
      documents.push({ what: `${a.filename} of "${row.subject}"`, text });
    }
  }
  return documents;
}

/** An .ics's text with its folded lines unfolded (RFC 5545: a line break and a space continue a line). */
const unfold = (ics: string) => ics.replace(/\r?\n[ \t]/g, '');

/*
 * Issue 24, items 7 and 10: only the right words reach the client (no internal note, no network address),
 * and a job's end is honest (the report, the visits' reminders, an open deposit).
 */
describe.each(dbKinds)('only the right words reach the client; a job’s end is honest (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let crew: { id: string; auth: Record<string, string> };
  beforeAll(async () => {
    const office = await createMailingTestAppWithCrew(kind);
    ({ smtp, admin, crew } = office);
    t = office;
    await t.database.db.update(users).set({ fullName: 'Robin Crew' }).where(eq(users.id, crew.id));
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: object, payload?: object) =>
    t.app.inject({ method, url, headers: headers as Record<string, string>, ...(payload ? { payload } : {}) });
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, headers: object, payload?: object) => {
    const res = await send(method, url, headers, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };

  it('a whole cycle (request, quote, yes, visit, the crew’s record, completion, invoice) sends the client no internal note and no network address', async () => {
    const email = `cycle${Date.now()}@home.test`;
    const { quote, jobId } = await soldJobWithDeposit(t, smtp, admin, { email, name: 'Dana Whitfield' });
    // The network address the yes came from is kept (the office and the trail see it).
    expect(quote.acceptedIp).toBe('127.0.0.1');

    // The office books a visit: notes for the crew, and a note the client is meant to read.
    const date = addDays(todayIn(ZONE), 3);
    const visit = await ok('POST', `/api/jobs/${jobId}/visits`, admin, {
      date,
      start: '09:00',
      end: '11:00',
      workerIds: [crew.id],
      notes: CREW_NOTE,
      clientNote: VISIT_CLIENT_NOTE,
      confirm: true,
    });
    expect(visit).toMatchObject({ notes: CREW_NOTE, clientNote: VISIT_CLIENT_NOTE });
    // … and moves it: the client gets a new .ics.
    await ok('PATCH', `/api/visits/${visit._id}`, admin, {
      date,
      start: '10:00',
      end: '12:00',
      workerIds: [crew.id],
      notes: CREW_NOTE,
      clientNote: VISIT_CLIENT_NOTE,
      confirm: true,
    });

    // The crew's record: a note for the office, every item ticked, then Complete.
    await ok('PATCH', `/api/my/jobs/${jobId}/status`, crew.auth, { status: 'In Progress' });
    const record = await ok('GET', `/api/my/jobs/${jobId}/record`, crew.auth);
    for (const item of record.checklist as { _id: string; text: string }[])
      await ok('PUT', `/api/my/jobs/${jobId}/checklist/${item._id}`, crew.auth, { text: item.text, done: true });
    await ok('PUT', `/api/my/jobs/${jobId}/notes`, crew.auth, { notes: OFFICE_NOTE });
    await ok('PUT', `/api/my/jobs/${jobId}/client-note`, crew.auth, { note: REPORT_CLIENT_NOTE });
    await ok('POST', `/api/my/jobs/${jobId}/complete`, crew.auth);

    // The office bills it.
    const invoice = await ok('POST', `/api/jobs/${jobId}/invoice`, admin);
    await ok('POST', `/api/invoices/${invoice._id}/send`, admin);

    // What the client received: the quote, the acceptance, the deposit invoice, the visit, the move,
    // the report, the invoice (and the reminder the relay holds back until the day before).
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your job report')), {
      what: 'job report',
      timeoutMs: 20_000,
    });
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.includes(invoice.number ?? 'INV-')), {
      what: 'invoice e-mail',
      timeoutMs: 20_000,
    });
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.endsWith('is cancelled')), {
      what: 'the visit called off at completion',
      timeoutMs: 20_000,
    });
    const documents = await clientDocuments(t, email);
    const names = documents.map((d) => d.what).join('\n');
    for (const expected of [
      /\.pdf of "Quote QT\d+ accepted/,
      /visit\.ics of "Your visit on/,
      /visit\.ics of "Your visit has moved/,
      /job-report-.*\.pdf/,
      /Reminder/,
    ])
      expect(names).toMatch(expected);
    expect(documents.filter((d) => d.what.includes('.pdf')).length).toBeGreaterThanOrEqual(4);
    for (const d of documents) {
      expect(d.text, d.what).not.toContain(CREW_NOTE);
      expect(d.text, d.what).not.toContain(OFFICE_NOTE);
      expect(d.text, d.what).not.toContain('127.0.0.1');
    }
    // The note meant for the client does reach them: in the e-mail and in the calendar file.
    // Booked, moved, and called off when the crew completed the job before the visit's time.
    const icsFiles = documents.filter((d) => d.what.startsWith('visit.ics'));
    expect(icsFiles).toHaveLength(3);
    for (const ics of icsFiles) expect(unfold(ics.text)).toContain(VISIT_CLIENT_NOTE);
    const booked = documents.find((d) => d.what.startsWith('e-mail "Your visit on') && !d.what.endsWith('cancelled"'))!;
    expect(booked.text).toContain(VISIT_CLIENT_NOTE);
    const report = documents.find((d) => /^job-report-.*\.pdf/.test(d.what))!;
    expect(report.text).toContain('A note from the crew');
    expect(report.text).toContain(REPORT_CLIENT_NOTE);

    // The office still has every word: the visit's notes, the crew's notes, the address of the yes.
    const [stored] = await t.database.db.select().from(visits).where(eq(visits.id, visit._id));
    expect(stored!.notes).toBe(CREW_NOTE);
    expect((await ok('GET', `/api/jobs/${jobId}/record`, admin)).notes).toBe(OFFICE_NOTE);
    const ownerReport = await waitFor(
      () =>
        smtp
          .to('owner@handyman.test')
          .find((m) => m.parsed.subject?.startsWith('Job ') && m.parsed.subject.endsWith('completed: Dana Whitfield')),
      { what: 'owner’s copy of the report', timeoutMs: 20_000 },
    );
    expect(ownerReport.parsed.text).toContain(OFFICE_NOTE);
  });

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

  /** The client's e-mails about one visit (by its .ics's UID), with the calendar method and status. */
  async function visitMails(email: string, visitId: string, count: number) {
    return waitFor(
      () => {
        const found = smtp
          .to(email)
          .map((m) => ({ m, ics: m.parsed.attachments.find((a) => a.filename === 'visit.ics')?.content.toString() }))
          .filter(({ ics }) => ics?.includes(`UID:visit-${visitId}@`));
        return found.length >= count ? found : undefined;
      },
      { what: `${count} e-mails of visit ${visitId}` },
    );
  }

  const cancellationOf = (mails: Awaited<ReturnType<typeof visitMails>>) => {
    const found = mails.filter((v) => v.m.parsed.subject?.endsWith('is cancelled'));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('completing a job calls off its visits still to come: times freed, the client told once per visit, reminders off', async () => {
    const { jobId, email } = await jobInProgress();
    const soon = await visitIn(jobId, 3);
    const later = await visitIn(jobId, 10);
    await ok('POST', `/api/my/jobs/${jobId}/complete`, crew.auth);
    for (const v of [soon, later]) {
      expect((await outboxRow(v.reminderMailId!)).cancelledAt).not.toBeNull();
      const [after] = await t.database.db.select().from(visits).where(eq(visits.id, v.id));
      expect(after).toMatchObject({ reminderMailId: null, cancelReason: 'The work is finished.' });
      expect(after!.cancelledAt).not.toBeNull();
      const cancelled = cancellationOf(await visitMails(email, v.id, 2));
      expect(cancelled.m.parsed.subject).toMatch(/is cancelled$/);
      expect(cancelled.m.parsed.text).toContain('The work is finished. There is nothing you need to do.');
      expect(cancelled.ics).toContain('METHOD:CANCEL');
    }
    // The calendar no longer holds the times.
    const from = new Date().toISOString();
    const to = new Date(Date.now() + 14 * 86_400_000).toISOString();
    const range = await ok('GET', `/api/visits?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, admin);
    expect((range.visits as { jobId: string }[]).filter((v) => v.jobId === jobId)).toEqual([]);
  });

  it('cancelling a job calls off its visits (the office’s reason stays inside); undoing the cancellation books them again', async () => {
    const { jobId, email } = await jobInProgress();
    const visit = await visitIn(jobId, 4);
    await ok('PATCH', `/api/jobs/${jobId}/status`, admin, { status: 'Cancelled', reason: 'The client moved' });
    expect((await outboxRow(visit.reminderMailId!)).cancelledAt).not.toBeNull();
    const cancelled = cancellationOf(await visitMails(email, visit.id, 2));
    expect(cancelled.m.parsed.text).toContain('The job is cancelled.');
    expect(cancelled.m.parsed.text).not.toContain('The client moved');
    expect(cancelled.ics).toContain('METHOD:CANCEL');

    await ok('POST', `/api/jobs/${jobId}/undo-cancel`, admin);
    const [back] = await t.database.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(back).toMatchObject({ cancelledAt: null, cancelReason: null, calledOffWithJob: false });
    // Booked, called off, booked again: the same event, back in the client's calendar.
    const bookings = (await visitMails(email, visit.id, 3)).filter(
      (v) => !v.m.parsed.subject?.endsWith('is cancelled'),
    );
    expect(bookings).toHaveLength(2);
    for (const booked of bookings) {
      expect(booked.m.parsed.subject).toMatch(/^Your visit on /);
      expect(booked.ics).toContain('METHOD:REQUEST');
    }
    expect(back!.reminderMailId).not.toBeNull();
    const reminder = await outboxRow(back!.reminderMailId!);
    expect(reminder).toMatchObject({ toAddress: email, cancelledAt: null, sent: false });
    expect(reminder.subject).toContain('Reminder');
    expect(reminder.nextAttemptAt.getTime()).toBe(back!.startsAt.getTime() - 86_400_000);
  });

  it('a visit the office cancelled itself stays cancelled when the job is reopened', async () => {
    const { jobId } = await jobInProgress();
    const visit = await visitIn(jobId, 5);
    await ok('POST', `/api/visits/${visit.id}/cancel`, admin, { reason: 'The parts are late.' });
    await ok('PATCH', `/api/jobs/${jobId}/status`, admin, { status: 'Cancelled', reason: 'No longer wanted' });
    await ok('POST', `/api/jobs/${jobId}/undo-cancel`, admin);
    const [row] = await t.database.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(row).toMatchObject({ cancelReason: 'The parts are late.', reminderMailId: null });
    expect(row!.cancelledAt).not.toBeNull();
  });

  it('tells the office when a job ends with its deposit invoice unpaid, and says nothing once it is paid', async () => {
    // A quote with a 25% deposit, accepted: the job and its deposit invoice.
    async function soldWithDeposit(name: string) {
      const email = `dep${randomUUID().slice(0, 8)}@home.test`;
      const { jobId } = await soldJobWithDeposit(t, smtp, admin, { email, name });
      const { deposit } = await ok('GET', `/api/jobs/${jobId}/invoice`, admin);
      expect(deposit.balance).toBeGreaterThan(0);
      return { jobId, deposit };
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
    expect(notice.parsed.text).toContain(openDepositAdvice('Cancelled'));

    // Completed with the deposit unpaid.
    const completed = await soldWithDeposit('Lee Complete');
    await ok('PATCH', `/api/jobs/${completed.jobId}/status`, admin, { status: 'In Progress' });
    await ok('PATCH', `/api/jobs/${completed.jobId}/status`, admin, { status: 'Completed' });
    const done = await waitFor(() => noticeOf(completed.deposit.number)[0], {
      what: 'owner notice (completed)',
      timeoutMs: 20_000,
    });
    expect(done.parsed.subject).toContain('completed');
    // Completed: the final invoice takes the whole deposit off, so the client still owes it on its own.
    expect(done.parsed.text).toContain(openDepositAdvice('Completed'));

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
