import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import twilio from 'twilio';

/**
 * An in-process fake of the few Twilio endpoints the product calls (decision 045), on 127.0.0.1, for
 * the official `twilio` client pointed at it. It checks the account's basic auth and the form each
 * message is sent with, answers as Twilio does (201 queued, or its error body), and posts delivery
 * reports and replies signed the way Twilio signs them (`X-Twilio-Signature`, made with the client
 * library's own `getExpectedTwilioSignature`).
 */

/**
 * timeout: the message is not taken and never answered; answer_lost: it is taken (and will be sent) but
 * the answer never comes back, as when a connection drops after Twilio created the message.
 */
export type TwilioFault = 'invalid_number' | 'unsubscribed' | 'server_error' | 'timeout' | 'answer_lost';

export interface FakeMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  createdAt: Date;
}

/** How a signed post reaches the app: over HTTP by default, or through `app.inject` in API tests. */
export type Poster = (url: string, form: string, headers: Record<string, string>) => Promise<number>;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const fetchPoster: Poster = async (url, form, headers) =>
  (await fetch(url, { method: 'POST', body: form, headers })).status;

export class FakeTwilio {
  readonly accountSid = `AC${hex(16)}`;
  readonly authToken = hex(16);
  readonly messages: FakeMessage[] = [];
  /** Every request, in order, as the fake saw it. */
  readonly requests: { method: string; path: string; form: URLSearchParams; authorized: boolean }[] = [];
  private faults: { match: RegExp; fault: TwilioFault }[] = [];
  private server: http.Server | undefined;
  url = '';

  /** The next messages to a number matching `match` answer with `fault`. */
  fail(match: RegExp, fault: TwilioFault) {
    this.faults.push({ match, fault });
  }

