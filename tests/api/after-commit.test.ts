import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, onCommitted } from '../../src/server/db/client';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { todayIn } from '#shared/dates';

// Issue 26.3: the work after a commit happens in one place. A change tells what it asks for with
// afterCommit; the mail relay and the status cache listen. Receipts and job reports leave at once, as
// quotes do, not at the relay's next poll.
describe.each(dbKinds)('after a commit (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    // A poll so slow that only a wake-up delivers within the tests' waits.
    const mailing = await createMailingTestApp(kind, { MAIL_POLL_MS: '600000' });
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  it('tells its listeners once the transaction has committed, never when it rolled back, at once outside one', async () => {
    const db = t.database.db;
    const heard: string[] = [];
    const stop = onCommitted<string>(db, 'test-topic', (value) => heard.push(value));
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        afterCommit(tx, 'test-topic', 'committed');
        // A savepoint inside is part of the same unit.
        await tx.transaction(async (savepoint) => afterCommit(savepoint, 'test-topic', 'in a savepoint'));
        expect(heard).toEqual([]);
      });
      expect(heard).toEqual(['committed', 'in a savepoint']);
      await expect(
        db.transaction(async (tx) => {
          afterCommit(tx, 'test-topic', 'rolled back');
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(heard).toEqual(['committed', 'in a savepoint']);
      afterCommit(db, 'test-topic', 'no transaction');
      expect(heard).toEqual(['committed', 'in a savepoint', 'no transaction']);
    } finally {
      stop();
    }
  });

  const send = (method: 'POST' | 'PATCH', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it("a payment's receipt leaves at once, not at the relay's next poll", async () => {
    const email = `receipt${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t);
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email, status: 'Completed' });
    const draft = (await send('POST', `/api/jobs/${jobId}/invoice`)).json();
    const sent = await send('POST', `/api/invoices/${draft._id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const paid = await send('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'cash',
      paidOn: todayIn('America/Los_Angeles'),
      amount: 20,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const receipt = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Receipt for invoice')),
      {
        what: 'the receipt',
      },
    );
    expect(receipt.parsed.text).toContain('$20.00');
  });

  it("a job's report leaves once drawn, not at the relay's next poll", async () => {
    const email = `report${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t);
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email });
    await send('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' });
    const done = await send('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' });
    expect(done.statusCode, done.body).toBe(200);
    const report = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your job report')), {
      what: 'the job report',
    });
    expect(report.parsed.attachments?.[0]?.contentType).toBe('application/pdf');
  });

  it('the status page answers a decision at once, though it had the old status cached', async () => {
    const created = await createQuoteRequest(t);
    const status = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${created.quoteNumber}` })).json();
    expect(await status()).toMatchObject({ quoteStatus: 'Pending' });
    const accepted = await t.app.inject({
      method: 'PUT',
      url: `/api/quoterequest/markAccepted/${created._id}`,
      headers: admin,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await status()).toMatchObject({ quoteStatus: 'Accepted' });
  });
});
