import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * An in-process fake of the few Stripe endpoints the product calls (decision 035), on 127.0.0.1, for
 * the official `stripe` client pointed at it (host, port, protocol). It checks the form bodies and the
 * Idempotency-Key (the same key with another body is refused, as Stripe does; the same key and body
 * give the first answer again), can be told to answer 402 card_declined, 500, a timeout or the same
 * answer twice, and serves a tiny hosted checkout page whose Pay and Cancel go back to our addresses.
 */

export type Fault = 'card_declined' | 'server_error' | 'timeout' | 'same_answer_twice';

interface Session {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  url: string;
  mode: 'payment';
}

interface Intent {
  id: string;
  object: 'payment_intent';
  status: 'processing' | 'succeeded';
  amount: number;
  latest_charge: string;
  fee: number;
}

export interface FakeRequest {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
/** Stripe's US card pricing: 2.9% + 30¢, the fee the fake reports on a charge. */
export const fakeFee = (amount: number) => Math.round(amount * 0.029) + 30;

const html = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export class FakeStripe {
  readonly sessions = new Map<string, Session>();
  readonly intents = new Map<string, Intent>();
  readonly refunds = new Map<string, { id: string; payment_intent: string; amount: number }>();
  readonly requests: FakeRequest[] = [];
  /** Each POST's key and what it answered. */
  private readonly answers = new Map<string, { body: string; status: number; answer: string }>();
  private readonly lastAnswer = new Map<string, { status: number; answer: string }>();
  private readonly faults: { match: RegExp; fault: Fault }[] = [];
  /** Pay with a bank debit: the payment is processing until `settle`. */
  asyncPayments = false;
  /** The secret key the fake accepts (a restricted key, as the owner pastes). */
  readonly secretKey = `rk_test_${randomBytes(16).toString('hex')}`;
  private server: http.Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next request whose "METHOD path" matches gets this answer instead (once). */
  fail(match: RegExp, fault: Fault) {
    this.faults.push({ match, fault });
  }

  /**
   * Forgets the answers set by `fail` that no request has taken yet: the client's library gave up or
   * retried on its own (a timed-out request it abandoned before sending, a kept-alive connection found
   * closed), so a later scenario does not meet an earlier one's fault.
   */
  forgetFaults() {
    this.faults.length = 0;
  }

  /** The client pays on the hosted page (what the Pay button does). */
  pay(sessionId: string) {
    const session = this.sessions.get(sessionId);
    if (!session || session.status !== 'open') return undefined;
    const intent: Intent = {
      id: newId('pi'),
      object: 'payment_intent',
      status: this.asyncPayments ? 'processing' : 'succeeded',
      amount: session.amount_total,
      latest_charge: newId('ch'),
      fee: fakeFee(session.amount_total),
    };
    this.intents.set(intent.id, intent);
    session.status = 'complete';
    session.payment_status = this.asyncPayments ? 'unpaid' : 'paid';
    session.payment_intent = intent.id;
    return session;
  }

  /** A bank debit clears. */
  settle(sessionId: string) {
    const session = this.sessions.get(sessionId)!;
    this.intents.get(session.payment_intent!)!.status = 'succeeded';
    session.payment_status = 'paid';
  }

  /** A signed webhook event for a session, as Stripe would deliver it: the body and its header. */
  webhook(
    type: string,
    sessionId: string,
    secret: string,
    options: { timestamp?: number; eventId?: string } = {},
  ): { body: string; signature: string; eventId: string } {
    const eventId = options.eventId ?? newId('evt');
    const body = JSON.stringify(
      {
        id: eventId,
        object: 'event',
        type,
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        data: { object: this.sessions.get(sessionId) ?? { id: sessionId, object: 'checkout.session' } },
      },
      null,
      2,
    );
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
    return { body, signature, eventId };
  }

  posts(path: RegExp) {
    return this.requests.filter((r) => r.method === 'POST' && path.test(r.path));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', this.url);
    const method = req.method ?? 'GET';
    const route = `${method} ${url.pathname}`;
    const send = (status: number, body: unknown) => {
      const answer = JSON.stringify(body);
      if (url.pathname.startsWith('/v1/'))
        this.lastAnswer.set(route.replace(/\/[a-z]+_test_\w+/g, '/:id'), { status, answer });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(answer);
    };
    const error = (status: number, type: string, message: string, code?: string) =>
      send(status, { error: { type, message, ...(code ? { code, decline_code: 'generic_decline' } : {}) } });

    // The hosted page: Pay and Cancel, back to our addresses.
    const page = /^\/pay\/(cs_test_\w+)(\/pay)?$/.exec(url.pathname);
    if (page) return this.hostedPage(res, method, page[1]!, Boolean(page[2]));

    const body = new URLSearchParams(raw);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    this.requests.push({ method, path: url.pathname, body, idempotencyKey, authorization: req.headers.authorization });

    const faultAt = this.faults.findIndex((f) => f.match.test(route));
    if (faultAt >= 0) {
      const { fault } = this.faults.splice(faultAt, 1)[0]!;
      if (fault === 'timeout') return; // never answers: the client's timeout ends it
      if (fault === 'server_error') return error(500, 'api_error', 'Something went wrong on our end');
      if (fault === 'card_declined') return error(402, 'card_error', 'Your card was declined.', 'card_declined');
      const last = this.lastAnswer.get(route.replace(/\/[a-z]+_test_\w+/g, '/:id'));
      if (last) {
        res.writeHead(last.status, { 'content-type': 'application/json' });
        return res.end(last.answer);
      }
    }
    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return error(401, 'invalid_request_error', 'Invalid API Key provided');

    if (method === 'POST') {
      if (!idempotencyKey) return error(400, 'invalid_request_error', 'fake: every POST must carry an Idempotency-Key');
      const seen = this.answers.get(idempotencyKey);
      if (seen) {
        if (seen.body !== raw)
          return error(
            400,
            'idempotency_error',
            'Keys for idempotent requests can only be used with the same parameters',
          );
        res.writeHead(seen.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return res.end(seen.answer);
      }
      const before = res.end.bind(res);
      res.end = ((chunk: string) => {
        this.answers.set(idempotencyKey, { body: raw, status: res.statusCode, answer: chunk });
        return before(chunk);
      }) as typeof res.end;
    }

    if (route === 'POST /v1/checkout/sessions') {
      const amount = Number(body.get('line_items[0][price_data][unit_amount]'));
      const problems = [
        body.get('mode') !== 'payment' && 'mode must be payment',
        !/^https?:\/\//.test(body.get('success_url') ?? '') && 'success_url',
        !/^https?:\/\//.test(body.get('cancel_url') ?? '') && 'cancel_url',
        (!Number.isInteger(amount) || amount < 50) && 'unit_amount must be whole cents, at least 50',
        body.get('line_items[0][price_data][currency]') !== 'usd' && 'currency',
        body.get('line_items[0][quantity]') !== '1' && 'quantity',
        !body.get('line_items[0][price_data][product_data][name]') && 'product name',
        body.has('line_items[1][quantity]') && 'one line only',
      ].filter(Boolean);
      if (problems.length) return error(400, 'invalid_request_error', `fake: ${problems.join(', ')}`);
      const id = newId('cs');
      const metadata: Record<string, string> = {};
      for (const [k, v] of body) {
        const key = /^metadata\[(\w+)\]$/.exec(k)?.[1];
        if (key) metadata[key] = v;
      }
      const session: Session = {
        id,
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: 'usd',
        client_reference_id: body.get('client_reference_id'),
        customer_email: body.get('customer_email'),
        metadata,
        payment_intent: null,
        success_url: body.get('success_url')!,
        cancel_url: body.get('cancel_url')!,
        expires_at: Number(body.get('expires_at') ?? Math.floor(Date.now() / 1000) + 86_400),
        url: `${this.url}/pay/${id}`,
        mode: 'payment',
      };
      this.sessions.set(id, session);
      return send(200, session);
    }
    if (route === 'GET /v1/checkout/sessions')
      return send(200, { object: 'list', data: [...this.sessions.values()].slice(0, 1), has_more: false });
    const sessionPath = /^\/v1\/checkout\/sessions\/(cs_test_\w+)(\/expire)?$/.exec(url.pathname);
    if (sessionPath) {
      const session = this.sessions.get(sessionPath[1]!);
      if (!session) return error(404, 'invalid_request_error', 'No such checkout.session', 'resource_missing');
      if (sessionPath[2] && method === 'POST') {
        if (session.status !== 'open') return error(400, 'invalid_request_error', 'Only open sessions can be expired');
        session.status = 'expired';
      }
      return send(200, session);
    }
    const intentPath = /^\/v1\/payment_intents\/(pi_test_\w+)$/.exec(url.pathname);
    if (intentPath && method === 'GET') {
      const intent = this.intents.get(intentPath[1]!);
      if (!intent) return error(404, 'invalid_request_error', 'No such payment_intent', 'resource_missing');
      const expanded = [...url.searchParams]
        .filter(([key]) => /^expand\[\d*\]$/.test(key))
        .some(([, value]) => value === 'latest_charge.balance_transaction');
      const settled = intent.status === 'succeeded';
      return send(200, {
        id: intent.id,
        object: 'payment_intent',
        status: intent.status,
        amount: intent.amount,
        latest_charge: expanded
          ? {
              id: intent.latest_charge,
              object: 'charge',
              balance_transaction: settled
                ? { id: newId('txn'), object: 'balance_transaction', fee: intent.fee }
                : null,
            }
          : intent.latest_charge,
      });
    }
    if (route === 'POST /v1/refunds') {
      const intent = this.intents.get(body.get('payment_intent') ?? '');
      const amount = Number(body.get('amount'));
      if (!intent) return error(400, 'invalid_request_error', 'No such payment_intent', 'resource_missing');
      const refunded = [...this.refunds.values()]
        .filter((r) => r.payment_intent === intent.id)
        .reduce((sum, r) => sum + r.amount, 0);
      if (!Number.isInteger(amount) || amount <= 0 || amount + refunded > intent.amount)
        return error(
          400,
          'invalid_request_error',
          'Refund amount is greater than unrefunded amount',
          'amount_too_large',
        );
      const refund = { id: newId('re'), object: 'refund', payment_intent: intent.id, amount, status: 'succeeded' };
      this.refunds.set(refund.id, refund);
      return send(200, refund);
    }
    return error(404, 'invalid_request_error', `fake: no route ${route}`);
  }

  private hostedPage(res: http.ServerResponse, method: string, id: string, paying: boolean) {
    const session = this.sessions.get(id);
    if (!session) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('No such checkout');
    }
    if (paying && method === 'POST') {
      this.pay(id);
      res.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', id) });
      return res.end();
    }
    const dollars = (session.amount_total / 100).toFixed(2);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Fake Stripe Checkout</title></head><body style="font-family:sans-serif;max-width:24rem;margin:2rem auto;padding:0 1rem">
<h1>Pay $${dollars}</h1><p>${html(session.customer_email ?? '')}</p>
${session.status === 'open' ? `<form method="post" action="/pay/${id}/pay"><button type="submit">Pay $${dollars}</button></form>` : `<p>This checkout is ${session.status}.</p>`}
<p><a href="${html(session.cancel_url)}">Cancel</a></p></body></html>`);
  }
}
