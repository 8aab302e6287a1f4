// Issue 11, item 8: several app processes on one PostgreSQL database and one Redis behave as one.
import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, textMessages } from '../../src/server/db/schema';
import { freshRedisUrl, testRedisUrl } from '../helpers/redis';
import { freePort, startServerProcess, waitForHealth, type ServerProcess } from '../helpers/server-process';
import { FakeTwilio } from '../helpers/fake-twilio';
import { TestSmtpServer, waitFor } from '../helpers/smtp';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db';

const ready = Boolean(process.env.TEST_DATABASE_URL && testRedisUrl);
const ADMIN = { username: 'owner', password: 'scale-out-owner-passphrase' };
/** How long a process may serve a status it has cached (QuoteStatusCache's default). */
const STATUS_CACHE_MS = 5_000;

describe.skipIf(!ready)('two app processes on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  const twilio = new FakeTwilio();
  const servers: { proc: ServerProcess; url: string }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    smtp = await new TestSmtpServer().start();
    await twilio.start();
    const redisUrl = await freshRedisUrl(5);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const proc = startServerProcess({
        DATABASE_URL: database.url!,
        REDIS_URL: redisUrl,
        JWT_SECRET: 'a-shared-secret-for-both-processes-0123456789',
        SMTP_URL: smtp.url,
        DATA_DIR: `/tmp/hm-scale-${process.pid}-${i}`,
        HOST: '127.0.0.1',
        PORT: String(port),
        RATE_LIMIT_MAX: '5',
        MAIL_POLL_MS: '100',
        TEXTS_API_URL: twilio.url,
        TEXTS_QUIET_HOURS: 'off',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      });
      await waitForHealth(port, proc, 60_000);
      servers.push({ proc, url: `http://127.0.0.1:${port}` });
    }
  }, 120_000);

  afterAll(async () => {
    for (const { proc } of servers) {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    await smtp?.stop();
    await twilio.stop();
    await database?.destroy();
  });

  const json = async (url: string, init: RequestInit & { body?: string } = {}) => {
    const res = await fetch(url, {
      ...init,
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const signIn = async (server: number) =>
    (await json(`${servers[server]!.url}/api/login`, { method: 'POST', body: JSON.stringify(ADMIN) })).body
      .token as string;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  it('shares the per-address limit: the sixth quote request, alternating between processes, answers 429; each e-mail arrives once', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await json(`${servers[i % 2]!.url}/api/quoterequest/create`, {
        method: 'POST',
        body: JSON.stringify({
          contactPerson: { name: `Client ${i}`, email: `client${i}@home.test` },
          address: { street: '1 Scale St', city: 'Sacramento', state: 'CA', zip: '95814' },
          notes: `Request ${i}`,
        }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // Five thank-yous and five owner notices, with both relays polling the one outbox.
    await waitFor(() => smtp.received.length >= 10, { what: 'ten e-mails', timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received).toHaveLength(10);
    const ids = smtp.received.map((m) => m.parsed.messageId);
    expect(new Set(ids).size).toBe(10);
    for (let i = 0; i < 5; i++) expect(smtp.to(`client${i}@home.test`)).toHaveLength(1);
  });

  it('accepts a token issued by one process on the other, and a sign-out on one ends it on both', async () => {
    const token = await signIn(0);
    expect(
      (await json(`${servers[1]!.url}/api/quoterequest/all?page=1&limit=10`, { headers: auth(token) })).status,
    ).toBe(200);
    expect((await json(`${servers[1]!.url}/api/logout`, { method: 'POST', headers: auth(token) })).status).toBe(200);
    expect(
      (await json(`${servers[0]!.url}/api/quoterequest/all?page=1&limit=10`, { headers: auth(token) })).status,
    ).toBe(401);
  });

  it('shows a status changed through one process through the other within the cache lifetime', async () => {
    const token = await signIn(1);
    const list = await json(`${servers[0]!.url}/api/quoterequest/all?page=1&limit=10`, { headers: auth(token) });
    const request = (list.body.quoteRequests as { _id: string; quoteNumber: string }[])[0]!;
    const statusOn = async (server: number) =>
      (await json(`${servers[server]!.url}/api/quoterequest/status/${request.quoteNumber}`)).body.quoteStatus;
    expect(await statusOn(1)).toBe('Pending'); // process 1 now has it cached
    const accepted = await fetch(`${servers[0]!.url}/api/quoterequest/markAccepted/${request._id}`, {
      method: 'PUT',
      headers: auth(token),
    });
    expect(accepted.status).toBe(200);
    expect(await statusOn(0)).toBe('Accepted');
    const changedAt = Date.now();
    await waitFor(async () => (await statusOn(1)) === 'Accepted', {
      what: 'the other process to see the change',
      timeoutMs: STATUS_CACHE_MS + 2_000,
      intervalMs: 200,
    });
    expect(Date.now() - changedAt).toBeLessThanOrEqual(STATUS_CACHE_MS + 1_000);
  });

  it('sends each text of the ledger once with both processes’ relays polling it (issue 30)', async () => {
    const token = await signIn(0);
    const saved = await json(`${servers[0]!.url}/api/settings/texts`, {
      method: 'PUT',
      headers: auth(token),
      body: JSON.stringify({
        accountSid: twilio.accountSid,
        authToken: twilio.authToken,
        fromNumber: '(916) 555-0000',
        messagingServiceSid: '',
        dailyLimit: 6,
      }),
    });
    expect(saved.status).toBe(200);
    // Forty clients who take texts, each with a text waiting (as a booking writes it): both relays claim at once.
    const numbers = Array.from({ length: 40 }, (_, i) => `+1916555${String(3000 + i).padStart(4, '0')}`);
    const { db } = database;
    const clientIds = numbers.map(() => randomUUID());
    await db.insert(clients).values(
      numbers.map((mobile, i) => ({
        id: clientIds[i]!,
        name: `Texted ${i}`,
        email: `texted${i}@home.test`,
        mobile,
        messageChannel: 'text' as const,
      })),
    );
    await db.insert(textMessages).values(
      numbers.map((toNumber, i) => ({
        id: randomUUID(),
        clientId: clientIds[i]!,
        kind: 'visit-booked' as const,
        toNumber,
        body: `Sac Handyman Services: your visit is booked (${i}).`,
      })),
    );
    await waitFor(() => numbers.every((n) => twilio.to(n).length > 0), { what: 'forty texts', timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 1500));
    for (const n of numbers) expect(twilio.to(n), n).toHaveLength(1);
    const rows = await db.select().from(textMessages).where(inArray(textMessages.toNumber, numbers));
    expect(rows.map((r) => r.state)).toEqual(numbers.map(() => 'sent'));
    expect(new Set(rows.map((r) => r.providerSid)).size).toBe(40);
  });
});
