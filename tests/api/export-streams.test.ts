import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/**
 * On PostgreSQL everything.json streams each table through a COPY that holds a connection of the app's
 * pool while its download reads it (decision 028, session 49). Downloads that stop reading (paused in the
 * browser) hold at most two; the app answers meanwhile; a download given up gives its connection back.
 */
describe.runIf(dbKinds.includes('postgres'))('everything.json downloads that stop reading (postgres)', () => {
  let t: TestApp;
  let auth: Record<string, string>;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    auth = bearer((await createUserAndSignIn(t, 'admin')).token);
    // 40 MB of e-mails, far more than the socket's and the streams' buffers hold.
    await t.database.db.execute(
      sql`insert into mail_outbox (id, to_address, subject, text, html)
          select 'streamed' || n, 'client' || n || '@home.test', 'Your visit', repeat(md5(n::text), 32), '<p>' || repeat(md5((n + 1)::text), 32) || '</p>'
          from generate_series(1, 20000) as n`,
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(() => t.close());

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
  const stalled = () =>
    new Promise<http.ClientRequest>((resolve, reject) => {
      const request = http.get(`${base}/api/export/everything.json`, { headers: auth }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          res.pause();
          resolve(request);
        });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
    });

  it('holds at most two connections however many stop reading; the app answers; given up, they are freed', async () => {
    const downloads: http.ClientRequest[] = [];
    try {
      // Two downloads stop reading in the e-mails' table, each holding a COPY.
      downloads.push(await stalled(), await stalled());
      await expect.poll(async () => (await copies(ofTheEmails)).length, { timeout: 10_000 }).toBe(2);
      const holding = await copies();
      // A third waits for a turn rather than taking a third connection.
      downloads.push(await stalled());
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await copies()).toEqual(holding);

      // The app's other connections still answer its screens.
      const started = performance.now();
      const clients = await fetch(`${base}/api/clients?page=1&limit=10`, { headers: auth });
      expect(clients.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);

      // One given up: its connection is closed, and the waiting download takes its turn.
      downloads[0]!.destroy();
      await expect
        .poll(
          async () => {
            const now = await copies();
            return now.length === 2 && now.filter((pid) => holding.includes(pid)).length === 1;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
    } finally {
      for (const download of downloads) download.destroy();
    }
    await expect.poll(async () => (await copies()).length, { timeout: 10_000 }).toBe(0);

    // Then a whole download, every e-mail in it.
    const res = await fetch(`${base}/api/export/everything.json`, { headers: auth });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { tables: Record<string, { id: string }[]> };
    expect(doc.tables.mail_outbox!.filter((mail) => mail.id.startsWith('streamed'))).toHaveLength(20_000);
  }, 60_000);
});
