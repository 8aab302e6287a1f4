import { decodeJwt } from 'jose';
import { LINK_GRACE_DAYS } from '../../src/server/quotes/links';
import { addDays, formatLongDate, todayIn } from '#shared/dates';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SettingsInput, SettingsView } from '#shared/schemas/settings';
import { createQuoteRequest, sampleQuoteLines } from '../helpers/factories';
import { dataUrl, makeCraftedPng, makeJpeg, makePng } from '../helpers/images';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import {
  bearer,
  createMailingTestApp,
  createTestApp,
  createUserAndSignIn,
  testConfig,
  type TestApp,
} from '../helpers/test-app';
import { settings } from '../../src/server/db/schema';
import { SettingsStore } from '../../src/server/settings';
import { createTestDatabase, dbKinds } from '../helpers/test-db';

const lines = sampleQuoteLines;
// Subtotal 315.98: at 8% tax 25.28, total 341.26; at 9.25% tax 29.23, total 345.21.

describe.each(dbKinds)('settings in the database (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind, { BUSINESS_NAME: 'Seeded Handyman', QUOTE_LINK_DAYS: '30' });
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const getSettings = async (app = t.app) =>
    (await app.inject({ method: 'GET', url: '/api/settings', headers: admin })).json<SettingsView>();
  const putSettings = (changes: Partial<SettingsInput>) =>
    getSettings().then(({ logoUrl: _l, updatedAt: _u, ...current }) =>
      t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin, payload: { ...current, ...changes } }),
    );

  // A client's move checks the rules and the time zone with the visit locked. On the embedded database
  // a read there waits for the transaction it is made in: the whole server hung once the 5 s cache
  // had run out (the browser suite's shared servers, on a slow CI host).
  it('answers inside a transaction, long after it was read, without waiting on that transaction', async () => {
    expect((await putSettings({ businessPhone: '(916) 555-0142' })).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_600_000 });
    try {
      const [business, today] = await t.app.db.transaction(() =>
        Promise.race([
          Promise.all([t.app.settings.current(), t.app.settings.today()]),
          new Promise<never>((_, reject) => {
            setTimeout(() => reject(new Error('The settings waited on the transaction they were asked in')), 2000);
          }),
        ]),
      );
      expect(business.phone).toBe('(916) 555-0142');
      expect(today).toBe(todayIn('America/Los_Angeles'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('seeds the first values from BUSINESS_* and keeps what the owner set on later starts', async () => {
    expect(await getSettings()).toMatchObject({
      businessName: 'Seeded Handyman',
      taxRatePercent: 8,
      quoteValidityDays: 30,
      quoteReminderDays: [3, 7],
      ownerEmail: 'owner@handyman.test',
      timeZone: 'America/Los_Angeles',
      serviceAreaHeadline: 'Sacramento and Surrounding Counties',
      logoUrl: null,
    });
    expect((await putSettings({ businessPhone: '(916) 555-0100' })).statusCode).toBe(200);
    // A restart with other variables: the stored values win.
    const again = await createTestApp(kind, {
      database: t.database,
      env: { BUSINESS_NAME: 'Another Name', BUSINESS_PHONE: '(530) 555-0000' },
    });
    try {
      expect(await getSettings(again.app)).toMatchObject({
        businessName: 'Seeded Handyman',
        businessPhone: '(916) 555-0100',
      });
    } finally {
      await again.close();
    }
  });

  it('refuses values that would break a page, an e-mail or a price, naming the field', async () => {
    const cases: [Partial<SettingsInput>, string, string][] = [
      [{ businessEmail: 'dana@gmail' }, 'businessEmail', 'valid email address'],
      [{ taxRatePercent: 8.755 }, 'taxRatePercent', 'at most 2 decimals'],
      [{ taxRatePercent: -1 }, 'taxRatePercent', 'cannot be negative'],
      [{ quoteValidityDays: 0 }, 'quoteValidityDays', 'at least 1 day'],
      [{ quoteReminderDays: [3, 7, 10] }, 'quoteReminderDays', 'At most two reminders'],
      [{ quoteReminderDays: [3, 3] }, 'quoteReminderDays', 'Choose two different days'],
      [{ quoteReminderDays: [0] }, 'quoteReminderDays', 'at least 1 day after'],
      [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone', 'known time zone'],
      [{ serviceArea: ['Roseville', '<script>'] }, 'serviceArea', 'city, a county or a ZIP code'],
      [{ businessName: '   ' }, 'businessName', 'Business name is required'],
    ];
    for (const [changes, field, words] of cases) {
      const res = await putSettings(changes);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message, field).toContain(field);
      expect(res.json().message.toLowerCase(), field).toContain(words.toLowerCase());
    }
    expect((await getSettings()).businessEmail).not.toBe('dana@gmail');
  });

  it('refuses a zone the runtime knows but the database does not (US/Pacific-New); exports and reports go on (issue 25.8)', async () => {
    for (const timeZone of ['US/Pacific-New', 'Mars/Olympus_Mons']) {
      const res = await putSettings({ timeZone });
      expect(res.statusCode, timeZone).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(res.json().message).toContain('timeZone: Choose a known time zone');
    }
    expect((await getSettings()).timeZone).toBe('America/Los_Angeles');
    for (const url of ['/api/reports', '/api/export/quotes.csv'])
      expect((await t.app.inject({ method: 'GET', url, headers: admin })).statusCode, url).toBe(200);
    const other = await putSettings({ timeZone: 'America/Denver' });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().timeZone).toBe('America/Denver');
    expect((await putSettings({ timeZone: 'America/Los_Angeles' })).statusCode).toBe(200);
  });

  // Issue 26.1: "today" is the Settings' today, for the public request's date check too (it used the fixed zone).
  it("a request's preferred end date is checked against today in the Settings' time zone", async () => {
    const la = todayIn('America/Los_Angeles');
    // One of these two is always on another date than Los Angeles: one ahead of it, one behind.
    const zone = todayIn('Pacific/Kiritimati') !== la ? 'Pacific/Kiritimati' : 'Etc/GMT+12';
    const today = todayIn(zone);
    const request = (preferredEndDate: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/quoterequest/create',
        payload: {
          contactPerson: { name: 'Zone Client', email: 'zone@home.test', phone: '' },
          address: { street: '1 Zone St', city: 'Sacramento', state: 'CA', zip: '95814' },
          notes: 'Fix the gate',
          preferredEndDate,
        },
      });
    expect((await putSettings({ timeZone: zone })).statusCode).toBe(200);
    try {
      expect((await request(today)).statusCode).toBe(201);
      const past = await request(addDays(today, -1));
      expect(past.statusCode).toBe(400);
      expect(past.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'preferredEndDate: Must not be in the past',
      });
      // Los Angeles' today, a day off the Settings' one: refused when it is past there, taken when it is not.
      expect((await request(la)).statusCode).toBe(la < today ? 400 : 201);
    } finally {
      expect((await putSettings({ timeZone: 'America/Los_Angeles' })).statusCode).toBe(200);
    }
  });

  const post = (url: string, payload: object, headers: Record<string, string> = admin) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  /** A new client's request, quoted and sent: the quote, the e-mail the client received, its link. */
  const send = async (email = `rate${Date.now()}${Math.random().toString(36).slice(2, 6)}@home.test`) => {
    const request = await createQuoteRequest(t, { email });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    const draft = (await post('/api/quotes/createNew', { ...lines, quoteRequestId: request._id })).json();
    const sent = await post('/api/quotes/sendQuote', { ...lines, quoteRequestId: request._id, quote: draft });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text ?? '')![0]);
    return { request, draft, mail, quoteId: link.pathname.split('/').pop()!, token: link.searchParams.get('token')! };
  };

  it('prices new quotes at a changed rate while a sent quote keeps its rate and totals on its page, e-mail and PDF', async () => {
    const old = await send();
    expect(old.draft).toMatchObject({ taxRateBasisPoints: 800, taxCost: 25.28 });
    expect(old.mail.parsed.text).toMatch(/Tax 8% on \$315\.98:\s+\$25\.28/);

    expect(
      (await putSettings({ taxRatePercent: 9.25, quoteValidityDays: 14, businessName: 'Renamed Repairs' })).statusCode,
    ).toBe(200);

    // The old quote, after the change: its page, its PDF and the owner's notice of its answer.
    const page = await t.app.inject({ method: 'GET', url: `/api/client-quotes/${old.quoteId}?token=${old.token}` });
    expect(page.json()).toMatchObject({
      taxRateBasisPoints: 800,
      taxCost: 25.28,
      totalCostAfterTax: 341.26,
      business: { name: 'Renamed Repairs' },
    });
    const pdf = await t.app.inject({ method: 'GET', url: `/api/client-quotes/${old.quoteId}/pdf?token=${old.token}` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const oldPdfText = await pdfText(pdf.rawPayload);
    expect(oldPdfText).toContain('Tax 8% on $315.98');
    expect(oldPdfText).toContain('$341.26');
    expect(oldPdfText).not.toContain('9.25');
    const forged = await t.app.inject({ method: 'GET', url: `/api/client-quotes/${old.quoteId}/pdf?token=nope` });
    expect(forged.statusCode).toBe(403);
    const answered = await post(
      `/api/client-quotes/${old.quoteId}/answer`,
      { action: 'more-info', token: old.token, message: 'Can you start on a Monday?' },
      {},
    );
    expect(answered.statusCode, answered.body).toBe(200);
    const notice = await waitFor(
      () =>
        smtp
          .to('owner@handyman.test')
          .find((m) => m.parsed.subject === `Question about quote ${old.quoteId} from Dana Whitfield`),
      { what: "owner's notice" },
    );
    expect(notice.parsed.text).toContain('$341.26');

    // A new quote takes the new rate, the new validity and the new name.
    const fresh = await send();
    expect(fresh.draft).toMatchObject({ taxRateBasisPoints: 925, taxCost: 29.23, totalCostAfterTax: 345.21 });
    expect(fresh.mail.parsed.subject).toContain('from Renamed Repairs');
    // The sender is the business by its current name, at the configured address (issue 13.17).
    expect(fresh.mail.parsed.from?.value[0]).toMatchObject({
      name: 'Renamed Repairs',
      address: 'no-reply@handyman.test',
    });
    expect(fresh.mail.parsed.text).toMatch(/Tax 9\.25% on \$315\.98:\s+\$29\.23/);
    const validUntil = addDays(todayIn('America/Los_Angeles'), 14);
    expect(fresh.mail.parsed.text).toContain(`valid until ${formatLongDate(validUntil)}`);
    // The link outlives the quote by the grace period, so an expired quote's page can offer an update.
    const { exp } = decodeJwt(fresh.token);
    expect(exp! * 1000).toBeGreaterThan(Date.parse(`${validUntil}T00:00:00Z`) + (LINK_GRACE_DAYS - 1) * 86_400_000);
    expect(exp! * 1000).toBeLessThan(Date.parse(`${validUntil}T00:00:00Z`) + (LINK_GRACE_DAYS + 2) * 86_400_000);
    const freshPdf = await pdfText(fresh.mail.parsed.attachments[0]!.content);
    expect(freshPdf).toContain('Tax 9.25% on $315.98');
    expect(freshPdf).toContain('$345.21');
    expect(freshPdf).toContain('Renamed Repairs');
  });

  it('sends owner notices where the settings say, from the next message on', async () => {
    expect((await putSettings({ ownerEmail: 'office@renamed.test' })).statusCode).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { firstName: 'Lee', lastName: 'Park', email: 'lee@home.test', message: 'Do you fix decks?' },
    });
    expect(sent.statusCode).toBe(201);
    const mail = await waitFor(
      () => smtp.to('office@renamed.test').find((m) => m.parsed.subject?.includes('Lee Park')),
      {
        what: 'contact notice',
      },
    );
    expect(mail.parsed.text).toContain('Do you fix decks?');
  });

  it('sends replies to client e-mails to the business’s e-mail in the settings, not the no-reply sender', async () => {
    expect((await putSettings({ businessEmail: 'desk@renamed.test' })).statusCode).toBe(200);
    const email = `replies${Date.now()}@home.test`;
    const { request, mail: quoteMail, quoteId, token } = await send(email);
    // The thank-you says "Reply to this e-mail": the reply reaches the business.
    const thanks = await waitFor(() => smtp.to(email).find((m) => m.parsed.text?.includes('Reply to this e-mail')), {
      what: 'thank-you',
    });
    expect(thanks.parsed.from?.value[0]?.address).toBe('no-reply@handyman.test');
    expect(thanks.parsed.replyTo?.value.map((a) => a.address)).toEqual(['desk@renamed.test']);
    // The quote too; the owner's notices about the request and the client's question answer the client.
    expect(quoteMail.parsed.replyTo?.value.map((a) => a.address)).toEqual(['desk@renamed.test']);
    const notice = await waitFor(
      () => smtp.received.find((m) => m.parsed.subject?.includes(request.quoteNumber) && !m.envelopeTo.includes(email)),
      { what: "owner's notice" },
    );
    expect(notice.parsed.replyTo?.value.map((a) => a.address)).toEqual([email]);
    const asked = await post(
      `/api/client-quotes/${quoteId}/answer`,
      { action: 'more-info', token, message: 'Can you start on a Saturday?' },
      {},
    );
    expect(asked.statusCode, asked.body).toBe(200);
    const question = await waitFor(
      () => smtp.received.find((m) => m.parsed.text?.includes('Can you start on a Saturday?')),
      { what: 'question notice' },
    );
    expect(question.parsed.replyTo?.value.map((a) => a.address)).toEqual([email]);
  });

  it('takes a logo checked like a photo, serves it as a PNG at a versioned address, and removes it', async () => {
    const put = (image: string) =>
      t.app.inject({ method: 'PUT', url: '/api/settings/logo', headers: admin, payload: { image } });
    const notImage = await put(dataUrl(Buffer.from('not an image at all'), 'image/png'));
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json().code).toBe('INVALID_IMAGE');
    const bomb = await put(dataUrl(makeCraftedPng({ width: 13_000, height: 10 }), 'image/png'));
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().code).toBe('IMAGE_TOO_LARGE');

    const set = await put(dataUrl(await makeJpeg({ width: 1600, height: 400, withGps: true })));
    expect(set.statusCode, set.body).toBe(200);
    const { logoUrl } = set.json<SettingsView>();
    expect(logoUrl).toMatch(/^\/media\/logo\/[0-9a-z]+\.png$/);
    const served = await t.app.inject({ method: 'GET', url: logoUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 800, height: 200 });
    expect(meta.exif).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/media/logo/old.png' })).statusCode).toBe(404);

    const replaced = await put(dataUrl(await makePng(300, 100), 'image/png'));
    expect(replaced.json<SettingsView>().logoUrl).not.toBe(logoUrl);
    expect((await t.app.inject({ method: 'GET', url: logoUrl! })).statusCode).toBe(404);

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/settings/logo', headers: admin });
    expect(removed.json<SettingsView>().logoUrl).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: replaced.json<SettingsView>().logoUrl! })).statusCode).toBe(404);
  });
});

describe.each(dbKinds)('settings seeded by servers starting together (%s)', (kind) => {
  it('keeps one row, the first values, however many start at once', async () => {
    const database = await createTestDatabase(kind);
    try {
      const stores = Array.from(
        { length: 12 },
        (_, i) => new SettingsStore(database.db, testConfig({ BUSINESS_NAME: `Starter ${i}` }), kind === 'pglite'),
      );
      await Promise.all(stores.map((store) => store.seed()));
      expect(await database.db.select().from(settings)).toHaveLength(1);
      const names = new Set((await Promise.all(stores.map((store) => store.current()))).map((b) => b.name));
      expect(names.size).toBe(1);
      expect([...names][0]).toMatch(/^Starter \d+$/);
    } finally {
      await database.destroy();
    }
  });
});
