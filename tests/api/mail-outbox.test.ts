import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/server/db/schema';
import { enqueueMail } from '../../src/server/mail/outbox';
import { backoffMs, MailRelay, type RelayOptions } from '../../src/server/mail/relay';
import { fileTransport, smtpTransport } from '../../src/server/mail/transports';
import { TestSmtpServer, waitFor } from '../helpers/smtp';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

const log = pino({ level: 'silent' });
const from = 'Handyman <no-reply@handyman.test>';

function relayFor(
  database: TestDatabase,
  transport: ReturnType<typeof smtpTransport>,
  options: Partial<RelayOptions> = {},
) {
  return new MailRelay({ db: database.db, transport, log, retryBaseMs: 40, retryMaxMs: 200, pollMs: 30, ...options });
}

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 100, 1000))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
});

describe.each(dbKinds)('mail outbox and relay (%s)', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setup() {
    const database = await createTestDatabase(kind);
    cleanups.push(() => database.destroy());
    const smtp = new TestSmtpServer();
    await smtp.start();
    cleanups.push(() => smtp.stop());
    return { database, smtp };
  }

  it('stores nothing when the transaction that queued the mail rolls back', async () => {
    const { database } = await setup();
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueMail(tx, { to: 'a@b.test', subject: 'Hi', text: 'x', html: '<p>x</p>' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('delivers a queued message once, with text, HTML and attachments, and marks it sent', async () => {
    const { database, smtp } = await setup();
    const id = await enqueueMail(database.db, {
      to: 'client@home.test',
      subject: 'Your quote\r\nBcc: victim@evil.test',
      text: 'Plain body',
      html: '<p>HTML body</p>',
      attachments: [
        {
          filename: 'quote.pdf',
          contentType: 'application/pdf',
          contentBase64: Buffer.from('%PDF-1.4').toString('base64'),
        },
      ],
    });
    const relay = relayFor(database, smtpTransport(smtp.url, from));
    relay.start();
    cleanups.push(() => relay.stop());
    const mail = await waitFor(() => smtp.received[0], { what: 'the e-mail' });
    expect(mail.envelopeTo).toEqual(['client@home.test']);
    expect(mail.parsed.subject).toBe('Your quote Bcc: victim@evil.test');
    expect(mail.parsed.text?.trim()).toBe('Plain body');
    expect(mail.parsed.html).toContain('<p>HTML body</p>');
    expect(mail.parsed.attachments.map((a) => a.filename)).toEqual(['quote.pdf']);
    expect(mail.parsed.messageId).toBe(`<${id}@outbox.handyman>`);
    const row = await waitFor(
      async () => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id!)))[0]?.sent && true,
    );
    expect(row).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received).toHaveLength(1);
  });

  it('carries a Reply-To to the SMTP server: the business’s at the moment of sending, unless the message names one', async () => {
    const { database, smtp } = await setup();
    await enqueueMail(database.db, { to: 'client@home.test', subject: 'To a client', text: 'x', html: '<p>x</p>' });
    await enqueueMail(database.db, {
      to: 'owner@biz.test',
      replyTo: 'client@home.test',
      subject: 'About a client',
      text: 'x',
      html: '<p>x</p>',
    });
    let business = { name: 'Sac Handyman', replyTo: 'hello@biz.test' };
    const relay = relayFor(database, smtpTransport(smtp.url, from), {
      sender: async () => business,
    });
    expect(await relay.deliverDue()).toBe(2);
    const replyTo = (to: string) => smtp.to(to)[0]?.parsed.replyTo?.value.map((a) => a.address);
    expect(replyTo('client@home.test')).toEqual(['hello@biz.test']);
    expect(smtp.to('client@home.test')[0]!.parsed.from?.value[0]).toEqual({
      name: 'Sac Handyman',
      address: 'no-reply@handyman.test',
    });
    expect(replyTo('owner@biz.test')).toEqual(['client@home.test']);
    // The owner changes the business's e-mail: a message queued before goes out with the new one.
    await enqueueMail(database.db, { to: 'later@home.test', subject: 'Later', text: 'x', html: '<p>x</p>' });
    business = { name: 'Sac Handyman', replyTo: 'office@biz.test' };
    expect(await relay.deliverDue()).toBe(1);
    expect(replyTo('later@home.test')).toEqual(['office@biz.test']);
    await relay.stop();
  });

  it('retries while the SMTP server is down and delivers exactly once when it is back, each retry when due whatever the poll', async () => {
    const { database, smtp } = await setup();
    const port = smtp.port;
    await smtp.stop();
    await enqueueMail(database.db, { to: 'one@home.test', subject: 'First', text: '1', html: '<p>1</p>' });
    await enqueueMail(database.db, { to: 'two@home.test', subject: 'Second', text: '2', html: '<p>2</p>' });
    // A poll of ten minutes: only the retries' own wake-ups (40–200 ms of backoff) can send these in time.
    const relay = relayFor(database, smtpTransport(smtp.url, from), { pollMs: 600_000 });
    relay.start();
    cleanups.push(() => relay.stop());
    await waitFor(
      async () => {
        const rows = await database.db.select().from(mailOutbox);
        return rows.every((r) => r.attempts >= 2 && !r.sent && r.lastError);
      },
      { what: 'failed attempts' },
    );
    await smtp.start(port);
    await waitFor(async () => (await database.db.select().from(mailOutbox)).every((r) => r.sent), {
      what: 'delivery after the outage',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.map((m) => m.parsed.subject).sort()).toEqual(['First', 'Second']);
  });

  it('sends a message once its PDF is drawn, not at the relay’s next look, whatever the poll', async () => {
    const { database, smtp } = await setup();
    const id = (await enqueueMail(database.db, {
      to: 'drawn@home.test',
      subject: 'Your invoice',
      text: 'x',
      html: '<p>x</p>',
      attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', document: 'invoice:1' }],
    }))!;
    let drawing = true;
    let tellDrawn: (() => void) | undefined;
    const relay = relayFor(database, smtpTransport(smtp.url, from), {
      pollMs: 600_000,
      // The relay's own look again is a minute away: only the drawing's word can send it sooner.
      documentRetryMs: 60_000,
      document: async (_key, drawn) => {
        if (!drawing) return { bytes: Buffer.from('%PDF-1.4 drawn') };
        tellDrawn = drawn;
        return 'drawing';
      },
    });
    relay.start();
    cleanups.push(() => relay.stop());
    const row = async () => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;
    // Put back while its PDF is drawn: not sent, not counted as a failure.
    await waitFor(async () => tellDrawn && (await row()).lockedUntil === null && !(await row()).sent, {
      what: 'the message put back while its PDF is drawn',
    });
    expect((await row()).attempts).toBe(0);
    drawing = false;
    tellDrawn!();
    const mail = await waitFor(() => smtp.to('drawn@home.test')[0], { what: 'the e-mail, once its PDF was drawn' });
    expect(mail.parsed.attachments.map((a) => a.content.toString())).toEqual(['%PDF-1.4 drawn']);
    expect((await row()).sent).toBe(true);
  });

  it('delivers mail left in the outbox by a stopped app after the restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-outbox-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const smtp = new TestSmtpServer();
    await smtp.start();
    cleanups.push(() => smtp.stop());
    // First life: the message is queued, the process stops before any relay sends it.
    const first = await createTestDatabase(kind, { dataDir: path.join(dataDir, 'db') });
    await enqueueMail(first.db, {
      to: 'later@home.test',
      subject: 'Queued before restart',
      text: 'x',
      html: '<p>x</p>',
    });
    const url = first.url;
    await first.close();
    // Second life: same database, a new relay.
    const second =
      kind === 'pglite' ? await createTestDatabase(kind, { dataDir: path.join(dataDir, 'db') }) : await reopen(url!);
    cleanups.push(() => (kind === 'pglite' ? second.close() : first.destroy()));
    const relay = relayFor(second, smtpTransport(smtp.url, from));
    relay.start();
    cleanups.push(() => relay.stop());
    const mail = await waitFor(() => smtp.to('later@home.test')[0], { what: 'the queued e-mail' });
    expect(mail.parsed.subject).toBe('Queued before restart');
  });

  it('writes .eml files when no SMTP server is configured', async () => {
    const { database } = await setup();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-mail-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    await enqueueMail(database.db, { to: 'file@home.test', subject: 'On disk', text: 'x', html: '<p>x</p>' });
    const relay = new MailRelay({
      db: database.db,
      transport: fileTransport(dir, from, log),
      log,
      retryBaseMs: 40,
      retryMaxMs: 200,
      pollMs: 30,
    });
    expect(await relay.deliverDue()).toBe(1);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain('Subject: On disk');
    expect(eml).toContain('To: file@home.test');
    expect(await relay.deliverDue()).toBe(0);
  });
});

async function reopen(url: string): Promise<TestDatabase> {
  const { openDatabase } = await import('../../src/server/db/client');
  const database = await openDatabase({ databaseUrl: url, dataDir: '' });
  return { ...database, destroy: () => database.close() };
}
