import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { mailOutbox, quoteRequests } from '../../src/server/db/schema';
import { smtpTransport } from '../../src/server/mail/transports';
import { TestSmtpServer, waitFor } from '../helpers/smtp';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const REQUESTS = 300;
const CLIENTS = 30;

describe.each(dbKinds)('load while the mail server is down (%s)', (kind) => {
  let t: TestApp;
  let base: string;
  const smtp = new TestSmtpServer();
  beforeAll(async () => {
    await smtp.start();
    t = await createTestApp(kind, {
      env: { RATE_LIMIT_MAX: '100000', MAIL_RETRY_BASE_MS: '50', MAIL_RETRY_MAX_MS: '300' },
      mailTransport: smtpTransport(smtp.url, 'Handyman <no-reply@handyman.test>'),
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.mail.start();
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  it(`${REQUESTS} quote requests from ${CLIENTS} clients: each 201 stored once, each e-mail delivered once after SMTP returns`, async () => {
    const run = `load-${kind}-${Date.now()}`;
    const port = smtp.port;
    await smtp.stop();
    const answers: { index: number; status: number; id?: string }[] = [];
    let next = 0;
    let smtpBack: Promise<unknown> | undefined;

    const client = async () => {
      while (next < REQUESTS) {
        const index = next++;
        // The mail server comes back when half the requests have been sent.
        if (index === REQUESTS / 2) smtpBack = smtp.start(port);
        const res = await fetch(`${base}/api/quoterequest/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${index % 250}.1` },
          body: JSON.stringify({
            contactPerson: { name: `Load Client ${index}`, email: `load${index}@home.test` },
            address: { street: `${index} Load St`, city: 'Sacramento', state: 'CA', zip: '95814' },
            notes: `${run} #${index}`,
          }),
        });
        const body = res.status === 201 ? ((await res.json()) as { quoteRequest: { _id: string } }) : undefined;
        answers.push({ index, status: res.status, ...(body ? { id: body.quoteRequest._id } : {}) });
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    await smtpBack;

    const created = answers.filter((a) => a.status === 201);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(created.length).toBe(REQUESTS);

    const rows = await t.database.db
      .select()
      .from(quoteRequests)
      .where(like(quoteRequests.notes, `${run} #%`));
    expect(rows.length).toBe(created.length);
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(created.map((a) => a.id)));

    // Two e-mails per request: the client's thank-you and the owner's notice.
    await waitFor(async () => (await t.database.db.select().from(mailOutbox)).every((m) => m.sent), {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: 'every queued e-mail to be sent',
    });
    // The outage was real: some messages needed more than one attempt.
    expect((await t.database.db.select().from(mailOutbox)).some((m) => m.attempts > 1)).toBe(true);
    const received = smtp.received.filter(
      (m) => m.parsed.text?.includes(run) || /load\d+@home\.test/.test(m.envelopeTo.join()),
    );
    const ids = received.map((m) => m.parsed.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(received.length).toBe(created.length * 2);
    for (const a of created) expect(smtp.to(`load${a.index}@home.test`)).toHaveLength(1);
  }, 180_000);
});
