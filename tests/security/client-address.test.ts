// Issue 11, item 1: the client's address comes from the socket unless TRUST_PROXY names the proxy,
// and the thank-you e-mail to an unverified address repeats nothing the visitor chose but a first name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/smtp';
import { createMailingTestApp, createTestApp, type TestApp } from '../helpers/test-app';
import { routeDbKind } from '../helpers/test-db';
import type { TestSmtpServer } from '../helpers/smtp';

const body = (name = 'Dana Whitfield', notes = 'Fix the gate') => ({
  contactPerson: { name, email: 'victim@home.test', phone: '' },
  address: { street: '1201 K St', city: 'Sacramento', state: 'CA', zip: '95814' },
  notes,
});
const contact = { firstName: 'A', lastName: 'B', email: 'a@b.test', message: 'hi' };

describe('X-Forwarded-For without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(routeDbKind, { env: { RATE_LIMIT_MAX: '5', LOGIN_RATE_LIMIT_MAX: '10' } });
  });
  afterAll(() => t.close());

  it('does not reset the per-address limit on contact messages with a new header each time', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        payload: contact,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(codes.slice(5)).toEqual([429, 429, 429]);
  });

  it('does not reset the per-address limit on quote requests either', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/quoterequest/create',
        remoteAddress: '203.0.113.8',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 10.0.0.1` },
        payload: body(),
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('TRUST_PROXY set to the proxy in front', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(routeDbKind, { env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: '127.0.0.1/32' } });
  });
  afterAll(() => t.close());

  it('counts the address the proxy reports, and only from that proxy', async () => {
    const viaProxy = (client: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
        payload: contact,
      });
    expect((await viaProxy('198.51.100.1')).statusCode).toBe(201);
    expect((await viaProxy('198.51.100.1')).statusCode).toBe(201);
    expect((await viaProxy('198.51.100.1')).statusCode).toBe(429);
    // Another visitor behind the same proxy has a budget of their own.
    expect((await viaProxy('198.51.100.2')).statusCode).toBe(201);
    // A caller that is not the proxy cannot choose its address.
    const direct = (client: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': client },
        payload: contact,
      });
    expect((await direct('198.51.100.3')).statusCode).toBe(201);
    expect((await direct('198.51.100.4')).statusCode).toBe(201);
    expect((await direct('198.51.100.5')).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(routeDbKind, { env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  it('counts the address one hop back, not the one the client wrote further left', async () => {
    const send = (chain: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': chain },
        payload: contact,
      });
    // The proxy appends the address it saw; whatever the client put before it is ignored.
    expect((await send('1.1.1.1, 198.51.100.40')).statusCode).toBe(201);
    expect((await send('2.2.2.2, 198.51.100.40')).statusCode).toBe(201);
    expect((await send('3.3.3.3, 198.51.100.40')).statusCode).toBe(429);
    expect((await send('198.51.100.41')).statusCode).toBe(201);
  });
});

describe('the thank-you e-mail to an unverified address', () => {
  let t: TestApp & { smtp: TestSmtpServer };
  beforeAll(async () => {
    t = await createMailingTestApp(routeDbKind);
  });
  afterAll(() => t.close());

  it('carries only a first name of what the visitor typed; the owner still gets everything', async () => {
    const phishingName = `Win${'x'.repeat(80)} Visit http://evil.test/claim\nNow`;
    const phishingNotes = 'URGENT: your account is locked, sign in at http://evil.test/login';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      payload: body(phishingName, phishingNotes),
    });
    expect(res.statusCode, res.body).toBe(201);
    const [thanks] = await waitFor(
      () => (t.smtp.to('victim@home.test').length ? t.smtp.to('victim@home.test') : undefined),
      { what: 'thank-you mail' },
    );
    const text = thanks!.parsed.text ?? '';
    const html = String(thanks!.parsed.html);
    for (const content of [text, html, thanks!.parsed.subject ?? '']) {
      expect(content).not.toContain('evil.test');
      expect(content).not.toContain('URGENT');
      expect(content).not.toContain('1201 K St');
    }
    expect(text).toContain(`Hi Win${'x'.repeat(57)},`);
    expect(text).not.toContain('x'.repeat(58));
    const notice = await waitFor(() => t.smtp.to('owner@handyman.test')[0], { what: 'owner notice' });
    expect(notice.parsed.text).toContain(phishingNotes);
    expect(notice.parsed.text).toContain('1201 K St');
  });
});
