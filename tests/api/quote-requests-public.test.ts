import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages, mailOutbox, quoteRequestImages, quoteRequests } from '../../src/server/db/schema';
import { messages } from '#shared/messages';
import { dataUrl, makeJpeg, makeLargeJpeg, makePng } from '../helpers/images';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestApp, createTestApp, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import { futureDate } from '../helpers/dates';

const validBody = () => ({
  contactPerson: { name: 'Dana Whitfield', email: 'dana@home.test', phone: '916-555-0100' },
  address: { street: '1201 K St', city: 'Sacramento', state: 'CA', zip: '95814' },
  notes: 'Fence gate sags and a bathroom faucet drips.',
  preferredEndDate: futureDate(28),
});

describe.each(dbKinds)('public quote requests and contact (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
  });
  afterAll(() => t.close());

  const create = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/quoterequest/create', payload: payload as object });
  const countRequests = async () => (await t.database.db.select().from(quoteRequests)).length;

  it('stores a request with its photos, answers 201, and e-mails the client and the owner', async () => {
    const photo = await makeJpeg({ width: 1200, height: 900, withGps: true });
    const res = await create({ ...validBody(), images: [dataUrl(photo), dataUrl(await makePng(), 'image/png')] });
    expect(res.statusCode, res.body).toBe(201);
    const { quoteRequest } = res.json();
    expect(quoteRequest).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      contactPerson: { name: 'Dana Whitfield', email: 'dana@home.test', phone: '916-555-0100' },
      preferredEndDate: futureDate(28),
      quoteStatus: 'Pending',
    });
    expect(quoteRequest.quoteNumber).toBe(`Q${quoteRequest._id.slice(-9).toUpperCase()}`);
    expect(Date.now() - Date.parse(quoteRequest.quoteRequestDate)).toBeLessThan(60_000);

    const [row] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, quoteRequest._id));
    expect(row).toMatchObject({ status: 'Pending', city: 'Sacramento', notes: validBody().notes });
    const images = await t.database.db
      .select()
      .from(quoteRequestImages)
      .where(eq(quoteRequestImages.quoteRequestId, quoteRequest._id));
    expect(images).toHaveLength(2);
    const stored = await sharp(images[0]!.data).metadata();
    expect(stored.format).toBe('jpeg');
    expect(stored.exif).toBeUndefined();
    expect((await sharp(images[0]!.thumbnail).metadata()).width).toBeLessThanOrEqual(320);

    const client = await waitFor(() => smtp.to('dana@home.test')[0], { what: 'client e-mail' });
    expect(client.parsed.subject).toContain(quoteRequest.quoteNumber);
    expect(client.parsed.text).toContain(`http://handyman.test/quote-request-status/${quoteRequest._id}`);
    expect(client.parsed.html).toContain(`href="http://handyman.test/quote-request-status/${quoteRequest._id}"`);
    const owner = await waitFor(
      () => smtp.to('owner@handyman.test').find((m) => m.parsed.subject?.includes(quoteRequest.quoteNumber)),
      {
        what: 'owner e-mail',
      },
    );
    expect(owner.parsed.text).toContain(`http://handyman.test/admin/quote-requests/${quoteRequest._id}`);
    expect(owner.parsed.text).toContain('Photos:');
    expect(owner.parsed.replyTo?.text).toContain('dana@home.test');
  });

  it('escapes what the visitor typed and keeps subjects on one line', async () => {
    const body = validBody();
    body.contactPerson.name = 'Eve <script>alert(1)</script>\r\nBcc: all@evil.test';
    body.contactPerson.email = 'eve@home.test';
    body.notes = '<img src=x onerror=alert(1)> & "quotes"';
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    const owner = await waitFor(() => smtp.to('owner@handyman.test').find((m) => m.parsed.subject?.includes('Eve')), {
      what: 'owner e-mail',
    });
    expect(owner.parsed.subject).not.toMatch(/[\r\n]/);
    expect(owner.envelopeTo).toEqual(['owner@handyman.test']);
    expect(owner.parsed.html).not.toContain('<script>');
    expect(owner.parsed.html).not.toContain('<img src=x');
    expect(owner.parsed.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
  });

  it('finds the status by quote number in any case, with or without Q, or by id; 404 otherwise', async () => {
    const { quoteRequest } = (await create(validBody())).json();
    const number: string = quoteRequest.quoteNumber;
    for (const key of [number, number.toLowerCase(), number.slice(1), quoteRequest._id, ` ${number} `.trim()]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${encodeURIComponent(key)}` });
      expect(res.statusCode, key).toBe(200);
      expect(res.json()).toEqual({ quoteStatus: 'Pending', quoteState: null, nextVisit: null });
    }
    for (const key of ['Q000000000', 'nothing', 'Q12']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/quoterequest/status/${key}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        statusCode: 404,
        error: 'Not Found',
        message: messages.quoteNumberInvalid,
        code: 'NOT_FOUND',
      });
    }
  });

  it('names each invalid field with the spec message, and stores nothing', async () => {
    const before = await countRequests();
    const res = await create({
      contactPerson: { name: '', email: 'not-an-email' },
      address: { street: '', city: '', state: '', zip: '' },
      notes: '',
    });
    expect(res.statusCode).toBe(400);
    const message: string = res.json().message;
    for (const expected of [
      `contactPerson.name: ${messages.firstNameRequired}`,
      `contactPerson.email: ${messages.emailInvalid}`,
      `address.street: ${messages.streetRequired}`,
      `address.city: ${messages.cityRequired}`,
      `address.state: ${messages.stateRequired}`,
      `address.zip: ${messages.zipRequired}`,
      `notes: ${messages.specificationsRequired}`,
    ]) {
      expect(message).toContain(expected);
    }
    const missing = await create({ address: validBody().address });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('contactPerson');
    const extra = await create({ ...validBody(), quoteStatus: 'Accepted' });
    expect(extra.statusCode).toBe(400);
    const badDate = await create({ ...validBody(), preferredEndDate: '2026-02-30' });
    expect(badDate.statusCode).toBe(400);
    expect(await countRequests()).toBe(before);
  });

  it('refuses photos over 3 MB in total, and files that are not pictures, naming the problem', async () => {
    const before = await countRequests();
    const big = await makeLargeJpeg(1_700_000);
    expect(big.length).toBeLessThan(2_000_000);
    const tooMuch = await create({ ...validBody(), images: [dataUrl(big), dataUrl(big)] });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(messages.filesTooLarge);

    const textAsPng = dataUrl(Buffer.from('this is a text file, not a picture'), 'image/png');
    const fake = await create({ ...validBody(), images: [dataUrl(await makePng(), 'image/png'), textAsPng] });
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toBe('images.1: image 2 is not a JPEG, PNG, WebP or GIF picture');

    const truncated = (await makeJpeg()).subarray(0, 2000);
    expect((await create({ ...validBody(), images: [dataUrl(truncated)] })).statusCode).toBe(400);
    const svg = dataUrl(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'image/svg+xml',
    );
    expect((await create({ ...validBody(), images: [svg] })).statusCode).toBe(400);
    expect((await create({ ...validBody(), images: ['not a data url'] })).statusCode).toBe(400);
    expect(await countRequests()).toBe(before);
  });

  it('answers malformed JSON and oversized bodies with a 4xx, never a 5xx', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      headers: { 'content-type': 'application/json' },
      payload: '{"contactPerson": {',
    });
    expect(malformed.statusCode).toBe(400);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validBody(), notes: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      headers: { 'content-type': 'application/json' },
      payload: `{"__proto__":{"admin":true},${JSON.stringify(validBody()).slice(1)}`,
    });
    expect(proto.statusCode).toBe(400);
    const nul = await create({ ...validBody(), notes: 'before\u0000after' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toBe('body.notes: text cannot contain the NUL character');
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(400);
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/quoterequest/create',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
  });

  it('stores a contact message and e-mails the owner, with "Not provided" for a missing phone', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { firstName: 'Lee', lastName: 'Nguyen', email: 'lee@home.test', message: 'Do you fix\nscreen doors?' },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().contactMessage._id;
    const [row] = await t.database.db.select().from(contactMessages).where(eq(contactMessages.id, id));
    expect(row).toMatchObject({
      firstName: 'Lee',
      lastName: 'Nguyen',
      phone: '',
      message: 'Do you fix\nscreen doors?',
    });
    const mail = await waitFor(
      () => smtp.to('owner@handyman.test').find((m) => m.parsed.subject === 'Contact request from Lee Nguyen'),
      {
        what: 'contact e-mail',
      },
    );
    expect(mail.parsed.text).toMatch(/Phone:\s+Not provided/);
    expect(mail.parsed.text).toContain('lee@home.test');
    expect(mail.parsed.text).toContain('screen doors?');
    expect(mail.parsed.replyTo?.text).toBe('lee@home.test');
  });

  it('refuses an incomplete contact message with the spec messages', async () => {
    const before = (await t.database.db.select().from(contactMessages)).length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { firstName: ' ', lastName: '', email: 'x', message: '' },
    });
    expect(res.statusCode).toBe(400);
    const message: string = res.json().message;
    expect(message).toContain(`firstName: ${messages.firstNameRequired}`);
    expect(message).toContain(`lastName: ${messages.lastNameRequired}`);
    expect(message).toContain(`email: ${messages.emailInvalid}`);
    expect(message).toContain(`message: ${messages.messageRequired}`);
    expect((await t.database.db.select().from(contactMessages)).length).toBe(before);
    expect(
      (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'Contact request from   '))).length,
    ).toBe(0);
  });
});

describe('public form rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { RATE_LIMIT_MAX: '2' } });
  });
  afterAll(() => t.close());

  it('answers 429 with the spec message after the limit, per client address', async () => {
    const send = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/quoterequest/create', remoteAddress: ip, payload: validBody() });
    expect((await send('10.1.1.1')).statusCode).toBe(201);
    expect((await send('10.1.1.1')).statusCode).toBe(201);
    const limited = await send('10.1.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      message: messages.tooManyAttempts,
      code: 'RATE_LIMITED',
    });
    expect((await send('10.1.1.2')).statusCode).toBe(201);
    const contact = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: ip,
        payload: { firstName: 'A', lastName: 'B', email: 'a@b.test', message: 'hi' },
      });
    expect((await contact('10.1.1.3')).statusCode).toBe(201);
    expect((await contact('10.1.1.3')).statusCode).toBe(201);
    expect((await contact('10.1.1.3')).statusCode).toBe(429);
  });
});
