import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestSmtpServer, waitFor } from '../helpers/smtp';
import { freePort, startServerProcess, waitForHealth } from '../helpers/server-process';
import { createTestDatabase, dbKinds, type TestDatabase } from '../helpers/test-db';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hm-crash-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(dbKinds)('kill -9 with requests in flight (%s)', (kind) => {
  let database: TestDatabase | undefined;
  afterAll(() => database?.destroy());

  it('keeps every request answered 201, and sends its queued e-mails after the restart', async () => {
    const smtp = new TestSmtpServer();
    await smtp.start();
    const smtpPort = smtp.port;
    await smtp.stop(); // mail stays queued in the first life
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(tmp, kind),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      RATE_LIMIT_MAX: '100000',
      MAIL_RETRY_BASE_MS: '100',
      MAIL_RETRY_MAX_MS: '500',
      MAIL_POLL_MS: '100',
      MAIL_CLAIM_SECONDS: '2',
      ADMIN_USERNAME: 'owner',
      ADMIN_PASSWORD: 'owner-password',
    };
    if (kind === 'postgres') {
      database = await createTestDatabase('postgres');
      env.DATABASE_URL = database.url!;
    }
    const first = startServerProcess(env);
    await waitForHealth(port, first);

    const created: { index: number; id: string }[] = [];
    let next = 0;
    let killed = false;
    const client = async () => {
      while (next < 200 && !killed) {
        const index = next++;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/api/quoterequest/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              contactPerson: { name: `Crash ${index}`, email: `crash${index}@home.test` },
              address: { street: '1 A St', city: 'Davis', state: 'CA', zip: '95616' },
              notes: `crash #${index}`,
            }),
          });
          if (res.status === 201)
            created.push({ index, id: ((await res.json()) as { quoteRequest: { _id: string } }).quoteRequest._id });
          else expect(res.status).toBeLessThan(500);
          if (created.length >= 25 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          // The connection died with the process: this request was never answered 201.
        }
      }
    };
    await Promise.all(Array.from({ length: 10 }, client));
    await first.exited;
    expect(created.length).toBeGreaterThanOrEqual(25);

    await smtp.start(smtpPort);
    const second = startServerProcess(env);
    try {
      await waitForHealth(port, second);
      for (const { id } of created) {
        const res = await fetch(`http://127.0.0.1:${port}/api/quoterequest/status/${id}`);
        expect(res.status, `request ${id} answered 201 before the crash`).toBe(200);
      }
      await waitFor(() => created.every(({ index }) => smtp.to(`crash${index}@home.test`).length > 0), {
        timeoutMs: 30_000,
        intervalMs: 200,
        what: 'the queued e-mails after the restart',
      });
      for (const { index } of created) expect(smtp.to(`crash${index}@home.test`)).toHaveLength(1);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await smtp.stop();
    }
  }, 120_000);
});
