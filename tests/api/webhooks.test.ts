// Issue 33 (decision 044): outgoing webhooks, signed, retried from an outbox, logged, sent again on
// demand, never to this machine or a private network unless Settings allow it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayIn } from '#shared/dates';
import type { WebhookEvent } from '#shared/schemas/webhooks';
import { webhookDeliveries } from '../../src/server/db/schema';
import { SIGNATURE_HEADER, verifySignature } from '../../src/server/webhooks';
import { acceptedJob, createQuoteRequest, insertJob } from '../helpers/factories';
import { waitFor } from '../helpers/smtp';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

interface Received {
  event: string;
  delivery: string;
  signature: string | undefined;
  body: string;
}

/** A webhook receiver on loopback: records what it gets; answers `status()` (200 unless told). */
async function receiver() {
  const received: Received[] = [];
  let status = () => 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        event: String(request.headers['x-handyman-event']),
        delivery: String(request.headers['x-handyman-delivery']),
        signature: request.headers[SIGNATURE_HEADER] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answer: (next: () => number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(dbKinds)('webhooks (%s)', (kind) => {
  let t: TestApp;
  let owner: Record<string, string>;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    t.app.webhooks.start();
    owner = bearer((await createUserAndSignIn(t, 'owner')).token);
    hooks = await receiver();
  });
  afterAll(async () => {
    await hooks.close();
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner, ...(payload ? { payload } : {}) });
  const allowPrivate = async (allow: boolean) => {
    const { logoUrl: _l, updatedAt: _u, ...values } = (await call('GET', '/api/settings')).json();
    expect((await call('PUT', '/api/settings', { ...values, webhooksAllowPrivate: allow })).statusCode).toBe(200);
  };
  const makeHook = async (events: WebhookEvent[], url = hooks.url) => {
    const made = await call('POST', '/api/webhooks', { url, events, description: 'Bookkeeping sync' });
    expect(made.statusCode, made.body).toBe(201);
    return made.json() as { _id: string; secret: string };
  };
  const removeAll = async () => {
    for (const w of (await call('GET', '/api/webhooks')).json().webhooks)
      await call('DELETE', `/api/webhooks/${w._id}`);
  };

  beforeEach(async () => {
    await removeAll();
    await allowPrivate(true);
  });

  it('refuses this machine and private networks unless Settings allow it, when saved and when sent', async () => {
    await allowPrivate(false);
    for (const url of [
      hooks.url,
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/x',
      'http://localhost:9/x',
    ]) {
      const refused = await call('POST', '/api/webhooks', { url, events: ['request.created'] });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message, url).toMatch(/^url: .* is on this machine or a private network/);
    }
    expect(
      (await call('POST', '/api/webhooks', { url: 'ftp://example.com/x', events: ['request.created'] })).statusCode,
    ).toBe(400);

    // Saved while allowed, then no longer allowed: the delivery is refused at connection time.
    await allowPrivate(true);
    const hook = await makeHook(['request.created']);
    await allowPrivate(false);
    const before = hooks.received.length;
    await createQuoteRequest(t);
    const [failing] = await waitFor(
      async () => {
        const rows = await t.database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, hook._id));
        const tried = rows.filter((r) => r.attempts > 0);
        return tried.length ? tried : undefined;
      },
      { what: 'a refused delivery' },
    );
    expect(failing!.lastError).toMatch(/is on this machine or a private network/);
    expect(hooks.received.length).toBe(before);
    await removeAll();
    await allowPrivate(true);
  });

  it('tells each event once, signed; retries a failure; logs it; sends it again on demand', async () => {
    const hook = await makeHook([
      'request.created',
      'quote.accepted',
      'visit.booked',
      'job.completed',
      'invoice.sent',
      'payment.recorded',
    ]);
    expect(hook.secret).toMatch(/^whsec_[\w-]{43}$/);
    // The secret is in the answer to the POST only.
    expect(JSON.stringify((await call('GET', '/api/webhooks')).json())).not.toContain(hook.secret);

    // The first answer is a 500: retried, then delivered.
    let calls = 0;
    hooks.answer(() => (++calls === 1 ? 500 : 200));
    const request = await createQuoteRequest(t, { name: 'Webhook Wanda' });
    const created = await waitFor(
      () => hooks.received.filter((r) => r.event === 'request.created' && r.body.includes(request.quoteNumber)).at(1),
      { what: 'the retried request.created' },
    );
    expect(verifySignature(hook.secret, created.signature, created.body)).toBe(true);
    expect(verifySignature(hook.secret, created.signature, created.body.replace('Wanda', 'Wendy'))).toBe(false);
    expect(verifySignature('whsec_another', created.signature, created.body)).toBe(false);
    expect(JSON.parse(created.body)).toMatchObject({
      event: 'request.created',
      data: { quoteNumber: request.quoteNumber, name: 'Webhook Wanda' },
    });
    hooks.answer(() => 200);

    // The office's day: a visit, the job done, its invoice sent and paid; each event told once.
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, status: 'In Progress' });
    const visit = await call('POST', `/api/jobs/${jobId}/visits`, {
      date: '2031-03-04',
      start: '09:00',
      end: '11:00',
      workerIds: [],
    });
    expect(visit.statusCode, visit.body).toBe(201);
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' })).statusCode).toBe(200);
    const draft = (await call('POST', `/api/jobs/${jobId}/invoice`)).json();
    const sent = (await call('POST', `/api/invoices/${draft._id}/send`)).json();
    const paid = await call('POST', `/api/invoices/${draft._id}/payments`, {
      method: 'check',
      paidOn: todayIn('America/Los_Angeles'),
      amount: 10,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    // A client's yes, through their signed link.
    const yes = await acceptedJob(t, owner, 25);
    for (const event of ['visit.booked', 'job.completed', 'invoice.sent', 'payment.recorded', 'quote.accepted'])
      await waitFor(() => hooks.received.find((r) => r.event === event), { what: event });
    const accepted = JSON.parse(hooks.received.find((r) => r.event === 'quote.accepted')!.body);
    expect(accepted.data).toMatchObject({ quoteNumber: yes.quote.quoteId, jobId: yes.jobId, totalCents: 86526 });
    const payment = JSON.parse(hooks.received.find((r) => r.event === 'payment.recorded')!.body);
    expect(payment.data).toMatchObject({ invoiceNumber: sent.number, amountCents: 1000, refund: false });
    // Once each: only the delivery answered 500 came twice.
    const times = new Map<string, number>();
    for (const r of hooks.received) times.set(r.delivery, (times.get(r.delivery) ?? 0) + 1);
    expect([...times.values()].filter((n) => n > 1)).toEqual([2]);

    // The log: newest first, the retried one delivered after two tries.
    const log = (await call('GET', `/api/webhooks/${hook._id}/deliveries`)).json().deliveries;
    const first = log.find((d: { _id: string }) => d._id === created.delivery);
    expect(first).toMatchObject({ state: 'delivered', attempts: 2, lastStatus: 200 });
    // Each webhook's last delivery shows on the list (delivered once its receiver's answer is recorded).
    await waitFor(
      async () => (await call('GET', '/api/webhooks')).json().webhooks[0].lastDelivery?.state === 'delivered',
      { what: 'the last delivery shown as delivered' },
    );

    // Send again: the same event id, a new delivery.
    const again = await call('POST', `/api/webhooks/${hook._id}/deliveries/${first._id}/send-again`);
    expect(again.statusCode, again.body).toBe(200);
    const resent = await waitFor(() => hooks.received.find((r) => r.delivery === again.json()._id), {
      what: 'the resend',
    });
    expect(JSON.parse(resent.body).id).toBe(JSON.parse(created.body).id);
    await removeAll();
  });

  it('two processes on one database send each event once', async () => {
    const hook = await makeHook(['request.created']);
    const second = await createTestApp(kind, { database: t.database });
    second.app.webhooks.start();
    try {
      const before = hooks.received.length;
      const requests = await Promise.all(
        Array.from({ length: 12 }, (_, i) => createQuoteRequest(t, { name: `Twin Tess ${i}` })),
      );
      await waitFor(() => (hooks.received.length - before >= 12 ? true : undefined), { what: '12 deliveries' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const mine = hooks.received.slice(before);
      expect(mine).toHaveLength(12);
      expect(new Set(mine.map((r) => r.delivery)).size).toBe(12);
      for (const r of requests) expect(mine.filter((m) => m.body.includes(r.quoteNumber))).toHaveLength(1);
      for (const m of mine) expect(verifySignature(hook.secret, m.signature, m.body)).toBe(true);
    } finally {
      await second.close();
      await removeAll();
    }
  });
});
