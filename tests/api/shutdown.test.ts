import pino from 'pino';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { mailOutbox } from '../../src/server/db/schema';
import { enqueueMail } from '../../src/server/mail/outbox';
import { MailRelay } from '../../src/server/mail/relay';
import type { MailTransport } from '../../src/server/mail/transports';
import { testConfig } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-db';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('graceful shutdown', () => {
  it('finishes a request in flight before closing', async () => {
    const database = await createTestDatabase('pglite');
    const app = await buildApp({ config: testConfig(), database, logger: false, webRoot: '/nonexistent' });
    app.get('/api/test-slow', { config: { access: 'public' } }, async () => {
      await sleep(400);
      return { finished: true };
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = fetch(`${address}/api/test-slow`);
    await sleep(100);
    const closed = app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
    await closed;
    await expect(fetch(`${address}/api/health`)).rejects.toThrow();
    await database.destroy();
  });

  it('lets the mail relay finish and record the message it is sending', async () => {
    const database = await createTestDatabase('pglite');
    let started = false;
    const slow: MailTransport = {
      describe: 'slow',
      async deliver() {
        started = true;
        await sleep(400);
      },
      close() {},
    };
    const id = await enqueueMail(database.db, { to: 'a@b.test', subject: 's', text: 't', html: '<p>t</p>' });
    const relay = new MailRelay({
      db: database.db,
      transport: slow,
      log: pino({ level: 'silent' }),
      retryBaseMs: 50,
      retryMaxMs: 100,
      pollMs: 20,
    });
    relay.start();
    while (!started) await sleep(10);
    await relay.stop();
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id!));
    expect(row?.sent).toBe(true);
    await database.destroy();
  });
});