  forgetFaults() {
    this.faults = [];
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => this.answer(req, res, raw));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const path = (req.url ?? '').split('?')[0]!;
    const form = new URLSearchParams(raw);
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    const authorized = req.headers.authorization === expected;
    this.requests.push({ method: req.method ?? '', path, form, authorized });
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string) =>
      json(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
    if (path.startsWith('/_fake/')) return void this.control(req, path, raw, json);
    if (!authorized) return error(401, 20003, 'Authenticate');
    if (req.method === 'GET' && path === `/2010-04-01/Accounts/${this.accountSid}.json`)
      return json(200, { sid: this.accountSid, friendly_name: 'Sac Handyman', status: 'active', type: 'Full' });
    if (req.method === 'POST' && path === `/2010-04-01/Accounts/${this.accountSid}/Messages.json`) {
      const to = form.get('To') ?? '';
      const body = form.get('Body') ?? '';
      const from = form.get('From');
      const service = form.get('MessagingServiceSid');
      if (!/^\+[1-9]\d{7,14}$/.test(to)) return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (!body) return error(400, 21602, 'Message body is required.');
      if (!from && !service) return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required.");
      const fault = this.faults.find((f) => f.match.test(to))?.fault;
      if (fault === 'timeout') return; // never answered
      if (fault === 'server_error') return error(500, 20500, 'Internal Server Error');
      if (fault === 'invalid_number') return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (fault === 'unsubscribed') return error(400, 21610, 'Attempt to send to unsubscribed recipient');
      const message: FakeMessage = {
        sid: `SM${hex(16)}`,
        to,
        from,
        messagingServiceSid: service,
        body,
        statusCallback: form.get('StatusCallback'),
        createdAt: new Date(),
      };
      this.messages.push(message);
      if (fault === 'answer_lost') return; // taken, and the answer never comes back
      return json(201, {
        sid: message.sid,
        account_sid: this.accountSid,
        to,
        from,
        messaging_service_sid: service,
        body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${message.sid}.json`,
      });
    }
    if (req.method === 'GET' && path === `/2010-04-01/Accounts/${this.accountSid}/Messages.json`) {
      // Twilio's list, newest first, filtered by To, one page (what the product reads).
      const query = new URL(req.url ?? '', 'http://fake').searchParams;
      const to = query.get('To');
      const size = Number(query.get('PageSize') ?? 50);
      const listed = this.messages
        .filter((m) => !to || m.to === to)
        .reverse()
        .slice(0, size);
      const uri = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
      return json(200, {
        messages: listed.map((m) => ({
          sid: m.sid,
          account_sid: this.accountSid,
          to: m.to,
          from: m.from,
          messaging_service_sid: m.messagingServiceSid,
          body: m.body,
          status: 'sent',
          direction: 'outbound-api',
          num_segments: '1',
          api_version: '2010-04-01',
          date_created: m.createdAt.toUTCString(),
          date_sent: m.createdAt.toUTCString(),
          uri: `${uri.replace(/\.json$/, '')}/${m.sid}.json`,
        })),
        end: listed.length ? listed.length - 1 : 0,
        first_page_uri: `${uri}?PageSize=${size}&Page=0`,
        next_page_uri: null,
        page: 0,
        page_size: size,
        previous_page_uri: null,
        start: 0,
        uri: `${uri}?PageSize=${size}&Page=0`,
      });
    }
    return error(404, 20404, 'The requested resource was not found');
  }

  /**
   * The browser tests' handle on the fake, which runs in their global setup: the messages sent to a
   * number, and a delivery report or a reply to post (JSON in, JSON out; not part of Twilio's API).
   */
  private async control(
    req: http.IncomingMessage,
    path: string,
    raw: string,
    json: (status: number, body: object) => void,
  ) {
    try {
      if (path === '/_fake/messages') {
        const to = new URL(req.url ?? '', 'http://fake').searchParams.get('to') ?? '';
        return json(200, { messages: this.to(to) });
      }
      const body = JSON.parse(raw || '{}') as Record<string, string>;
      if (path === '/_fake/report') {
        const message = this.messages.find((m) => m.sid === body.sid);
        if (!message) return json(404, { error: 'no such message' });
        const status = await this.report(message, body.status as 'delivered', {
          ...(body.errorCode ? { errorCode: Number(body.errorCode) } : {}),
        });
        return json(200, { status });
      }
      if (path === '/_fake/reply') return json(200, { status: await this.reply(body.url!, body.from!, body.body!) });
      return json(404, { error: 'unknown control' });
    } catch (error) {
      return json(500, { error: String(error) });
    }
  }

  /** A form post signed as Twilio signs it: over the exact address and the fields. */
  signed(url: string, params: Record<string, string>, token = this.authToken) {
    return {
      form: new URLSearchParams(params).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url, params),
      },
    };
  }

  /** Twilio's delivery report for a message, posted to its StatusCallback; the app's HTTP status. */
  async report(
    message: FakeMessage,
    status: 'sent' | 'delivered' | 'undelivered' | 'failed',
    options: { errorCode?: number; post?: Poster } = {},
  ): Promise<number> {
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      MessageSid: message.sid,
      SmsSid: message.sid,
      MessageStatus: status,
      SmsStatus: status,
      To: message.to,
      From: message.from ?? '+19165550000',
      ...(options.errorCode ? { ErrorCode: String(options.errorCode) } : {}),
    };
    const url = message.statusCallback!;
    const { form, headers } = this.signed(url, params);
    return (options.post ?? fetchPoster)(url, form, headers);
  }

  /** A text a client sends the business's number, posted to the number's incoming-message address. */
  async reply(url: string, from: string, body: string, post: Poster = fetchPoster): Promise<number> {
    const params = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      MessageSid: `SM${hex(16)}`,
      From: from,
      To: '+19165550000',
      Body: body,
      NumMedia: '0',
    };
    const { form, headers } = this.signed(url, params);
    return post(url, form, headers);
  }

  /** The messages sent to a number. */
  to(number: string) {
    return this.messages.filter((m) => m.to === number);
  }
}
