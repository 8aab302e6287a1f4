import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { SystemView } from '#shared/schemas/system';
import { enqueueMail } from '../../src/server/mail/outbox';
import { alertIfRed } from '../../src/server/system';
import { systemAlerts } from '../../src/server/db/schema';
import { waitFor } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import type { TestSmtpServer } from '../helpers/smtp';

type Mailing = TestApp & { smtp: TestSmtpServer };

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      })
      .on('error', reject);
  });
}

describe.each(dbKinds)('the System page (%s)', (kind) => {
  const open: Mailing[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  async function start(env: Record<string, string> = {}) {
    const t = await createMailingTestApp(kind, env);
    open.push(t);
    const admin = bearer((await createUserAndSignIn(t, 'admin')).token);
    const view = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/system', headers: admin });
      expect(res.statusCode).toBe(200);
      return res.json<SystemView>();
    };
    return { t, admin, view };
  }

  it('is for admins only, and shows a healthy install green with its real figures', async () => {
    const { t, view } = await start();
    expect((await t.app.inject({ method: 'GET', url: '/api/system' })).statusCode).toBe(401);
    const crew = bearer((await createUserAndSignIn(t, 'employee')).token);
    expect((await t.app.inject({ method: 'GET', url: '/api/system', headers: crew })).statusCode).toBe(403);

    await enqueueMail(t.app.db, { to: 'client@home.test', subject: 'Hello', text: 'x', html: '<p>x</p>' });
    await waitFor(() => t.smtp.to('client@home.test')[0], { what: 'the e-mail' });
    await waitFor(async () =>
      (await view()).lines.find((l) => l.key === 'mail')?.summary.includes('The last one left'),
    );

    const v = await view();
    const byKey = Object.fromEntries(v.lines.map((l) => [l.key, l]));
    expect(v.lines.filter((l) => l.state === 'failing')).toEqual([]);
    expect(byKey.mail!.summary).toMatch(/^Sent through SMTP 127\.0\.0\.1:\d+\. The last one left /);
    expect(byKey['job:mail-relay']).toMatchObject({ label: 'Sending e-mail', state: 'ok' });
    expect(byKey.database!.summary).toMatch(
      kind === 'pglite'
        ? /^Embedded \(PGlite\) \d+\.\d+, [\d.]+ MB\. \d+ migrations applied, the newest \d{4}_[a-z_]+\.$/
        : /^PostgreSQL \d+\.\d+, [\d.]+ MB\. \d+ migrations applied, the newest \d{4}_[a-z_]+\.$/,
    );
    expect(byKey.disk!.summary).toMatch(/ free of .* under DATA_DIR\.$/);
    expect(byKey.payments).toMatchObject({ state: 'off' });
    expect(byKey.app!.summary).toContain(`on Node.js ${process.version}`);
    expect(v.alertsTo).toBe('owner@handyman.test');
    expect(v.lastAlert).toBeNull();
  });

  it('turns red when the mail server refuses, e-mails the owner once that day, and again only the next day', async () => {
    const { t, view } = await start();
    t.smtp.refusing.add('gone@home.test');
    await enqueueMail(t.app.db, { to: 'gone@home.test', subject: 'Your visit', text: 'x', html: '<p>x</p>' });
    const mail = await waitFor(async () => {
      const line = (await view()).lines.find((l) => l.key === 'mail');
      return line?.state === 'failing' ? line : undefined;
    });
    expect(mail.summary).toMatch(/^1 e-mail could not be sent, the oldest since .*: .*Mailbox unavailable/);
    expect(mail.action).toContain('SMTP_URL');

    // Five checks at once (two servers, a restart): one e-mail.
    const day = new Date();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => alertIfRed(t.app, day)));
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'sent-today')).toHaveLength(4);
    const alert = await waitFor(() => t.smtp.to('owner@handyman.test')[0], { what: "the owner's alert" });
    expect(alert.parsed.subject).toBe('Sac Handyman Services: E-mail needs you (System page)');
    expect(alert.parsed.text).toContain('Mailbox unavailable');
    expect(alert.parsed.text).toContain('What to do: Check the mail server');
    expect(alert.parsed.text).toContain('http://handyman.test/admin/system');
    expect((await view()).lastAlert).toEqual({ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), lines: ['mail'] });

    // Later the same day: nothing new.
    expect(await alertIfRed(t.app, new Date(day.getTime() + 60_000))).toBe('sent-today');
    // The next day, still red: one more.
    expect(await alertIfRed(t.app, new Date(day.getTime() + 86_400_000))).toBe('sent');
    await waitFor(() => t.smtp.to('owner@handyman.test')[1], { what: "the next day's alert" });
    expect(await t.app.db.select().from(systemAlerts)).toHaveLength(2);

    // Put right: green, and no e-mail.
    t.smtp.refusing.delete('gone@home.test');
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const failing = await waitFor(
      async () => {
        const rows = (await view()).lines.filter((l) => l.state === 'failing');
        return rows.length === 0 ? 'green' : undefined;
      },
      { timeoutMs: 15_000, what: 'the retry to succeed' },
    );
    expect(failing).toBe('green');
    expect(await alertIfRed(t.app)).toBe('all-green');
  });

  it('serves Prometheus metrics on METRICS_PORT: requests by route pattern, the outbox and the jobs', async () => {
    const { t, admin } = await start({ METRICS_PORT: '0' });
    const address = await t.app.metrics!.listen();
    expect(address.address).toBe('127.0.0.1');
    await t.app.inject({ method: 'GET', url: '/api/quoterequest/QR-2026-0001-not-there', headers: admin });
    await enqueueMail(t.app.db, {
      to: 'later@home.test',
      subject: 'Reminder',
      text: 'x',
      html: '<p>x</p>',
      notBefore: new Date(Date.now() + 86_400_000),
    });
    const metrics = await waitFor(async () => {
      const res = await get(`http://127.0.0.1:${address.port}/metrics`);
      return /background_job_runs_total\{job="mail-relay",outcome="ok"\} [1-9]/.test(res.body) ? res : undefined;
    });
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain('text/plain');
    expect(metrics.body).toContain(
      'http_requests_total{method="GET",route="/api/quoterequest/:id",status_code="404"} 1',
    );
    // The address's id is never a label.
    expect(metrics.body).not.toContain('QR-2026-0001-not-there');
    expect(metrics.body).toContain('mail_outbox_messages{state="scheduled"} 1');
    expect(metrics.body).toContain('mail_outbox_messages{state="failing"} 0');
    expect(metrics.body).toContain('process_cpu_user_seconds_total');
    expect((await get(`http://127.0.0.1:${address.port}/`)).status).toBe(404);
    // Not on the site's port.
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).not.toContain('http_requests_total');
  });
});
