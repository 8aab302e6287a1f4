import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { auditLog, checkoutSessions, paymentAccounts, payments } from '../../src/server/db/schema';
import { clientInvoicePath } from '../../src/server/invoices';
import { reconcileOnce, settleCheckout } from '../../src/server/payments';
import { takeLease } from '../../src/server/payments/repository';
import { createQuoteRequest, insertJob, sampleQuoteLines } from '../helpers/factories';
import { FakeStripe, fakeFee } from '../helpers/fake-stripe';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const WEBHOOK_SECRET = `whsec_${randomUUID().replaceAll('-', '')}`;

describe.each(dbKinds)('paying online with the owner’s Stripe account (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  const fake = new FakeStripe();

  beforeAll(async () => {
    await fake.start();
    // Long enough for an answer from the fake on a loaded machine (400 ms was not, in a CI run on
    // PostgreSQL), short enough that a provider that never answers costs the test seconds.
    const mailing = await createMailingTestApp(kind, { PAYMENTS_API_URL: fake.url, PAYMENTS_TIMEOUT_MS: '1500' });
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  const call = (method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const turnOn = (onlineFor = 'both') =>
    call('PUT', '/api/settings/online-payments', {
      secretKey: fake.secretKey,
      webhookSecret: WEBHOOK_SECRET,
      onlineFor,
    });

  /** A sent invoice for a completed job, and the client's link to it. */
  async function sentInvoice() {
    const request = await createQuoteRequest(t);
    const email = `pay${randomUUID().slice(0, 8)}@home.test`;
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email, status: 'Completed' });
    const draft = await call('POST', `/api/jobs/${jobId}/invoice`);
    expect(draft.statusCode, draft.body).toBe(201);
    const sent = await call('POST', `/api/invoices/${draft.json()._id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const id: string = draft.json()._id;
    const path = await clientInvoicePath(t.app, id);
    const token = new URL(path, 'http://x').searchParams.get('token')!;
    const q = `token=${encodeURIComponent(token)}`;
    return { id, email, q, invoice: sent.json() as { number: string; balance: number } };
  }

  const staffView = async (id: string) => (await call('GET', `/api/invoices/${id}`)).json();
  const startPay = (id: string, q: string) =>
    t.app.inject({ method: 'POST', url: `/api/client-invoices/${id}/checkout?${q}` });
  const sessionOf = (url: string) => /\/pay\/(cs_test_\w+)$/.exec(url)![1]!;
  const postWebhook = (body: string | Buffer, signature: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: body,
    });

  /** $20 by check and the whole balance by card: the invoice ends Paid, the $20 given back as a refund. */
  async function expectExcessGivenBack(id: string, balance: number) {
    const view = await staffView(id);
    expect(view).toMatchObject({ status: 'Paid', balance: 0, paid: balance });
    expect(view.payments.map((p: { method: string; amount: number }) => [p.method, p.amount])).toEqual([
      ['check', 20],
      ['card online', balance],
      ['refund', -20],
    ]);
  }

  it('is off until the owner pastes a key; the key is sealed, never shown, never exported; "Test the connection" reads with it', async () => {
    const off = await call('GET', '/api/settings/online-payments');
    expect(off.json()).toMatchObject({ enabled: false, keySaved: false });
    const { id, q } = await sentInvoice();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/client-invoices/${id}/online-payment?${q}` })).json(),
    ).toEqual({
      available: false,
      processing: 0,
    });
    expect((await startPay(id, q)).json()).toMatchObject({ code: 'INVOICE_NOT_PAYABLE' });
    expect((await call('POST', '/api/settings/online-payments/test')).json()).toMatchObject({
      code: 'INVOICE_NOT_PAYABLE',
    });

    const bad = await call('PUT', '/api/settings/online-payments', { secretKey: 'pk_live_nope', onlineFor: 'both' });
    expect(bad.statusCode).toBe(400);
    const on = await turnOn();
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, keySaved: true, webhookSecretSaved: true, onlineFor: 'both' });
    expect(on.body).not.toContain(fake.secretKey);
    expect((await call('GET', '/api/settings/online-payments')).body).not.toContain(fake.secretKey);
    const [row] = await t.database.db.select().from(paymentAccounts);
    expect(row!.secretKeySealed).not.toContain(fake.secretKey);
    expect(row!.webhookSecretSealed).not.toContain(WEBHOOK_SECRET);
    // The trail hides it; the JSON export leaves the sealed row out.
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'Changed online payments'));
    expect(JSON.stringify(trail)).not.toContain(fake.secretKey);
    const exported = await call('GET', '/api/exports/everything.json');
    if (exported.statusCode === 200) {
      expect(exported.body).not.toContain('payment_accounts');
      expect(exported.body).not.toContain(row!.secretKeySealed);
    }

    const tested = await call('POST', '/api/settings/online-payments/test');
    expect(tested.statusCode, tested.body).toBe(200);
    expect(fake.requests.at(-1)!.authorization).toBe(`Bearer ${fake.secretKey}`);
    fake.fail(/GET \/v1\/checkout\/sessions$/, 'server_error');
    fake.fail(/GET \/v1\/checkout\/sessions$/, 'server_error');
    expect((await call('POST', '/api/settings/online-payments/test')).json()).toMatchObject({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('Pay: a hosted checkout for the exact balance with our idempotency key; back from it, the server asks before "Paid"; receipt, status, fee, trail', async () => {
    await turnOn();
    const { id, q, email, invoice } = await sentInvoice();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/client-invoices/${id}/online-payment?${q}` })).json(),
    ).toEqual({
      available: true,
      processing: 0,
    });
    const started = await startPay(id, q);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().amount).toBe(invoice.balance);
    const sessionId = sessionOf(started.json().url);
    const create = fake.posts(/^\/v1\/checkout\/sessions$/).at(-1)!;
    const cents = Math.round(invoice.balance * 100);
    expect(create.body.get('line_items[0][price_data][unit_amount]')).toBe(String(cents));
    expect(create.body.get('client_reference_id')).toBe(id);
    expect(create.idempotencyKey).toBe(`checkout-${id}-${cents}-0`);
    expect(create.body.get('success_url')).toContain('checkout={CHECKOUT_SESSION_ID}');
    // A second Pay (another tab) goes to the same checkout.
    expect((await startPay(id, q)).json().url).toBe(started.json().url);

    // Back without paying: nothing changes.
    const early = await t.app.inject({
      method: 'POST',
      url: `/api/client-invoices/${id}/checkout/return?${q}`,
      payload: { sessionId },
    });
    expect(early.json()).toEqual({ state: 'open' });
    // The hosted page: Pay redirects to our success address with the session's id.
    const page = await fetch(started.json().url);
    expect(await page.text()).toContain(`Pay $${invoice.balance.toFixed(2)}`);
    const paid = await fetch(`${started.json().url}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location')!);
    expect(back.pathname).toBe(`/invoice/${id}`);
    expect(back.searchParams.get('checkout')).toBe(sessionId);

    const returned = await t.app.inject({
      method: 'POST',
      url: `/api/client-invoices/${id}/checkout/return?${q}`,
      payload: { sessionId },
    });
    expect(returned.json()).toEqual({ state: 'paid' });
    const view = await staffView(id);
    expect(view).toMatchObject({ status: 'Paid', balance: 0, paid: invoice.balance });
    expect(view.payments).toEqual([
      expect.objectContaining({
        method: 'card online',
        amount: invoice.balance,
        online: true,
        fee: fakeFee(cents) / 100,
      }),
    ]);
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject === `Receipt for invoice ${invoice.number}`), {
      what: 'receipt',
    });
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'Received a payment online'));
    expect(trail.some((e) => e.target === id)).toBe(true);
    // Another invoice's link does not settle or read this session.
    const other = await sentInvoice();
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/client-invoices/${other.id}/checkout/return?${other.q}`,
      payload: { sessionId },
    });
    expect(wrong.json()).toEqual({ state: 'unknown' });
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/client-invoices/${id}/checkout?${other.q}` })).statusCode,
    ).toBe(403);
  });

  it('the webhook: verified over the raw body; wrong secret, stale timestamp, re-serialised body refused; a replayed event ignored', async () => {
    await turnOn();
    const { id, q } = await sentInvoice();
    const sessionId = sessionOf((await startPay(id, q)).json().url);
    fake.pay(sessionId);
    const wrongSecret = fake.webhook('checkout.session.completed', sessionId, 'whsec_notthesecretatall');
    expect((await postWebhook(wrongSecret.body, wrongSecret.signature)).json()).toMatchObject({
      code: 'BAD_REQUEST',
    });
    const stale = fake.webhook('checkout.session.completed', sessionId, WEBHOOK_SECRET, {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect((await postWebhook(stale.body, stale.signature)).statusCode).toBe(400);
    const good = fake.webhook('checkout.session.completed', sessionId, WEBHOOK_SECRET);
    const reserialised = JSON.stringify(JSON.parse(good.body));
    expect((await postWebhook(reserialised, good.signature)).statusCode).toBe(400);
    expect((await postWebhook(good.body, '')).statusCode).toBe(400);
    expect((await staffView(id)).balance).toBeGreaterThan(0);
    // The SDK's own check agrees with ours.
    expect(() => Stripe.webhooks.constructEvent(reserialised, good.signature, WEBHOOK_SECRET)).toThrow();

    const accepted = await postWebhook(good.body, good.signature);
    expect(accepted.json()).toEqual({ received: true, replayed: false });
    expect((await staffView(id)).status).toBe('Paid');
    const replay = await postWebhook(good.body, good.signature);
    expect(replay.json()).toEqual({ received: true, replayed: true });
    expect(await t.database.db.select().from(payments).where(eq(payments.invoiceId, id))).toHaveLength(1);
  });

  it('return, reconciler and webhook delivering the same payment at once make one payment row', async () => {
    await turnOn();
    for (let round = 0; round < 3; round++) {
      const { id, q } = await sentInvoice();
      const sessionId = sessionOf((await startPay(id, q)).json().url);
      fake.pay(sessionId);
      await t.database.db
        .update(checkoutSessions)
        .set({ nextCheckAt: new Date(Date.now() - 1000) })
        .where(eq(checkoutSessions.sessionId, sessionId));
      const hook = fake.webhook('checkout.session.completed', sessionId, WEBHOOK_SECRET);
      const results = await Promise.allSettled([
        t.app.inject({
          method: 'POST',
          url: `/api/client-invoices/${id}/checkout/return?${q}`,
          payload: { sessionId },
        }),
        reconcileOnce(t.app),
        postWebhook(hook.body, hook.signature),
        settleCheckout(t.app, sessionId),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      const rows = await t.database.db.select().from(payments).where(eq(payments.invoiceId, id));
      expect(rows).toHaveLength(1);
      expect((await staffView(id)).status).toBe('Paid');
    }
  });

  it('two clients paying the same invoice at once: one checkout; money beyond the balance goes back, never an overpaid invoice', async () => {
    await turnOn();
    const { id, q, invoice } = await sentInvoice();
    // Six at once (two phones, a reload, taps twice): every one is sent to the same single checkout.
    const [a, ...others] = await Promise.all(Array.from({ length: 6 }, () => startPay(id, q)));
    for (const b of others)
      expect(b.json().url, `${a!.statusCode} ${a!.body} | ${b.statusCode} ${b.body}`).toBe(a!.json().url);
    const sessions = [...fake.sessions.values()].filter((s) => s.client_reference_id === id);
    expect(sessions).toHaveLength(1);
    // Meanwhile the office records $20 paid by check; the first checkout is then paid in full anyway.
    const today = (await staffView(id)).issueDate as string;
    const check = await call('POST', `/api/invoices/${id}/payments`, { method: 'check', amount: 20, paidOn: today });
    expect(check.statusCode, check.body).toBe(201);
    const sessionId = sessionOf(a!.json().url);
    fake.pay(sessionId);
    await settleCheckout(t.app, sessionId);
    await expectExcessGivenBack(id, invoice.balance);
    const excess = [...fake.refunds.values()].filter(
      (r) => r.payment_intent === fake.sessions.get(sessionId)!.payment_intent,
    );
    expect(excess.map((r) => r.amount)).toEqual([2000]);
    // A Pay after a payment by hand ends the stale checkout and starts one for what is owed now.
    const second = await sentInvoice();
    const first = await startPay(second.id, second.q);
    await call('POST', `/api/invoices/${second.id}/payments`, { method: 'cash', amount: 10, paidOn: today });
    const fresh = await startPay(second.id, second.q);
    expect(fresh.json().url).not.toBe(first.json().url);
    expect(fresh.json().amount).toBeCloseTo(second.invoice.balance - 10, 2);
    expect(fake.sessions.get(sessionOf(first.json().url))!.status).toBe('expired');
  });

  it('money beyond the balance that could not be given back at once is given back by the reconciler, once', async () => {
    await turnOn();
    const { id, q, invoice } = await sentInvoice();
    const sessionId = sessionOf((await startPay(id, q)).json().url);
    const today = (await staffView(id)).issueDate as string;
    const check = await call('POST', `/api/invoices/${id}/payments`, { method: 'check', amount: 20, paidOn: today });
    expect(check.statusCode, check.body).toBe(201);
    fake.pay(sessionId);
    // Stripe fails the refund (both of the client's tries): the payment is kept, the excess is owed back.
    fake.fail(/POST \/v1\/refunds/, 'server_error');
    fake.fail(/POST \/v1\/refunds/, 'server_error');
    expect((await settleCheckout(t.app, sessionId)).state).toBe('paid');
    expect(await staffView(id)).toMatchObject({ paid: invoice.balance + 20 });
    const checkoutRow = async () =>
      (await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.sessionId, sessionId)))[0]!;
    expect(await checkoutRow()).toMatchObject({ state: 'paid', excessRefundCents: 2000 });
    const paymentIntent = fake.sessions.get(sessionId)!.payment_intent;
    const refundsOfIt = () => [...fake.refunds.values()].filter((r) => r.payment_intent === paymentIntent);
    expect(refundsOfIt()).toHaveLength(0);

    // Not before its time; then the reconciler's round gives it back and records it.
    await reconcileOnce(t.app, new Date());
    expect(refundsOfIt()).toHaveLength(0);
    await reconcileOnce(t.app, new Date(Date.now() + 3 * 60_000));
    expect(refundsOfIt().map((r) => r.amount)).toEqual([2000]);
    await expectExcessGivenBack(id, invoice.balance);
    expect(await checkoutRow()).toMatchObject({ excessRefundCents: 0 });
    // Later rounds leave it alone.
    await reconcileOnce(t.app, new Date(Date.now() + 3 * 3_600_000));
    expect(refundsOfIt()).toHaveLength(1);
    expect((await staffView(id)).payments).toHaveLength(3);
  });

  it('“Accept and pay the deposit”: the quote says so when deposits are paid online, the yes answers where its checkout starts, and the client’s page offers Pay for what is owed', async () => {
    await call('DELETE', '/api/settings/online-payments');
    const email = `accept${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email, name: 'Paula Payne' });
    expect((await call('PUT', `/api/quoterequest/markAccepted/${request._id}`)).statusCode).toBe(200);
    const sent = await call('POST', '/api/quotes/sendQuote', {
      ...sampleQuoteLines,
      quoteRequestId: request._id,
      deposit: { kind: 'percent', value: 50 },
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text!)![0]);
    const quoteUrl = `/api/client-quotes${link.pathname.slice('/quote'.length)}?token=${link.searchParams.get('token')}`;
    const depositOnline = async () => (await t.app.inject({ method: 'GET', url: quoteUrl })).json().depositOnline;
    expect(await depositOnline()).toBe(false);
    expect((await turnOn('invoices')).statusCode).toBe(200);
    expect(await depositOnline()).toBe(false);
    expect((await turnOn('deposits')).statusCode).toBe(200);
    expect(await depositOnline()).toBe(true);

    const answer = await t.app.inject({
      method: 'POST',
      url: `${link.pathname.replace('/quote/', '/api/client-quotes/')}/answer`,
      payload: { action: 'accept', token: link.searchParams.get('token'), signatureName: 'Paula Payne' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const documents = answer.json().documents as { depositInvoice: string; depositCheckout: string };
    expect(documents.depositCheckout).toMatch(/^\/api\/client-invoices\/[\w-]+\/checkout\?token=[\w.%-]+$/);
    const depositId = /client-invoices\/([\w-]+)\//.exec(documents.depositCheckout)![1]!;
    expect(documents.depositInvoice).toContain(`/invoice/${depositId}?token=`);
    const started = await t.app.inject({ method: 'POST', url: documents.depositCheckout });
    expect(started.statusCode, started.body).toBe(200);
    const deposit = await staffView(depositId);
    expect(started.json().amount).toBe(deposit.balance);
    fake.pay(sessionOf(started.json().url));
    await settleCheckout(t.app, sessionOf(started.json().url));

    // The client's page (its link is in every e-mail): the deposit paid; the final invoice payable there.
    const pageLink = /\/your-page\/([\w-]+)\?token=([\w.%-]+)/.exec(mail.parsed.text!)!;
    const clientPage = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/client-page/${pageLink[1]}?token=${pageLink[2]}` })).json();
    let page = await clientPage();
    expect(page.invoices).toHaveLength(1);
    expect(page.invoices[0]).toMatchObject({ kind: 'deposit', status: 'Paid', balanceCents: 0, checkout: null });
    expect(page.invoices[0].payments).toEqual([
      expect.objectContaining({ method: 'card online', amountCents: Math.round(deposit.balance * 100) }),
    ]);
    const { jobId } = (await call('GET', `/api/invoices/${depositId}`)).json();
    for (const status of ['In Progress', 'Completed']) {
      const moved = await call('PATCH', `/api/jobs/${jobId}/status`, { status });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const draft = await call('POST', `/api/jobs/${jobId}/invoice`);
    expect(draft.statusCode, draft.body).toBe(201);
    expect((await call('POST', `/api/invoices/${draft.json()._id}/send`)).statusCode).toBe(200);
    const finalOf = (view: { invoices: { kind: string }[] }) => view.invoices.find((i) => i.kind === 'final')!;
    // Deposits only: the final invoice is paid the other ways.
    expect(finalOf(await clientPage())).toMatchObject({ checkout: null });
    expect((await turnOn('both')).statusCode).toBe(200);
    page = await clientPage();
    const final = finalOf(page) as unknown as { checkout: string; balanceCents: number; id: string };
    expect(page.balanceCents).toBe(final.balanceCents);
    expect(final.checkout).toMatch(new RegExp(`^/api/client-invoices/${final.id}/checkout\\?token=`));
    const pay = await t.app.inject({ method: 'POST', url: final.checkout });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(Math.round(pay.json().amount * 100)).toBe(final.balanceCents);
    // Another invoice's token does not start this one's checkout.
    const swapped = final.checkout.replace(final.id, depositId);
    expect((await t.app.inject({ method: 'POST', url: swapped })).statusCode).toBe(403);
    // Staff looking at the client's page as they see it get no Pay.
    const theirs = await call('GET', `/api/clients/${pageLink[1]}/their-page`);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().invoices.map((i: { checkout: string | null }) => i.checkout)).toEqual([null, null]);
  });

  it('refunds whole or part, recorded as negative payments; the balance follows; a double answer refunds once', async () => {
    await turnOn();
    const { id, q, invoice } = await sentInvoice();
    const sessionId = sessionOf((await startPay(id, q)).json().url);
    fake.pay(sessionId);
    await settleCheckout(t.app, sessionId);
    const paymentId = (await staffView(id)).payments[0]._id as string;
    const refund = await call('POST', `/api/invoices/${id}/refunds`, { paymentId, amount: 10 });
    expect(refund.statusCode, refund.body).toBe(201);
    let view = await staffView(id);
    expect(view).toMatchObject({ balance: 10, paid: invoice.balance - 10, status: 'Partially Paid' });
    expect(view.payments[1]).toMatchObject({ method: 'refund', amount: -10 });
    expect(view.payments[0].refundable).toBeCloseTo(invoice.balance - 10, 2);
    expect(
      fake
        .posts(/^\/v1\/refunds$/)
        .at(-1)!
        .body.get('amount'),
    ).toBe('1000');
    // The same answer twice (a replayed response): recorded once.
    fake.fail(/POST \/v1\/refunds/, 'same_answer_twice');
    expect((await call('POST', `/api/invoices/${id}/refunds`, { paymentId, amount: 5 })).statusCode).toBe(201);
    view = await staffView(id);
    expect(view.payments.filter((p: { method: string }) => p.method === 'refund')).toHaveLength(1);
    const tooMuch = await call('POST', `/api/invoices/${id}/refunds`, { paymentId, amount: invoice.balance });
    expect(tooMuch.json()).toMatchObject({ code: 'OVERPAYMENT' });
    // The provider refuses: nothing is recorded.
    fake.fail(/POST \/v1\/refunds/, 'card_declined');
    expect((await call('POST', `/api/invoices/${id}/refunds`, { paymentId, amount: 1 })).statusCode).toBe(402);
    expect((await staffView(id)).balance).toBe(10);
  });

  it('the provider declines, fails or does not answer: the client is told, nothing is recorded', async () => {
    await turnOn();
    const { id, q } = await sentInvoice();
    fake.fail(/POST \/v1\/checkout\/sessions$/, 'card_declined');
    expect((await startPay(id, q)).json()).toMatchObject({ statusCode: 402, code: 'PAYMENT_FAILED' });
    fake.fail(/POST \/v1\/checkout\/sessions$/, 'server_error');
    fake.fail(/POST \/v1\/checkout\/sessions$/, 'server_error');
    expect((await startPay(id, q)).json()).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    fake.fail(/POST \/v1\/checkout\/sessions$/, 'timeout');
    fake.fail(/POST \/v1\/checkout\/sessions$/, 'timeout');
    expect((await startPay(id, q)).statusCode).toBe(503);
    expect(await t.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.invoiceId, id))).toHaveLength(
      0,
    );
    // One 500 then an answer: the client's retry carries the same key, and the session is made once.
    // (Under load the library may abandon a timed-out attempt before the fake takes it: start clean.)
    fake.forgetFaults();
    fake.fail(/POST \/v1\/checkout\/sessions$/, 'server_error');
    expect((await startPay(id, q)).statusCode).toBe(200);
    const keys = fake
      .posts(/^\/v1\/checkout\/sessions$/)
      .slice(-2)
      .map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
  });

  it('a bank debit is shown as processing and counts only when it succeeds (the reconciler finds it)', async () => {
    await turnOn();
    const { id, q, invoice } = await sentInvoice();
    const sessionId = sessionOf((await startPay(id, q)).json().url);
    fake.asyncPayments = true;
    try {
      fake.pay(sessionId);
    } finally {
      fake.asyncPayments = false;
    }
    const back = await t.app.inject({
      method: 'POST',
      url: `/api/client-invoices/${id}/checkout/return?${q}`,
      payload: { sessionId },
    });
    expect(back.json()).toEqual({ state: 'processing' });
    expect((await staffView(id)).balance).toBe(invoice.balance);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/client-invoices/${id}/online-payment?${q}` })).json(),
    ).toEqual({
      available: false,
      processing: invoice.balance,
    });
    fake.settle(sessionId);
    await t.database.db
      .update(checkoutSessions)
      .set({ nextCheckAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.sessionId, sessionId));
    await reconcileOnce(t.app);
    expect((await staffView(id)).status).toBe('Paid');
  });

  it('the reconciler’s lease: of several processes asking at once, one holds it', async () => {
    const now = new Date();
    const until = new Date(now.getTime() + 60_000);
    const name = `test-${randomUUID()}`;
    const taken = await Promise.all(
      Array.from({ length: 6 }, (_, i) => takeLease(t.database.db, name, `p${i}`, now, until)),
    );
    expect(taken.filter(Boolean)).toHaveLength(1);
    // Once it runs out, another takes it.
    expect(
      await takeLease(t.database.db, name, 'late', new Date(until.getTime() + 1), new Date(until.getTime() + 60_000)),
    ).toBe(true);
    await t.database.db.execute(sql`select 1`);
  });
});
