import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIn, wallTimeIn, zonedTimeToUtc } from '#shared/dates';
import type { ActivityTimeline } from '#shared/schemas/activity';
import type { ClientTexts, OnMyWayView, TextSettingsView } from '#shared/schemas/texts';
import {
  clients,
  jobs,
  mailOutbox,
  textAccounts,
  textFailureNotices,
  textMessages,
  textOptOuts,
  users,
  visits,
} from '../../src/server/db/schema';
import { clientPagePath } from '../../src/server/clients';
import { enqueueText, noticeTextFailures, type OutgoingText } from '../../src/server/texts';
import type { QuietHours } from '../../src/server/texts/quiet-hours';
import { TextRelay, UNANSWERED_WAIT_MS } from '../../src/server/texts/relay';
import { currentTextProvider, STATUS_CALLBACK_PATH, textAccountNow } from '../../src/server/texts/service';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { FakeTwilio, type Poster } from '../helpers/fake-twilio';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
const PUBLIC_URL = 'http://handyman.test';

describe.each(dbKinds)('text messages through the owner’s Twilio account (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let owner: Record<string, string>;
  let dana: { id: string; token: string };
  const fake = new FakeTwilio();
  const fromNumber = '+19165550000';

  beforeAll(async () => {
    await fake.start();
    const mailing = await createMailingTestApp(kind, { TEXTS_API_URL: fake.url, TEXTS_TIMEOUT_MS: '1500' });
    t = mailing;
    smtp = mailing.smtp;
    t.app.texts.start();
    owner = bearer((await createUserAndSignIn(t, 'admin')).token);
    const crew = await createUserAndSignIn(t, 'employee');
    dana = { id: crew.user.id, token: crew.token };
    await t.database.db.update(users).set({ fullName: 'Dana Lopez' }).where(eq(users.id, dana.id));
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });
  beforeEach(() => fake.forgetFaults());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = owner) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** Posts a signed callback through the app, as Twilio would post it to PUBLIC_URL. */
  const inject: Poster = async (url, form, headers) =>
    (await t.app.inject({ method: 'POST', url: url.replace(PUBLIC_URL, ''), payload: form, headers })).statusCode;

  const turnOn = (overrides: Record<string, unknown> = {}) =>
    call('PUT', '/api/settings/texts', {
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      fromNumber: '(916) 555-0000',
      messagingServiceSid: '',
      dailyLimit: 6,
      ...overrides,
    });

  let n = 0;
  /** A mobile no other test of this file texts (the fake keeps every text it took). */
  let mobiles = 0;
  const uniqueMobile = () => `+1916555${String(2000 + (kind === 'pglite' ? 0 : 4000) + ++mobiles).padStart(4, '0')}`;
  /** The office gives a client a fresh mobile and their choice of messages (Edit client); returns it in E.164. */
  async function giveMobile(client: { id: string; name: string; phone: string }, channel: 'email' | 'text' | 'both') {
    const mobile = uniqueMobile();
    const res = await call('PUT', `/api/clients/${client.id}`, {
      name: client.name,
      phone: client.phone,
      notes: '',
      mobile: `(${mobile.slice(2, 5)}) ${mobile.slice(5, 8)}-${mobile.slice(8)}`,
      messageChannel: channel,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().mobile).toBe(mobile);
    return mobile;
  }

  /** A client (from a request, as a visitor makes one) with a job, texts as `channel` to a fresh mobile. */
  async function clientWithJob(channel: 'email' | 'text' | 'both' = 'both') {
    n++;
    const email = `texts${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email, name: `Texted Client ${n}` });
    const [client] = await t.database.db.select().from(clients).where(eq(clients.email, email));
    const mobile = await giveMobile(client!, channel);
    const jobId = await insertJob(t, { email, quoteRequestId: request._id });
    await t.database.db.update(jobs).set({ clientId: client!.id }).where(eq(jobs.id, jobId));
    return { clientId: client!.id, email, mobile, jobId, quoteRequestId: request._id };
  }

  const book = (jobId: string, date: string, start = '10:00', end = '12:00', workerIds = [dana.id]) =>
    call('POST', `/api/jobs/${jobId}/visits`, {
      date,
      start,
      end,
      workerIds,
      notes: '',
      clientNote: '',
      confirm: true,
    });

  const textsOf = async (clientId: string) => (await call('GET', `/api/clients/${clientId}/texts`)).json<ClientTexts>();
  const ledger = (clientId: string) =>
    t.database.db.select().from(textMessages).where(eq(textMessages.clientId, clientId));

  it('is off until the owner saves an account; the token is sealed and never shown', async () => {
    const off = await call('GET', '/api/settings/texts');
    expect(off.json<TextSettingsView>()).toMatchObject({ enabled: false, tokenSaved: false });
    const bad = await turnOn({ accountSid: 'AC123' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('account SID');
    const noSender = await turnOn({ fromNumber: '' });
    expect(noSender.statusCode).toBe(400);
    expect(noSender.json().message).toContain('number texts come from');
    const notANumber = await turnOn({ fromNumber: 'call me' });
    expect(notANumber.statusCode).toBe(400);
    const on = await turnOn();
    expect(on.statusCode, on.body).toBe(200);
    const view = on.json<TextSettingsView>();
    expect(view).toMatchObject({ enabled: true, tokenSaved: true, fromNumber, accountSid: fake.accountSid });
    expect(view.statusCallbackUrl).toBe(`${PUBLIC_URL}${STATUS_CALLBACK_PATH}`);
    expect(on.body).not.toContain(fake.authToken);
    const [row] = await t.database.db.select().from(textAccounts);
    expect(row!.authTokenSealed).not.toContain(fake.authToken);
    expect(row!.authTokenSealed).not.toContain(Buffer.from(fake.authToken).toString('base64'));
    expect(Buffer.from(row!.authTokenSealed, 'base64').toString('latin1')).not.toContain(fake.authToken);
    // Saved again without the token: the sealed one stays.
    const again = await turnOn({ authToken: '', dailyLimit: 6 });
    expect(again.json<TextSettingsView>().tokenSaved).toBe(true);
    expect(await currentTextProvider(t.app)).not.toBeNull();
  });

  it('sends a test text through the official client to the fake, and refuses a wrong token with Twilio’s words', async () => {
    await turnOn();
    const res = await call('POST', '/api/settings/texts/test', { to: '916 555 0142' });
    expect(res.statusCode, res.body).toBe(200);
    const [sent] = fake.to('+19165550142');
    expect(sent).toMatchObject({ from: fromNumber, statusCallback: `${PUBLIC_URL}${STATUS_CALLBACK_PATH}` });
    expect(sent!.body).toContain('this is a test text');
    expect(fake.requests.every((r) => r.authorized)).toBe(true);
    const [row] = await t.database.db.select().from(textMessages).where(eq(textMessages.providerSid, sent!.sid));
    expect(row!.state).toBe('sent');

    const badNumber = await call('POST', '/api/settings/texts/test', { to: '12' });
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.json().message).toContain('mobile number');

    await turnOn({ authToken: 'f'.repeat(32) });
    const refused = await call('POST', '/api/settings/texts/test', { to: '916 555 0142' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('Twilio refused');
    await turnOn();
  });

  it('texts and e-mails a client who takes both when a visit is booked; the short link opens their page', async () => {
    await turnOn();
    const c = await clientWithJob('both');
    const res = await book(c.jobId, '2027-03-16');
    expect(res.statusCode, res.body).toBe(201);
    await waitFor(() => smtp.to(c.email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
      what: 'the booking e-mail',
    });
    const text = await waitFor(() => fake.to(c.mobile)[0], { what: 'the booking text' });
    expect(text!.body).toMatch(
      /^Sac Handyman Services: your visit is booked for Tue, Mar 16, arriving 10:00 AM - 12:00 PM\. Details: http:\/\/handyman\.test\/p\/[A-Za-z0-9]{10}$/,
    );
    // Plain GSM-7, one segment: no en dash, nothing private.
    expect(text!.body.length).toBeLessThanOrEqual(160);
    expect(text!.body).not.toContain('Oak Ave');
    const code = text!.body.split('/p/')[1]!;
    const page = await t.app.inject({ method: 'GET', url: `/p/${code}` });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toMatch(new RegExp(`^/your-page/${c.clientId}\\?token=`));
    expect((await t.app.inject({ method: 'GET', url: '/p/NoSuchCode1' })).statusCode).toBe(404);
    // Staff see the texts with the code masked (it opens the client's page); an export carries neither it nor the account.
    expect((await textsOf(c.clientId)).texts.find((x) => x.kind === 'visit-booked')!.body).toMatch(
      /Details: http:\/\/handyman\.test\/p\/…$/,
    );
    const exported = await call('GET', '/api/export/everything.json');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(code);
    expect(exported.body).not.toContain(fake.authToken);
    const doc = exported.json();
    expect(doc.tables).not.toHaveProperty('text_accounts');
    expect(doc.tables).not.toHaveProperty('text_links');
    const exportedText = doc.tables.text_messages.find((r: { providerSid: string }) => r.providerSid === text!.sid);
    expect(exportedText.body).toContain('/p/[link removed]');

    // The job's page and its request's list the visit's texts (the booking and its reminder).
    for (const query of [`jobId=${c.jobId}`, `quoteRequestId=${c.quoteRequestId}`]) {
      const listed = (await call('GET', `/api/clients/${c.clientId}/texts?${query}`)).json<ClientTexts>();
      expect(listed.texts.map((x) => x.kind).sort()).toEqual(['visit-booked', 'visit-reminder']);
    }

    // The reminder the day before waits in the ledger, on the business's clock.
    const rows = await ledger(c.clientId);
    const reminder = rows.find((r) => r.kind === 'visit-reminder');
    expect(reminder).toMatchObject({ state: 'queued' });
    expect(wallTimeIn(ZONE, reminder!.nextAttemptAt)).toEqual({ date: '2027-03-15', time: '10:00' });
  });

  it('follows delivery reports, refuses a forged one, and never takes a delivered text back', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    await book(c.jobId, '2027-03-17');
    const text = await waitFor(() => fake.to(c.mobile)[0], { what: 'the text' });
    // Forged: signed with another token. Refused, nothing changes.
    const forged = fake.signed(
      `${PUBLIC_URL}${STATUS_CALLBACK_PATH}`,
      { MessageSid: text!.sid, MessageStatus: 'failed' },
      'x'.repeat(32),
    );
    expect(await inject(`${PUBLIC_URL}${STATUS_CALLBACK_PATH}`, forged.form, forged.headers)).toBe(403);
    // Signed over another address (a Host header a caller set): refused too.
    const elsewhere = fake.signed(`http://evil.test${STATUS_CALLBACK_PATH}`, {
      MessageSid: text!.sid,
      MessageStatus: 'failed',
    });
    expect(
      await inject(`${PUBLIC_URL}${STATUS_CALLBACK_PATH}`, elsewhere.form, { ...elsewhere.headers, host: 'evil.test' }),
    ).toBe(403);
    expect(await fake.report(text!, 'delivered', { post: inject })).toBe(200);
    expect(await fake.report(text!, 'sent', { post: inject })).toBe(200);
    const booked = (await textsOf(c.clientId)).texts.find((x) => x.kind === 'visit-booked');
    expect(booked).toMatchObject({ state: 'delivered', to: c.mobile });
    // A client who takes texts alone gets no e-mail about it.
    await new Promise((r) => setTimeout(r, 300));
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, c.email));
    expect(mails.filter((m) => m.subject.startsWith('Your visit'))).toHaveLength(0);
  });

  it('marks a carrier failure with its code', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    await book(c.jobId, '2027-03-18');
    const text = await waitFor(() => fake.to(c.mobile)[0], { what: 'the text' });
    expect(await fake.report(text!, 'undelivered', { errorCode: 30003, post: inject })).toBe(200);
    const row = (await textsOf(c.clientId)).texts.find((x) => x.kind === 'visit-booked');
    expect(row).toMatchObject({ state: 'failed' });
    expect(row!.reason).toContain('30003');
    // The System page's Text messages line is red (and so in the owner's daily e-mail of red lines).
    const system = (await call('GET', '/api/system')).json<{
      lines: { key: string; state: string; summary: string }[];
    }>();
    const line = system.lines.find((l) => l.key === 'texts')!;
    expect(line.state).toBe('failing');
    expect(line.summary).toContain('could not be delivered in the last day');
  });

  it('tells the owner once a day, from 8 AM, of the texts that failed or were not sent: one e-mail listing each once', async () => {
    // What other tests left failing was told of already; the notice starts from here.
    await t.database.db
      .update(textMessages)
      .set({ ownerNoticedAt: new Date() })
      .where(isNull(textMessages.ownerNoticedAt));
    await t.database.db.delete(textFailureNotices);
    const c = await clientWithJob('both');
    const failed = (reason: string, kind: OutgoingText['kind'] = 'visit-booked') =>
      t.database.db.insert(textMessages).values({
        id: randomUUID(),
        clientId: c.clientId,
        kind,
        toNumber: c.mobile,
        body: 'Sac Handyman Services: your visit is booked.',
        state: 'failed',
        reason,
      });
    await failed('30003: Unreachable destination handset');
    await failed('30006: Landline or unreachable carrier', 'invoice-sent');
    const today = todayIn(ZONE);
    const at = (date: string, time: string) => zonedTimeToUtc(date, time, ZONE);
    const notices = () =>
      smtp.to('owner@handyman.test').filter((m) => /did not reach clients$/.test(m.parsed.subject ?? ''));
    const before = notices().length;

    // Not before 8 AM on the business's clock.
    expect(await noticeTextFailures(t.app, at(today, '07:30'))).toBeNull();
    expect(await noticeTextFailures(t.app, at(today, '09:00'))).toBe(2);
    const mail = await waitFor(() => notices()[before], { what: 'the owner’s notice' });
    expect(mail.parsed.subject).toBe('2 texts did not reach clients');
    expect(mail.parsed.text).toContain(`Texted Client`);
    expect(mail.parsed.text).toContain('Visit booked');
    expect(mail.parsed.text).toContain('Invoice sent');
    expect(mail.parsed.text).toContain('30006: Landline or unreachable carrier');
    // Nothing private of the texts' own: their words are not in it.
    expect(mail.parsed.text).not.toContain('your visit is booked');

    // Once a day: a failure later that day waits for tomorrow's notice, which lists it alone.
    await failed('21211: Invalid To phone number');
    expect(await noticeTextFailures(t.app, at(today, '15:00'))).toBeNull();
    expect(await noticeTextFailures(t.app, at(addDays(today, 1), '08:15'))).toBe(1);
    const second = await waitFor(() => notices()[before + 1], { what: 'the next day’s notice' });
    expect(second.parsed.subject).toBe('1 text did not reach clients');
    expect(second.parsed.text).toContain('21211');
    expect(second.parsed.text).not.toContain('30006');
    // Nothing new: no e-mail at all.
    expect(await noticeTextFailures(t.app, at(addDays(today, 2), '09:00'))).toBe(0);
    expect(await t.database.db.select().from(textFailureNotices)).toHaveLength(2);
  });

  it('honours STOP from a signed reply until START; a client who takes texts alone is e-mailed meanwhile', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    const inbound = `${PUBLIC_URL}/api/texts/twilio/inbound`;
    // A forged STOP changes nothing.
    const forged = fake.signed(inbound, { From: c.mobile, Body: 'STOP' }, 'y'.repeat(32));
    expect(await inject(inbound, forged.form, forged.headers)).toBe(403);
    expect((await textsOf(c.clientId)).stoppedAt).toBeNull();

    expect(await fake.reply(inbound, c.mobile, 'Stop', inject)).toBe(200);
    expect((await textsOf(c.clientId)).stoppedAt).not.toBeNull();
    await book(c.jobId, '2027-03-19');
    await waitFor(() => smtp.to(c.email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
      what: 'the e-mail instead',
    });
    expect(fake.to(c.mobile)).toHaveLength(0);
    expect(await ledger(c.clientId)).toHaveLength(0);

    expect(await fake.reply(inbound, c.mobile, 'START', inject)).toBe(200);
    expect((await textsOf(c.clientId)).stoppedAt).toBeNull();
    await book(c.jobId, '2027-03-22');
    await waitFor(() => fake.to(c.mobile).length, { what: 'texts again after START' });
  });

  it('records Twilio’s own STOP refusal (21610) and retries an outage until it is sent', async () => {
    await turnOn();
    const stopped = await clientWithJob('text');
    fake.fail(new RegExp(`^\\${stopped.mobile}$`), 'unsubscribed');
    await book(stopped.jobId, '2027-03-23');
    const failed = await waitFor(
      async () => (await ledger(stopped.clientId)).find((r) => r.kind === 'visit-booked' && r.state === 'failed'),
      { what: 'the refusal' },
    );
    expect(failed.reason).toContain('21610');
    const [optOut] = await t.database.db.select().from(textOptOuts).where(eq(textOptOuts.number, stopped.mobile));
    expect(optOut).toBeDefined();

    const later = await clientWithJob('text');
    fake.fail(new RegExp(`^\\${later.mobile}$`), 'server_error');
    await book(later.jobId, '2027-03-24');
    await waitFor(
      async () => (await ledger(later.clientId)).find((r) => r.kind === 'visit-booked' && r.attempts >= 1),
      { what: 'a failed try' },
    );
    fake.forgetFaults();
    const sent = await waitFor(
      async () => (await ledger(later.clientId)).find((r) => r.kind === 'visit-booked' && r.state === 'sent'),
      { what: 'the retry' },
    );
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(fake.to(later.mobile)).toHaveLength(1);
  });

  it('sends a failed text again, by text or by e-mail instead, and shows the client what we texted them', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    fake.fail(new RegExp(`^\\${c.mobile}$`), 'invalid_number');
    await book(c.jobId, '2027-04-05');
    const failed = await waitFor(
      async () => (await ledger(c.clientId)).find((r) => r.kind === 'visit-booked' && r.state === 'failed'),
      { what: 'the failure' },
    );
    expect(failed.reason).toContain('21211');
    // A client who takes texts alone gets its words by e-mail at once, since they had no e-mail of it.
    const instead = () => smtp.to(c.email).filter((m) => m.parsed.subject === 'A message from Sac Handyman Services');
    const first = await waitFor(() => instead()[0], { what: 'the e-mail instead' });
    expect(first.parsed.text).toContain('your visit is booked for Mon, Apr 5');
    // Only a failed or held-back text is sent again, once.
    const reminder = (await ledger(c.clientId)).find((r) => r.kind === 'visit-reminder')!;
    expect((await call('POST', `/api/texts/${reminder.id}/send-again`, { channel: 'text' })).statusCode).toBe(409);
    fake.forgetFaults();
    const again = await call('POST', `/api/texts/${failed.id}/send-again`, { channel: 'text' });
    expect(again.statusCode, again.body).toBe(201);
    const text = await waitFor(() => fake.to(c.mobile).find((m) => m.body.includes('your visit is booked')), {
      what: 'the text sent again',
    });
    expect(text.body).toMatch(/Details: http:\/\/handyman\.test\/p\/\w+$/);
    const twice = await call('POST', `/api/texts/${failed.id}/send-again`, { channel: 'email' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This text was already sent again');
    // Another that failed, sent again by e-mail.
    fake.fail(new RegExp(`^\\${c.mobile}$`), 'invalid_number');
    await book(c.jobId, '2027-04-06');
    const second = await waitFor(
      async () =>
        (await ledger(c.clientId)).find((r) => r.kind === 'visit-booked' && r.state === 'failed' && r.id !== failed.id),
      { what: 'the second failure' },
    );
    fake.forgetFaults();
    await waitFor(() => instead().length >= 2, { what: 'its e-mail instead' });
    const byMail = await call('POST', `/api/texts/${second.id}/send-again`, { channel: 'email' });
    expect(byMail.statusCode, byMail.body).toBe(201);
    await waitFor(() => instead().length >= 3, { what: 'the e-mail sent again' });
    expect(instead()[2]!.parsed.text).toContain('your visit is booked for Tue, Apr 6');
    // The client's own page lists what we texted them, and whether it arrived.
    await t.database.db.update(clients).set({ pageLinkSentAt: new Date() }).where(eq(clients.id, c.clientId));
    const path = await clientPagePath(t.app, c.clientId);
    const token = new URL(`http://x${path}`).searchParams.get('token')!;
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/client-page/${c.clientId}?token=${encodeURIComponent(token)}`,
    });
    const texts = page.json().texts as { body: string; state: string }[];
    expect(texts.map((x) => x.state)).toEqual(expect.arrayContaining(['sent', 'failed']));
    expect(texts.every((x) => x.body.startsWith('Sac Handyman Services:'))).toBe(true);
  });

  /** A relay of the test's own (the app's is stopped meanwhile), with the quiet hours it is given. */
  const relayWith = (quietHours: QuietHours | null, batchSize = 10) =>
    new TextRelay({
      db: t.database.db,
      log: t.app.log,
      provider: () => textAccountNow(t.app),
      timeZone: async () => ZONE,
      quietHours,
      statusCallback: `${PUBLIC_URL}${STATUS_CALLBACK_PATH}`,
      publicUrl: PUBLIC_URL,
      retryBaseMs: 50,
      retryMaxMs: 400,
      pollMs: 60_000,
      batchSize,
    });
  const queue = (clientId: string, body: string, more: Partial<OutgoingText> = {}) =>
    t.database.db.transaction((tx) =>
      enqueueText(tx, { timeZone: ZONE }, { clientId, kind: 'visit-booked', body, ...more }),
    );

  it('offers a request’s failing e-mail by text instead: once, to a client who takes texts, never with its address', async () => {
    await turnOn();
    const email = `bounce${randomUUID().slice(0, 8)}@home.test`;
    smtp.refusing.add(email);
    try {
      const request = await createQuoteRequest(t, { email, name: 'Bounced Client' });
      const [client] = await t.database.db.select().from(clients).where(eq(clients.email, email));
      const timeline = async () =>
        (await call('GET', `/api/quoterequest/${request._id}/timeline`)).json<ActivityTimeline>();
      const step = await waitFor(
        async () => (await timeline()).events.find((e) => e.kind === 'request-created' && e.mail?.state === 'failing'),
        { what: 'the thank-you e-mail failing' },
      );
      expect(step.mail!.textedInstead).toBe(false);
      const textInstead = (eventId: string, requestId = request._id) =>
        call('POST', `/api/quoterequest/${requestId}/timeline/${eventId}/text-instead`);
      // No mobile yet: the timeline says so, and a text is refused with why.
      expect((await timeline()).canText).toBe(false);
      const noMobile = await textInstead(step._id);
      expect(noMobile.statusCode).toBe(409);
      const mobile = await giveMobile(client!, 'both');
      expect((await timeline()).canText).toBe(true);
      // A step of another request, or none: not found.
      const other = await clientWithJob();
      expect((await textInstead(step._id, other.quoteRequestId)).statusCode).toBe(404);
      expect((await textInstead('none')).statusCode).toBe(404);
      // Two taps at once: one text.
      const taps = await Promise.all([textInstead(step._id), textInstead(step._id)]);
      expect(taps.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(taps.find((r) => r.statusCode === 409)!.json().message).toBe('This e-mail was already sent by text');
      const text = await waitFor(() => fake.to(mobile).find((m) => m.body.includes('did not reach you')), {
        what: 'the text instead',
      });
      expect(text.body).toMatch(
        /^Sac Handyman Services: our e-mail "[^"]+" did not reach you\. Details: http:\/\/handyman\.test\/p\/\w+$/,
      );
      expect(text.body).not.toContain(email);
      expect(fake.to(mobile).filter((m) => m.body.includes('did not reach you'))).toHaveLength(1);
      expect((await timeline()).events.find((e) => e._id === step._id)!.mail!.textedInstead).toBe(true);
      // Listed among the request's texts.
      const listed = (
        await call('GET', `/api/clients/${client!.id}/texts?quoteRequestId=${request._id}`)
      ).json<ClientTexts>();
      expect(listed.texts.map((x) => x.kind)).toContain('mail-failed');
      // An e-mail that went is not sent by text.
      const sent = await waitFor(
        async () =>
          (await call('GET', `/api/quoterequest/${other.quoteRequestId}/timeline`))
            .json<ActivityTimeline>()
            .events.find((e) => e.kind === 'request-created' && e.mail?.state === 'sent'),
        { what: 'the other thank-you sent' },
      );
      const notFailing = await textInstead(sent._id, other.quoteRequestId);
      expect(notFailing.statusCode).toBe(409);
      expect(notFailing.json().message).toBe('Only an e-mail that is failing can be sent by text instead');
    } finally {
      smtp.refusing.delete(email);
    }
  });

  it('a send that got no answer is looked for at Twilio before it is sent again: never twice, never lost', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    await t.app.texts.stop();
    const relay = relayWith(null);
    try {
      const row = async (id: string) =>
        (await t.database.db.select().from(textMessages).where(eq(textMessages.id, id)))[0]!;
      // Twilio takes the text, but its answer is lost (1.5 s timeout here).
      fake.fail(new RegExp(`^\\${c.mobile}$`), 'answer_lost');
      const taken = await queue(c.clientId, 'Taken once');
      const before = Date.now();
      await relay.deliverDue();
      const waiting = await row(taken!);
      expect(waiting).toMatchObject({ state: 'queued', attempts: 1, providerSid: null });
      expect(waiting.reason).toContain('Twilio did not answer');
      expect(waiting.unansweredAt).not.toBeNull();
      // The next try waits for Twilio's report (a minute), not the outage's short backoff.
      expect(waiting.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + UNANSWERED_WAIT_MS);
      expect(fake.to(c.mobile)).toHaveLength(1);
      // Due again (no report came): Twilio's list is read and the text it took is recorded, not sent again.
      fake.forgetFaults();
      await t.database.db.update(textMessages).set({ nextAttemptAt: new Date() }).where(eq(textMessages.id, taken!));
      await relay.deliverDue();
      expect(await row(taken!)).toMatchObject({ state: 'sent', providerSid: fake.to(c.mobile)[0]!.sid });
      expect(fake.to(c.mobile).map((m) => m.body)).toEqual(['Taken once']);
      const lists = fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/Messages.json'));
      expect(lists.length).toBeGreaterThanOrEqual(1);
      expect(lists.every((r) => r.authorized)).toBe(true);

      // Not taken (no answer, nothing created): the list has none with its words, so it is sent.
      fake.fail(new RegExp(`^\\${c.mobile}$`), 'timeout');
      const lost = await queue(c.clientId, 'Never taken');
      await relay.deliverDue();
      expect((await row(lost!)).state).toBe('queued');
      fake.forgetFaults();
      await t.database.db.update(textMessages).set({ nextAttemptAt: new Date() }).where(eq(textMessages.id, lost!));
      await relay.deliverDue();
      expect((await row(lost!)).state).toBe('sent');
      expect(fake.to(c.mobile).map((m) => m.body)).toEqual(['Taken once', 'Never taken']);
    } finally {
      fake.forgetFaults();
      t.app.texts.start();
    }
  });

  it('holds a text out of the quiet hours when it is sent (not “on my way”), and counts a number’s day (“on my way” passes its limit)', async () => {
    await turnOn({ dailyLimit: 2 });
    const c = await clientWithJob('text');
    await t.app.texts.stop();
    try {
      // Quiet hours around this very moment on the business's clock: the hour now and the next.
      const { date, time } = wallTimeIn(ZONE, new Date());
      const hour = Number(time.slice(0, 2));
      const pad = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
      const quiet = { from: pad(hour), until: pad(hour + 2) };
      const held = await queue(c.clientId, 'Held');
      const onMyWay = await queue(c.clientId, 'On my way', {
        kind: 'on-my-way',
        visitId: `v${randomUUID()}`,
        anyHour: true,
      });
      await relayWith(quiet).deliverDue();
      const [row] = await t.database.db.select().from(textMessages).where(eq(textMessages.id, held!));
      expect(row).toMatchObject({ state: 'queued', attempts: 0 });
      expect(row!.nextAttemptAt.toISOString()).toBe(
        zonedTimeToUtc(hour + 2 >= 24 ? addDays(date, 1) : date, quiet.until, ZONE).toISOString(),
      );
      const [told] = await t.database.db.select().from(textMessages).where(eq(textMessages.id, onMyWay!));
      expect(told!.state).toBe('sent');
      // The quiet hours over: it goes. The third text of the number's day does not, and says why.
      await t.database.db.update(textMessages).set({ nextAttemptAt: new Date() }).where(eq(textMessages.id, held!));
      const third = await queue(c.clientId, 'Third');
      await relayWith(null).deliverDue();
      // Two a day: "On my way" and one of the other two; the other is held back, saying why.
      const sent = fake.to(c.mobile).map((m) => m.body);
      expect(sent).toHaveLength(2);
      expect(sent[0]).toBe('On my way');
      const rows = await t.database.db
        .select()
        .from(textMessages)
        .where(inArray(textMessages.id, [held!, third!]));
      expect(rows.map((r) => r.state).sort()).toEqual(['not-sent', 'sent']);
      expect(rows.find((r) => r.state === 'not-sent')!.reason).toContain('limit of 2 texts a day');
      // The day is full, but the crew's "On my way" for another visit still goes (and counts).
      const late = await queue(c.clientId, 'On my way again', {
        kind: 'on-my-way',
        visitId: `v${randomUUID()}`,
        anyHour: true,
      });
      const reminder = await queue(c.clientId, 'A fourth');
      await relayWith(null).deliverDue();
      const after = await t.database.db
        .select()
        .from(textMessages)
        .where(inArray(textMessages.id, [late!, reminder!]));
      expect(after.find((r) => r.id === late)!.state).toBe('sent');
      expect(after.find((r) => r.id === reminder)!.state).toBe('not-sent');
      expect(fake.to(c.mobile).map((m) => m.body)).toEqual([...sent, 'On my way again']);
    } finally {
      t.app.texts.start();
      await turnOn();
    }
  });

  it('does not send a queued text once the client’s mobile or choice changed', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    await t.app.texts.stop();
    try {
      const id = await queue(c.clientId, 'Meant for the old number');
      const [client] = await t.database.db.select().from(clients).where(eq(clients.id, c.clientId));
      const res = await call('PUT', `/api/clients/${c.clientId}`, {
        name: client!.name,
        phone: client!.phone,
        notes: '',
        mobile: uniqueMobile(),
        messageChannel: 'text',
      });
      expect(res.statusCode).toBe(200);
      await relayWith(null).deliverDue();
      const [row] = await t.database.db.select().from(textMessages).where(eq(textMessages.id, id!));
      expect(row).toMatchObject({ state: 'cancelled' });
      expect(fake.to(c.mobile)).toHaveLength(0);
    } finally {
      t.app.texts.start();
    }
  });

  it('calls off the reminder text when the visit is cancelled, and texts the cancellation', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    const visit = (await book(c.jobId, '2027-03-25')).json<{ _id: string }>();
    await waitFor(() => fake.to(c.mobile).length, { what: 'the booking text' });
    const res = await call('POST', `/api/visits/${visit._id}/cancel`, { reason: 'Rain' });
    expect(res.statusCode, res.body).toBe(200);
    const cancelled = await waitFor(() => fake.to(c.mobile).find((m) => m.body.includes('is cancelled')), {
      what: 'the cancellation text',
    });
    expect(cancelled.body).toContain('Questions? Call');
    const reminder = (await ledger(c.clientId)).find((r) => r.kind === 'visit-reminder');
    expect(reminder!.state).toBe('cancelled');
  });

  it('sends “On my way” once per visit, for the visit’s own crew, today only; two taps at once send one', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    const today = todayIn(ZONE);
    // A visit later today (or now, late in the evening): booked for the next whole hour's window.
    const hour = Math.min(22, Number(wallTimeIn(ZONE, new Date()).time.slice(0, 2)) + 1);
    const start = `${String(hour).padStart(2, '0')}:00`;
    const end = `${String(hour).padStart(2, '0')}:30`;
    const visit = (await book(c.jobId, today, start, end)).json<{ _id: string }>();
    const url = `/api/my/visits/${visit._id}/on-my-way`;
    const crew = bearer(dana.token);
    const state = (await call('GET', url, undefined, crew)).json<OnMyWayView>();
    expect(state).toMatchObject({ available: true, why: null, sentAt: null });

    const other = await createUserAndSignIn(t, 'employee');
    expect((await call('POST', url, { minutes: 30 }, bearer(other.token))).statusCode).toBe(404);
    expect((await call('POST', url, { minutes: 20 }, crew)).statusCode).toBe(400);

    const [a, b] = await Promise.all([
      call('POST', url, { minutes: 30 }, crew),
      call('POST', url, { minutes: 30 }, crew),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const text = await waitFor(() => fake.to(c.mobile).find((m) => m.body.includes('is on the way')), {
      what: 'the on-my-way text',
    });
    expect(text.body).toMatch(/^Dana from Sac Handyman Services is on the way, arriving around \d{1,2}:\d\d [AP]M$/);
    expect((await call('POST', url, { minutes: 15 }, crew)).statusCode).toBe(409);
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.to(c.mobile).filter((m) => m.body.includes('is on the way'))).toHaveLength(1);
    const after = (await call('GET', url, undefined, crew)).json<OnMyWayView>();
    expect(after.available).toBe(false);
    expect(after.sentAt).not.toBeNull();

    // Another day's visit: not yet.
    const tomorrow = (await book(c.jobId, '2027-04-01')).json<{ _id: string }>();
    const notToday = await call('POST', `/api/my/visits/${tomorrow._id}/on-my-way`, { minutes: 15 }, crew);
    expect(notToday.statusCode).toBe(409);
    expect(notToday.json().message).toContain('today');
  });

  it('sends “On my way” by e-mail to a client who prefers e-mail', async () => {
    await turnOn();
    const c = await clientWithJob('email');
    const hour = Math.min(22, Number(wallTimeIn(ZONE, new Date()).time.slice(0, 2)) + 1);
    const start = `${String(hour).padStart(2, '0')}:00`;
    const visit = (await book(c.jobId, todayIn(ZONE), start, `${String(hour).padStart(2, '0')}:30`)).json<{
      _id: string;
    }>();
    const res = await call('POST', `/api/my/visits/${visit._id}/on-my-way`, { minutes: 15 }, bearer(dana.token));
    expect(res.statusCode, res.body).toBe(200);
    const mail = await waitFor(() => smtp.to(c.email).find((m) => m.parsed.subject?.includes('is on the way')), {
      what: 'the on-my-way e-mail',
    });
    expect(mail.parsed.subject).toMatch(/^Dana from .* is on the way, arriving around/);
    expect(fake.to(c.mobile)).toHaveLength(0);
  });

  it('asks the client to confirm; C confirms the visit of the last reminder, a move asks again, the dashboard lists tomorrow’s unconfirmed', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    const tomorrow = addDays(todayIn(ZONE), 1);
    const visit = (await book(c.jobId, tomorrow, '09:00', '10:00')).json<{ _id: string }>();
    const needsYou = async () =>
      (await call('GET', '/api/dashboard/today')).json<{ unconfirmedVisits: { items: { id: string }[] } }>();
    expect((await needsYou()).unconfirmedVisits.items.map((i) => i.id)).toContain(c.jobId);
    // The reminder, made due now (it waits for the day before, out of the quiet hours).
    await t.database.db
      .update(textMessages)
      .set({ nextAttemptAt: new Date() })
      .where(and(eq(textMessages.visitId, visit._id), eq(textMessages.kind, 'visit-reminder')));
    t.app.texts.kick();
    const reminder = await waitFor(() => fake.to(c.mobile).find((m) => m.body.includes('Reply C to confirm')), {
      what: 'the reminder',
    });
    expect(reminder.body).toMatch(
      /^Sac Handyman Services: we are coming (today|tomorrow), .+\. Reply C to confirm\. Details: http/,
    );
    expect(reminder.body.length).toBeLessThanOrEqual(160);

    const inbound = `${PUBLIC_URL}/api/texts/twilio/inbound`;
    const sid = `SM${randomUUID().replaceAll('-', '')}`;
    const { form, headers } = fake.signed(inbound, { MessageSid: sid, From: c.mobile, Body: ' c ', To: fromNumber });
    const answer = await t.app.inject({ method: 'POST', url: '/api/texts/twilio/inbound', payload: form, headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(
      /<Response><Message>Sac Handyman Services: thank you, your visit on .+ is confirmed\.<\/Message><\/Response>/,
    );
    const [row] = await t.database.db.select().from(visits).where(eq(visits.id, visit._id));
    expect(row).toMatchObject({ confirmedBy: 'text' });
    expect((await needsYou()).unconfirmedVisits.items.map((i) => i.id)).not.toContain(c.jobId);
    const { visits: listed } = (await call('GET', `/api/jobs/${c.jobId}/visits`)).json<{
      visits: { _id: string; confirmedAt: string | null }[];
    }>();
    expect(listed.find((v) => v._id === visit._id)!.confirmedAt).not.toBeNull();
    expect((await textsOf(c.clientId)).texts.find((x) => x.kind === 'reply')!.body).toContain('is confirmed');

    // Moved: the new time is confirmed again.
    const moved = await call('PATCH', `/api/visits/${visit._id}`, {
      date: tomorrow,
      start: '13:00',
      end: '14:00',
      workerIds: [dana.id],
      notes: '',
      clientNote: '',
      confirm: true,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().confirmedAt).toBeNull();

    // The same post again (a replay) does nothing; a C from a number we never reminded gets no answer (a paid text).
    const again = await t.app.inject({ method: 'POST', url: '/api/texts/twilio/inbound', payload: form, headers });
    expect(again.body).toBe(EMPTY_TWIML);
    const stranger = fake.signed(inbound, {
      MessageSid: `SM${randomUUID().replaceAll('-', '')}`,
      From: '+19165550999',
      Body: 'C',
    });
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/texts/twilio/inbound',
      payload: stranger.form,
      headers: stranger.headers,
    });
    expect(none.body).toBe(EMPTY_TWIML);
    expect((await textsOf(c.clientId)).texts.filter((x) => x.kind === 'reply')).toHaveLength(1);
  });

  it('lets the client confirm on their own page, only their own visit still to come', async () => {
    await turnOn();
    const c = await clientWithJob('email');
    const other = await clientWithJob('email');
    const visit = (await book(c.jobId, addDays(todayIn(ZONE), 3))).json<{ _id: string }>();
    // Both have had a link to their page lately (their links open it; the booking's e-mail may not have left yet).
    for (const id of [c.clientId, other.clientId])
      await t.database.db.update(clients).set({ pageLinkSentAt: new Date() }).where(eq(clients.id, id));
    const tokenOf = async (clientId: string) =>
      new URL(`http://x${await clientPagePath(t.app, clientId)}`).searchParams.get('token')!;
    const confirm = async (clientId: string, visitId: string, token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/client-page/${clientId}/visits/${visitId}/confirm`,
        payload: { token },
      });
    // Another client's link, or their own link for someone else's visit: refused.
    expect((await confirm(c.clientId, visit._id, await tokenOf(other.clientId))).statusCode).toBe(403);
    expect((await confirm(other.clientId, visit._id, await tokenOf(other.clientId))).statusCode).toBe(404);
    const ok = await confirm(c.clientId, visit._id, await tokenOf(c.clientId));
    expect(ok.statusCode, ok.body).toBe(200);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/client-page/${c.clientId}?token=${encodeURIComponent(await tokenOf(c.clientId))}`,
    });
    expect(page.json().visits.find((v: { id: string }) => v.id === visit._id).confirmed).toBe(true);
    const [row] = await t.database.db.select().from(visits).where(eq(visits.id, visit._id));
    expect(row!.confirmedBy).toBe('page');
  });

  it('texts a quote and its deposit invoice as well as e-mailing them, with the e-mail’s figure', async () => {
    await turnOn();
    const email = `quoted${randomUUID().slice(0, 8)}@home.test`;
    const name = `Quoted Client ${randomUUID().slice(0, 4)}`;
    const request = await createQuoteRequest(t, { email, name });
    const [client] = await t.database.db.select().from(clients).where(eq(clients.email, email));
    const mobile = '+19165557001';
    await t.database.db.delete(textMessages).where(eq(textMessages.toNumber, mobile));
    const put = await call('PUT', `/api/clients/${client!.id}`, {
      name,
      phone: client!.phone,
      notes: '',
      mobile: '916-555-7001',
      messageChannel: 'both',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('PUT', `/api/quoterequest/markAccepted/${request._id}`)).statusCode).toBe(200);
    const sent = await call('POST', '/api/quotes/sendQuote', {
      quoteRequestId: request._id,
      clientName: name,
      projectName: 'Gate and fence',
      materials: [{ name: 'Gate hinge kit', unitPrice: 39.47, quantity: 2 }],
      labor: [{ description: 'Rebuild the fence', hourlyRate: 65, hours: 12 }],
      deposit: { kind: 'percent', value: 25 },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const quoteId = sent.json().quoteId as string;
    const quoteText = await waitFor(() => fake.to(mobile).find((m) => m.body.includes(`quote ${quoteId} is ready`)), {
      what: 'the quote text',
    });
    expect(quoteText.body).toMatch(/See it and answer on your page: http:\/\/handyman\.test\/p\/\w+$/);
    const token = await t.app.tokens.signScoped('client-quote', quoteId, 3600);
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/client-quotes/${quoteId}/answer`,
      payload: { action: 'accept', token, signatureName: name },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const invoiceText = await waitFor(() => fake.to(mobile).find((m) => m.body.includes('deposit invoice')), {
      what: 'the deposit invoice text',
    });
    const invoiceMail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Deposit invoice')),
      { what: 'the deposit invoice e-mail' },
    );
    const figure = /Deposit due\s*\n?\s*(\$[\d,.]+)/.exec(invoiceMail.parsed.text!)![1]!;
    expect(invoiceText.body).toContain(`is ready, ${figure} due`);
    expect(invoiceText.body.length).toBeLessThanOrEqual(160);

    // The request's page lists both texts; the job's page the invoice's; another request's, none.
    const jobId = (await call('GET', `/api/jobs/by-quote-request/${request._id}`)).json()._id as string;
    const about = async (query: string) =>
      (await call('GET', `/api/clients/${client!.id}/texts?${query}`)).json<ClientTexts>().texts.map((x) => x.kind);
    expect((await about(`quoteRequestId=${request._id}`)).sort()).toEqual(['invoice-sent', 'quote-sent']);
    expect(await about(`jobId=${jobId}`)).toEqual(['invoice-sent']);
    expect(await about('quoteRequestId=someone-else')).toEqual([]);
  });

  it('sends nothing by text while texts are off: e-mail as before', async () => {
    await call('DELETE', '/api/settings/texts');
    const c = await clientWithJob('text');
    await book(c.jobId, '2027-03-26');
    await waitFor(() => smtp.to(c.email).find((m) => m.parsed.subject?.startsWith('Your visit on')), {
      what: 'the e-mail',
    });
    expect(await ledger(c.clientId)).toHaveLength(0);
    expect((await textsOf(c.clientId)).textsOn).toBe(false);
    await turnOn();
  });

  it('sends each text once with two relays on one database', async () => {
    await turnOn();
    const c = await clientWithJob('text');
    await t.app.texts.stop();
    await t.database.db.update(textAccounts).set({ dailyLimit: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(
        (await t.database.db.transaction((tx) =>
          enqueueText(tx, { timeZone: ZONE }, { clientId: c.clientId, kind: 'visit-booked', body: `Race ${i}` }),
        ))!,
      );
    const relay = () => relayWith(null, 3);
    const [one, two] = [relay(), relay()];
    for (let round = 0; round < 10; round++) {
      const [x, y] = await Promise.all([one.deliverDue(), two.deliverDue()]);
      if (x + y === 0) break;
    }
    const bodies = fake.to(c.mobile).map((m) => m.body);
    expect(bodies.sort()).toEqual(ids.map((_, i) => `Race ${i}`).sort());
    const states = await t.database.db
      .select({ state: textMessages.state })
      .from(textMessages)
      .where(and(eq(textMessages.clientId, c.clientId), sql`${textMessages.body} like 'Race %'`));
    expect(states.every((s) => s.state === 'sent')).toBe(true);
    t.app.texts.start();
  });
});
