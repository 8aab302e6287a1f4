import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, quoteRequests } from '../../src/server/db/schema';
import { contactInput } from '#shared/schemas/contact';
import { quoteRequestInput } from '#shared/schemas/quote-request';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { futureDate } from '../helpers/dates';
import { routeDbKind } from '../helpers/test-db';
import { createQuoteRequest, insertJob } from '../helpers/factories';

const RUNS = 1000;
// A thousand requests each that count rows before and after: 12–16 s alone on the embedded database, and
// up to twice that when the other test worker loads the two cores (two timed out at 30 s under load).

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
    t = await createTestApp(routeDbKind, { env: { RATE_LIMIT_MAX: '1000000', LOGIN_RATE_LIMIT_MAX: '1000000' } });
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
  }, 90_000);

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
  }, 90_000);

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

/*
 * Issue 25.8 ("Done when"): every registered route, as anonymous, crew and admin, gets bad input built
 * from its own OpenAPI description (wrong types, huge strings, lone surrogates, NUL, negative and huge
 * numbers, years 0000 and 9999, bad ids, missing and extra fields, malformed JSON). Any 5xx fails.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  minItems?: number;
  minLength?: number;
  pattern?: string;
};
type Operation = {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

/** A deterministic pseudo-random sequence (mulberry32), so a failure reproduces. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A plausible value for a schema: the starting point the bad inputs change one thing of. */
function plausible(schema: Schema | undefined, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length)
    return plausible(alternatives.find((a) => a.type !== 'null') ?? alternatives[0], name, depth + 1);
  if (schema.allOf?.length) return plausible(schema.allOf[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, plausible(inner, key, depth + 1)]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => plausible(schema.items, name, depth + 1));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      if (schema.pattern) {
        // Text of a shape (a date, a time of day, a ZIP code): the first of the usual ones that fits.
        const fits = new RegExp(schema.pattern, 'u');
        const candidates = [
          /end/i.test(name) ? '11:00' : '09:00',
          futureDate(7),
          new Date().toISOString(),
          '95814',
          '916-555-0100',
          'CA',
          'America/Los_Angeles',
          'x',
        ];
        const found = candidates.find((c) => fits.test(c));
        if (found) return found;
      }
      if (schema.format === 'date' || /date$/i.test(name)) return futureDate(7);
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'email' || /email/i.test(name)) return 'someone@home.test';
      if (schema.format === 'uuid') return randomUUID();
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** Where in a body a value sits: the paths of its fields, nested ones too. */
function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...fieldPaths(inner, [...prefix, key])]);
}
function valueAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}
function withField(body: unknown, path: string[], change: (target: Record<string, unknown>, key: string) => void) {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target = copy;
  for (const step of path.slice(0, -1)) target = target[step] as Record<string, unknown>;
  change(target, path[path.length - 1]!);
  return copy;
}

/** Values that have broken servers: each replaces one field of a plausible body, or one parameter. */
const BAD_VALUES: readonly unknown[] = [
  null,
  -1,
  -0.5,
  1e308,
  2 ** 53 + 1,
  'x'.repeat(100_000),
  '0000-01-01',
  '9999-12-31',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  'not a date',
  [],
  {},
  [[[[]]]],
  true,
  '',
  ' ',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  'US/Pacific-New',
];
const BAD_IDS = ['x', '0', '-1', '9'.repeat(40), 'a'.repeat(300), '..%2F..%2Fetc%2Fpasswd', '%E2%80%AE', randomUUID()];
const BAD_QUERY = ['0000-01-01', '9999-12-31', '-1', '1e308', 'NaN', 'x'.repeat(3000), '', 'true', '[]', '%00'];

/** Tries per route for its own callers (FUZZ_PER_ROUTE=60 for a longer hunt). */
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 12);

