// Issue 11, item 6: answers of 400 instead of 500, and nothing secret or personal in the log.
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/lib/passwords';
import { loggerOptions } from '../../src/server/lib/logging';
import { describeError, safeError } from '../../src/server/lib/safe-error';
import { insertUser } from '../../src/server/users/repository';
import { messages } from '#shared/messages';
import { todayInBusinessZone } from '../helpers/dates';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

class LogCapture extends Writable {
  lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void) {
    for (const line of chunk.toString().split('\n').filter(Boolean))
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    callback();
  }
  get text() {
    return this.lines.map((l) => JSON.stringify(l)).join('\n');
  }
}

const validRequest = (preferredEndDate?: string) => ({
  contactPerson: { name: 'Dana Whitfield', email: 'dana.whitfield@home.test', phone: '916-555-0100' },
  address: { street: '4417 Secret Garden Way', city: 'Sacramento', state: 'CA', zip: '95814' },
  notes: 'Fix the gate',
  ...(preferredEndDate === undefined ? {} : { preferredEndDate }),
});

function nested(depth: number): string {
  return `{"notes":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

describe.each(dbKinds)('bad input answers 400, and the log stays clean (%s)', (kind) => {
  let t: TestApp;
  const log = new LogCapture();
  beforeAll(async () => {
    t = await createTestApp(kind, { logger: loggerOptions('info', log), env: { RATE_LIMIT_MAX: '1000' } });
  });
  afterAll(() => t.close());

  it('answers 400 to JSON nested 8,000 levels deep on every public POST', async () => {
    for (const url of ['/api/quoterequest/create', '/api/contact', '/api/login', '/api/client-quotes/x/answer']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: nested(8000),
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe('body: nested more than 32 levels deep');
    }
  });

  it('answers 400 naming the field for a preferred end date out of range or in the past, and logs nothing of the client', async () => {
    const cases: [string, string][] = [
      ['0000-01-01', 'Must be a date from 2000 to 2100'],
      ['1999-12-31', 'Must be a date from 2000 to 2100'],
      ['2101-01-01', 'Must be a date from 2000 to 2100'],
      ['2020-06-01', 'Must not be in the past'],
    ];
    for (const [date, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/quoterequest/create', payload: validRequest(date) });
      expect(res.statusCode, date).toBe(400);
      expect(res.json().message, date).toContain('preferredEndDate');
      expect(res.json().message, date).toContain(message);
    }
    const today = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      payload: validRequest(todayInBusinessZone()),
    });
    expect(today.statusCode, today.body).toBe(201);
    expect(log.text).not.toContain('Secret Garden');
    expect(log.text).not.toContain('dana.whitfield');
    expect(log.lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('answers 400 "Username already exists" to the same username added six times at once', async () => {
    const admin = await createUserAndSignIn(t, 'admin');
    const add = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/users/adduser',
        headers: bearer(admin.token),
        payload: {
          username: 'twin',
          password: 'a-long-unusual-passphrase',
          role: 'employee',
          fullName: 'Twin',
          email: '',
          phone: '',
          tags: [],
        },
      });
    const results = await Promise.all(Array.from({ length: 6 }, add));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const r of results.filter((r) => r.statusCode === 400)) expect(r.json().message).toBe(messages.usernameTaken);
    expect(log.text).not.toContain('$argon2');
  });

  it('keeps client quote tokens and signed photo links out of the request log', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJxIn0.c2lnbmF0dXJl';
    await t.app.inject({ method: 'GET', url: `/api/client-quotes/abc?token=${token}` });
    await t.app.inject({ method: 'GET', url: `/api/quoterequest/images/abc?size=thumb&sig=${token}` });
    await t.app.inject({ method: 'GET', url: `/api/client-quotes/abc?other=1&token=plain-secret-value` });
    const urls = log.lines.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toContain('/api/client-quotes/abc?token=[redacted]');
    expect(urls).toContain('/api/quoterequest/images/abc?size=thumb&sig=[redacted]');
    expect(log.text).not.toContain('c2lnbmF0dXJl');
    expect(log.text).not.toContain('plain-secret-value');
  });

  it('logs a visitor who hangs up mid-upload as that, not as a database outage', async () => {
    const before = log.lines.length;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /api/quoterequest/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"notes":"',
        );
        socket.write('a'.repeat(5000));
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
    });
    await new Promise((r) => setTimeout(r, 300));
    const after = log.lines.slice(before);
    expect(after.filter((l) => String(l.msg).includes('database unavailable'))).toEqual([]);
    expect(after.filter((l) => (l.level as number) >= 50)).toEqual([]);
    expect(after.some((l) => String(l.msg).includes('closed the connection'))).toBe(true);
  });
});

describe.each(dbKinds)('errors from the database (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('are described without the query values: no password hash, no row', async () => {
    const passwordHash = await hashPassword('a-long-unusual-passphrase');
    await insertUser(t.database.db, { username: 'owner', passwordHash, teamRole: 'owner', fullName: 'Pat Owner' });
    const error = await insertUser(t.database.db, {
      username: 'owner',
      passwordHash,
      teamRole: 'owner',
      fullName: 'Pat Owner',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain(passwordHash); // what drizzle itself would print
    const described = describeError(error);
    const serialized = JSON.stringify(safeError(error));
    const lines: string[] = [];
    const logger = pino(loggerOptions('info'), { write: (line: string) => void lines.push(line) });
    logger.error({ err: error }, 'request failed');
    for (const text of [described, serialized, lines.join('')]) {
      expect(text).not.toContain(passwordHash);
      expect(text).not.toContain('$argon2');
      expect(text).not.toContain('Pat Owner');
      expect(text).toContain('23505');
    }
  });
});
