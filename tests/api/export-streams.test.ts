import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { EXPORTS_BUSY } from '../../src/server/exports/routes';

/**
 * On PostgreSQL everything.json streams each table through a COPY that holds a connection of the app's
 * pool while its download reads it (decision 028, session 49). Two full exports download at once; a third
 * is told at once to come back (503, Retry-After); the app answers meanwhile; a download given up, or
 * reading nothing for DOWNLOAD_IDLE_SECONDS, gives its connection and its place back.
 */
describe.runIf(dbKinds.includes('postgres'))('everything.json downloads that stop reading (postgres)', () => {
  let t: TestApp;
  /** The same database served by an app that ends a download idle for 3 s. */
  let quick: TestApp;
  let auth: Record<string, string>;
  let base: string;
  let quickBase: string;
  const listen = async (app: TestApp) => {
    await app.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    t = await createTestApp('postgres');
    auth = bearer((await createUserAndSignIn(t, 'admin')).token);
    // 40 MB of e-mails, far more than the socket's and the streams' buffers hold.
    await t.database.db.execute(
      sql`insert into mail_outbox (id, to_address, subject, text, html)
          select 'streamed' || n, 'client' || n || '@home.test', 'Your visit', repeat(md5(n::text), 32), '<p>' || repeat(md5((n + 1)::text), 32) || '</p>'
          from generate_series(1, 20000) as n`,
    );
    base = await listen(t);
    quick = await createTestApp('postgres', { database: t.database, env: { DOWNLOAD_IDLE_SECONDS: '3' } });
    quickBase = await listen(quick);
  }, 60_000);
  afterAll(async () => {
    await quick.app.close();
    await t.close();
  });

  /**
   * The connections running a COPY for this database now (not counting a COPY's parallel workers), of
   * any table or of the e-mails' (where a download that stops reading stops).
   */
  const copies = async (of = 'copy (%') =>
    (
      (await t.database.db.execute(
        sql`select pid from pg_stat_activity
            where datname = current_database() and backend_type = 'client backend'
              and state = 'active' and query ilike 'copy (%' and query ilike ${of} order by pid`,
      )) as unknown as { rows: { pid: number }[] }
    ).rows.map((row) => row.pid);
  // The statement as the database shows it (its first kilobyte): the first column names its table.
  const ofTheEmails = '%"mail_outbox"."id"%';

  /** A download that reads its first bytes, then stops reading (as a paused download does). */
  const stalled = (from = base) =>
    new Promise<{ request: http.ClientRequest }>((resolve, reject) => {
      const request = http.get(`${from}/api/export/everything.json`, { headers: auth }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          res.pause();
          resolve({ request });
        });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
    });

  /** A whole download, every e-mail in it. */
  const whole = async (from = base) => {
    const res = await fetch(`${from}/api/export/everything.json`, { headers: auth });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { tables: Record<string, { id: string }[]> };
    expect(doc.tables.mail_outbox!.filter((mail) => mail.id.startsWith('streamed'))).toHaveLength(20_000);
  };

  it('two downloads at once: a third is told to come back; the app answers; one given up lets the next in', async () => {
    const downloads: http.ClientRequest[] = [];
    try {
      // Two downloads stop reading in the e-mails' table, each holding a COPY.
      downloads.push((await stalled()).request, (await stalled()).request);
      await expect.poll(async () => (await copies(ofTheEmails)).length, { timeout: 10_000 }).toBe(2);
      const holding = await copies();

      // A third is answered at once, before any of the file: come back in a minute.
      const third = await fetch(`${base}/api/export/everything.json`, { headers: auth });
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('60');
      expect(third.headers.get('content-disposition')).toBeNull();
      expect(await third.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: EXPORTS_BUSY });
      expect(await copies()).toEqual(holding);

      // The app's other connections still answer its screens, and its CSV exports still download.
      const started = performance.now();
      const clients = await fetch(`${base}/api/clients?page=1&limit=10`, { headers: auth });
      expect(clients.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect((await fetch(`${base}/api/export/clients.csv`, { headers: auth })).status).toBe(200);

      // One given up: its connection is closed and its place given back; the next download is let in.
      downloads[0]!.destroy();
      await expect
        .poll(async () => (await copies()).filter((pid) => holding.includes(pid)).length, { timeout: 10_000 })
        .toBe(1);
      await expect
        .poll(
          async () => {
            const next = await fetch(`${base}/api/export/everything.json`, { headers: auth });
            await next.body?.cancel();
            return next.status;
          },
          { timeout: 10_000 },
        )
        .toBe(200);
    } finally {
      for (const download of downloads) download.destroy();
    }
    await expect.poll(async () => (await copies()).length, { timeout: 10_000 }).toBe(0);
    await whole();
  }, 60_000);

  it('ends a download that reads nothing for DOWNLOAD_IDLE_SECONDS, and gives back its connection and place', async () => {
    const downloads = [(await stalled(quickBase)).request, (await stalled(quickBase)).request];
    try {
      // At least one stops in the e-mails' table, its COPY running (the first may already be ended as
      // idle before the second gets there, on a slow host).
      await expect.poll(async () => (await copies(ofTheEmails)).length, { timeout: 10_000 }).toBeGreaterThan(0);
      // The server ends both (this side never gives up; a paused reader does not even see the end).
      await expect.poll(async () => (await copies()).length, { timeout: 20_000 }).toBe(0);
      // Both places are free: two downloads that read go through whole, side by side.
      await Promise.all([whole(quickBase), whole(quickBase)]);
    } finally {
      for (const download of downloads) download.destroy();
    }
  }, 60_000);
});
