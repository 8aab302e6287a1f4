import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, quoteRequests } from '../../src/server/db/schema';
import { contactInput } from '../../src/shared/schemas/contact';
import { quoteRequestInput } from '../../src/shared/schemas/quote-request';
import { createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { futureDate } from '../helpers/dates';

const RUNS = 1000;

const validQuoteRequest = {
  contactPerson: { name: 'Dana Whitfield', email: 'dana@home.test', phone: '916-555-0100' },
  address: { street: '1201 K St', city: 'Sacramento', state: 'CA', zip: '95814' },
  notes: 'Fix the gate',
  preferredEndDate: futureDate(28),
};
const validContact = { firstName: 'Lee', lastName: 'Nguyen', email: 'lee@home.test', phone: '', message: 'Hello' };

/** Keys that have broken naive object merging elsewhere. */
const nastyKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '\u0000',
  'a'.repeat(1000),
);
const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    '\r\nBcc: x@evil.test',
    '<script>alert(1)</script>',
    "'; drop table users; --",
    '%00',
    '\u202e\u200b',
    'a'.repeat(100_000),
    '😀'.repeat(5000),
  ),
);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.jsonValue(),
  fc.constantFrom(null, true, -1, 1e308, -0, [], {}, [[[[]]]]),
);
/** Random bytes presented as a photo. */
const brokenImage = fc
  .tuple(
    fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'text/html'),
    fc.uint8Array({ maxLength: 3000 }),
  )
  .map(([mime, bytes]) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`);

/** A valid body with one thing wrong: a field dropped, changed to junk, or an extra field added. */
function mutated<T extends Record<string, unknown>>(valid: T) {
  const paths = (obj: Record<string, unknown>, prefix: string[] = []): string[][] =>
    Object.entries(obj).flatMap(([k, v]) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? [[...prefix, k], ...paths(v as Record<string, unknown>, [...prefix, k])]
        : [[...prefix, k]],
    );
  const all = paths(valid);
  return fc
    .tuple(fc.constantFrom(...all), fc.constantFrom('drop', 'replace', 'extra'), nastyValue, nastyKey)
    .map(([path, how, value, key]) => {
      const copy = structuredClone(valid) as Record<string, unknown>;
      let target = copy;
      for (const step of path.slice(0, -1)) target = target[step] as Record<string, unknown>;
      const last = path[path.length - 1]!;
      if (how === 'drop') delete target[last];
      else if (how === 'replace') target[last] = value;
      else Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
      return copy;
    });
}

describe('generated bad input never breaks the public API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { RATE_LIMIT_MAX: '1000000', LOGIN_RATE_LIMIT_MAX: '1000000' } });
  });
  afterAll(() => t.close());

  const count = async (table: typeof quoteRequests | typeof contactMessages) =>
    (await t.database.db.select().from(table)).length;
  const send = (method: 'GET' | 'POST', url: string, payload?: unknown, raw = false) =>
    t.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: raw ? (payload as string) : JSON.stringify(payload) }),
    });

  it(`POST /api/quoterequest/create: ${RUNS} bodies, no 5xx, nothing stored unless valid`, async () => {
    const bodies = fc.oneof(
      { weight: 4, arbitrary: mutated(validQuoteRequest) },
      { weight: 1, arbitrary: fc.jsonValue() },
      { weight: 1, arbitrary: fc.dictionary(nastyKey, nastyValue) },
      {
        weight: 2,
        arbitrary: fc
          .array(brokenImage, { minLength: 1, maxLength: 3 })
          .map((images) => ({ ...validQuoteRequest, images })),
      },
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const before = await count(quoteRequests);
        const res = await send('POST', '/api/quoterequest/create', body);
        expect(res.statusCode, res.body).toBeLessThan(500);
        const stored = (await count(quoteRequests)) - before;
        if (res.statusCode === 201) expect(quoteRequestInput.safeParse(body).success).toBe(true);
        else expect(stored).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it(`POST /api/contact: ${RUNS} bodies, no 5xx, nothing stored unless valid`, async () => {
    const bodies = fc.oneof(
      { weight: 4, arbitrary: mutated(validContact) },
      { weight: 1, arbitrary: fc.jsonValue() },
      { weight: 1, arbitrary: fc.dictionary(nastyKey, nastyValue) },
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const before = await count(contactMessages);
        const res = await send('POST', '/api/contact', body);
        expect(res.statusCode, res.body).toBeLessThan(500);
        if (res.statusCode === 201) expect(contactInput.safeParse(body).success).toBe(true);
        else expect((await count(contactMessages)) - before).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it(`raw text that is not JSON, ${RUNS / 2} times per form: 400, never 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.constantFrom('/api/quoterequest/create', '/api/contact', '/api/login'),
        async (text, url) => {
          const res = await send('POST', url, text, true);
          expect(res.statusCode, res.body).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS / 2 },
    );
  });

  it(`POST /api/login and GET /api/login/user-role: ${RUNS} attempts, no 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.record({ username: nastyValue, password: nastyValue }), fc.jsonValue()),
        nastyString,
        async (body, header) => {
          expect((await send('POST', '/api/login', body)).statusCode).toBeLessThan(500);
          const role = await t.app.inject({
            method: 'GET',
            url: '/api/login/user-role',
            headers: { authorization: `Bearer ${header.replace(/[\r\n\0]/g, '')}` },
          });
          expect([200, 401]).toContain(role.statusCode);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it(`staff list searches with generated text: ${RUNS / 2} searches, no 5xx`, async () => {
    const { token } = await createUserAndSignIn(t, 'admin');
    await fc.assert(
      fc.asyncProperty(nastyString, async (search) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/quoterequest/all?search=${encodeURIComponent(search.slice(0, 300))}`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, res.body).toBeLessThan(500);
      }),
      { numRuns: RUNS / 2 },
    );
  });

  it(`GET /api/quoterequest/status/:n (and its timeline) and the client quote link: ${RUNS} keys, no 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(nastyString, nastyValue, async (key, body) => {
        const id = encodeURIComponent(key.slice(0, 500));
        expect((await send('GET', `/api/quoterequest/status/${id}`)).statusCode).toBeLessThan(500);
        expect((await send('GET', `/api/quoterequest/status/${id}/timeline`)).statusCode).toBeLessThan(500);
        expect((await send('GET', `/api/client-quotes/${id}?token=${id}`)).statusCode).toBeLessThan(500);
        expect((await send('POST', `/api/client-quotes/${id}/answer`, body)).statusCode).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });
});