interface Attempt {
  what: string;
  url: string;
  payload?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

describe(`every route, bad input, three callers: never a 5xx (${routeDbKind})`, () => {
  let t: TestApp;
  const tokens: Record<'crew' | 'admin', string> = { crew: '', admin: '' };
  const real: Record<string, string[]> = {};
  beforeAll(async () => {
    t = await createTestApp(routeDbKind, {
      env: { RATE_LIMIT_MAX: '1000000', LOGIN_RATE_LIMIT_MAX: '1000000', STATUS_RATE_LIMIT_MAX: '1000000' },
    });
    const crew = await createUserAndSignIn(t, 'employee');
    tokens.crew = crew.token;
    tokens.admin = (await createUserAndSignIn(t, 'admin')).token;
    // Real ids, so that bad bodies reach the handlers behind a route's own lookups.
    const request = await createQuoteRequest(t);
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id });
    await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${jobId}/assign`,
      headers: bearer(tokens.admin),
      payload: { workers: [{ _id: crew.user.id }] },
    });
    const victim = await createUserAndSignIn(t, 'employee');
    real.id = [jobId, request._id, victim.user.id];
    real.job = [jobId];
    real.user = [victim.user.id];
    real.quoteRequestId = [request._id];
    real.quoteNumber = [request.quoteNumber];
    real.itemId = [randomUUID()];
    real.dataset = ['clients', 'jobs'];
    real.file = ['x.ics'];
  }, 120_000);
  afterAll(() => t?.close());

  /** Signs the caller in again when a route (sign out, end sessions) ended their session. */
  async function stillSignedIn(who: 'crew' | 'admin') {
    const role = await t.app.inject({ method: 'GET', url: '/api/login/user-role', headers: bearer(tokens[who]) });
    if (role.statusCode !== 200)
      tokens[who] = (await createUserAndSignIn(t, who === 'crew' ? 'employee' : 'admin')).token;
  }

  function attemptsFor(method: string, url: string, op: Operation | undefined, next: () => number, count: number) {
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const pathParams = (url.match(/:(\w+)/g) ?? []).map((p) => p.slice(1));
    // The id a route's own lookup finds: its job, request or user; else one a route made (a visit, an invoice).
    const poolFor = (name: string): string[] =>
      name !== 'id'
        ? (real[name] ?? real.id!)
        : url.includes('jobs/:id')
          ? real.job!
          : url.includes('/quoterequest/')
            ? real.quoteRequestId!
            : url.includes('/users/')
              ? real.user!
              : real.id!;
    const realUrl = (bad?: string) =>
      url.replace(/:(\w+)/g, (_m, name: string) =>
        bad !== undefined && name === bad ? pick(BAD_IDS) : encodeURIComponent(pick(poolFor(name))),
      );
    const query = (op?.parameters ?? []).filter((p) => p.in === 'query');
    const headerParams = (op?.parameters ?? []).filter((p) => p.in === 'header');
    const json = op?.requestBody?.content?.['application/json']?.schema;
    const fileBody = !json && op?.requestBody;
    // Each shape a body may take (a union's alternatives), each a plausible starting point.
    const shapes = json ? [...(json.anyOf ?? json.oneOf ?? [json])].map((shape) => plausible(shape)) : [];
    const base = shapes.length ? pick(shapes) : undefined;
    const kinds: (() => Attempt)[] = [];
    for (const param of pathParams)
      kinds.push(() => ({
        what: `bad :${param}`,
        url: realUrl(param),
        ...(json ? { payload: JSON.stringify(base) } : {}),
      }));
    if (query.length)
      kinds.push(() => {
        const q = pick(query);
        const value = pick(BAD_QUERY);
        return {
          what: `query ${q.name}=${value.slice(0, 20)}`,
          url: `${realUrl()}?${q.name}=${encodeURIComponent(value)}`,
        };
      });
    if (headerParams.length)
      kinds.push(() => {
        const h = pick(headerParams);
        const value = pick(['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', 'x', '-1', 'a'.repeat(2000)]);
        return {
          what: `header ${h.name}=${value.slice(0, 20)}`,
          url: realUrl(),
          headers: { [h.name]: value },
          payload: JSON.stringify(base ?? {}),
        };
      });
    if (json) {
      const paths = fieldPaths(base);
      kinds.push(() => ({ what: 'plausible body', url: realUrl(), payload: JSON.stringify(base) }));
      if (paths.length) {
        kinds.push(() => {
          const path = pick(paths);
          const value = pick(BAD_VALUES);
          return {
            what: `${path.join('.')} = ${JSON.stringify(value)?.slice(0, 30)}`,
            url: realUrl(),
            payload: JSON.stringify(withField(base, path, (target, key) => (target[key] = value))),
          };
        });
        kinds.push(() => {
          const path = pick(paths);
          return {
            what: `${path.join('.')} missing`,
            url: realUrl(),
            payload: JSON.stringify(withField(base, path, (target, key) => delete target[key])),
          };
        });
        kinds.push(() => {
          const path = pick(paths);
          const text = pick(['G \\ud800', 'a\\u0000b', '\\udfff']);
          const marker = '"@@marker@@"';
          const payload = JSON.stringify(withField(base, path, (target, key) => (target[key] = '@@marker@@')));
          return {
            what: `${path.join('.')} = "${text}"`,
            url: realUrl(),
            payload: payload.replace(marker, `"${text}"`),
          };
        });
      }
      // Every date in every shape, at the ends of the calendar.
      for (const shape of shapes)
        for (const path of fieldPaths(shape).filter((p) => /^\d{4}-\d\d-\d\d/.test(String(valueAt(shape, p)))))
          kinds.push(() => {
            const original = String(valueAt(shape, path));
            const value = pick(['0000', '0001', '9999']) + original.slice(4);
            return {
              what: `${path.join('.')} = ${value}`,
              url: realUrl(),
              payload: JSON.stringify(withField(shape, path, (target, key) => (target[key] = value))),
            };
          });
      kinds.push(() => ({
        what: 'extra fields',
        url: realUrl(),
        payload: JSON.stringify({ ...(base as object), extra: 'x', _id: 'x', id: -1, role: 'admin' }),
      }));
      kinds.push(() => ({
        what: 'prototype keys',
        url: realUrl(),
        payload: `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify(base).slice(1)}`,
      }));
      kinds.push(() => {
        const payload = pick(['{"a":', '[]', 'null', '"text"', '1e999', '{"a":1}'.repeat(2), '\u0000']);
        return { what: `body ${JSON.stringify(payload)}`, url: realUrl(), payload };
      });
    } else if (fileBody) {
      kinds.push(() => {
        const payload = pick(['', 'a,b\n"=1+1",2\n', '\u0000\u0001', 'x'.repeat(200_000), '"unterminated']);
        return {
          what: `file ${JSON.stringify(payload.slice(0, 20))}`,
          url: realUrl(),
          payload,
          contentType: 'text/csv',
        };
      });
    } else if (method !== 'GET') {
      kinds.push(() => ({ what: 'unexpected body', url: realUrl(), payload: '{"a":' }));
    }
    if (!kinds.length)
      kinds.push(() => ({ what: 'extra query', url: `${realUrl()}?x=${encodeURIComponent(pick(BAD_QUERY))}` }));
    return Array.from({ length: Math.min(count, Math.max(2, kinds.length * 2)) }, (_, i) => kinds[i % kinds.length]!());
  }

  it('answers every route’s bad input with a 4xx (or a 2xx), as anonymous, crew and admin', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const routes = t.app.routeAccess.filter((r) => r.url.startsWith('/api/'));
    expect(routes.length).toBeGreaterThan(90);
    const next = random(25);
    const failures: string[] = [];
    let sent = 0;
    for (const who of ['anonymous', 'crew', 'admin'] as const) {
      for (const route of routes) {
        const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
        // Callers the guard turns away need only a couple of tries; the route's own callers get more.
        const reaches =
          route.access === 'public' || (route.access === 'staff' && who !== 'anonymous') || who === 'admin';
        const heavy = /backups\/download|export\/|\.csv$|\/pdf$|report\.pdf/.test(route.url);
        const count = !reaches ? 2 : heavy ? 3 : PER_ROUTE;
        for (const attempt of attemptsFor(route.method, route.url, op, next, count)) {
          const res = await t.app.inject({
            method: route.method as 'GET',
            url: attempt.url,
            headers: {
              ...(who === 'anonymous' ? {} : bearer(tokens[who])),
              ...(attempt.payload !== undefined ? { 'content-type': attempt.contentType ?? 'application/json' } : {}),
              ...attempt.headers,
            },
            ...(attempt.payload !== undefined ? { payload: attempt.payload } : {}),
          });
          sent++;
          // What a route made (a visit, an invoice, a client) becomes an id the next routes try.
          if (res.statusCode < 300 && String(res.headers['content-type']).includes('application/json')) {
            const made = res.json<Record<string, unknown>>();
            const id = made && typeof made === 'object' ? (made._id ?? made.id) : undefined;
            if (typeof id === 'string' && !real.id!.includes(id)) real.id!.push(id);
          }
          if (process.env.FUZZ_TRACE && route.url.includes(process.env.FUZZ_TRACE))
            console.log(who, route.method, attempt.url, attempt.what, res.statusCode, res.body.slice(0, 160));
          if (res.statusCode >= 500) {
            const key = `${route.method} ${route.url}: ${attempt.what}`;
            failures.push(`${who} ${key} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
        if (who !== 'anonymous') await stillSignedIn(who);
      }
    }
    expect(sent).toBeGreaterThan(600);
    expect(failures).toEqual([]);
  }, 600_000);
});
