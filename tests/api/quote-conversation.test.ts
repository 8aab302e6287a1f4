import { and, eq, isNull, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, mailOutbox, quoteRequests, quotes } from '../../src/server/db/schema';
import { MailRelay, smtpTransport } from '../../src/server/mail';
import { addDays, todayIn } from '#shared/dates';
import { createQuoteRequest, sampleQuoteLines } from '../helpers/factories';
import { dataUrl, makePng } from '../helpers/images';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** The sample lines plus an optional material and an optional labor line the client may tick. */
const withOptions = {
  ...sampleQuoteLines,
  materials: [
    ...sampleQuoteLines.materials,
    { name: 'Gate latch upgrade', unitPrice: 40, quantity: 1, optional: true },
  ],
  labor: [...sampleQuoteLines.labor, { description: 'Paint the gate', hourlyRate: 50, hours: 2, optional: true }],
};
const ZONE = 'America/Los_Angeles';

describe.each(dbKinds)('the conversation around a quote (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = admin) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string> = admin) => t.app.inject({ method: 'GET', url, headers });
  const linkIn = (text: string | undefined) => {
    const url = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}(-\d+)?\?token=[\w.-]+/.exec(text ?? '')![0]);
    return { quoteId: url.pathname.split('/').pop()!, token: url.searchParams.get('token')! };
  };

  async function sentQuote(body: object = withOptions, extra: object = {}) {
    const email = `c${Date.now()}${Math.random().toString(36).slice(2, 6)}@home.test`;
    const request = await createQuoteRequest(t, { email, name: 'Dana Whitfield' });
    await t.app.inject({ method: 'PUT', url: `/api/quoterequest/markAccepted/${request._id}`, headers: admin });
    const sent = await post('/api/quotes/sendQuote', { ...body, ...extra, quoteRequestId: request._id });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    return { request, email, quote: sent.json(), mail, ...linkIn(mail.parsed.text) };
  }
  const answer = (quoteId: string, body: object) => post(`/api/client-quotes/${quoteId}/answer`, body, {});
  const timeline = async (requestId: string) =>
    (await get(`/api/quoterequest/${requestId}/timeline`)).json().events as {
      kind: string;
      actor: string;
      actorName: string | null;
      message: string | null;
      quoteNumber: string | null;
      details: Record<string, unknown>;
      mail: { _id: string; state: string; lastError: string | null; nextAttemptAt: string | null } | null;
    }[];
  const outboxOf = (id: string) => t.database.db.query.mailOutbox.findFirst({ where: eq(mailOutbox.id, id) });

  it('shows the valid-until date on the quote, the e-mail and the PDF; optional lines are marked and left out of the total', async () => {
    const validUntil = addDays(todayIn(ZONE), 10);
    const { quote, mail } = await sentQuote(withOptions, { validUntil });
    expect(quote).toMatchObject({ validUntil, version: 1, current: true, expired: false, totalCostAfterTax: 341.26 });
    expect(quote.materials[2]).toMatchObject({ name: 'Gate latch upgrade', optional: true, included: false });
    const longDate = new Date(`${validUntil}T12:00:00Z`).toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    expect(mail.parsed.text).toContain(`valid until ${longDate}`);
    expect(mail.parsed.text).toContain('Gate latch upgrade (optional)');
    const pdf = await pdfText(mail.parsed.attachments[0]!.content);
    expect(pdf).toContain(`Valid until: ${longDate}`);
    expect(pdf).toContain('Gate latch upgrade (optional)');
    expect(pdf).toContain('$341.26');

    // The request is Quote Sent and its quote still open: a draft now is the next version's.
    const revisionDraft = await post('/api/quotes/createNew', { ...withOptions, quoteRequestId: quote.quoteRequestId });
    expect(revisionDraft.json()).toMatchObject({ quoteId: `${quote.quoteId}-2`, version: 2 });
    const badDate = await post('/api/quotes/revise', {
      ...withOptions,
      quoteRequestId: quote.quoteRequestId,
      validUntil: '2020-01-01',
    });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toContain('validUntil: must be today or later');
  });

  it('keeps Accept and Decline open after a question; the owner answers by e-mail, and the quote awaits the client again', async () => {
    const { request, email, quoteId, token } = await sentQuote();
    expect((await post(`/api/quotes/${quoteId}/reply`, { message: 'Hi' })).json().code).toBe('NO_QUESTION');

    const asked = await answer(quoteId, { action: 'more-info', token, message: 'Could the latch be black?' });
    expect(asked.json()).toMatchObject({ status: 'Requested More Info', current: true });
    const [row] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, request._id));
    expect(row).toMatchObject({ status: 'Quote Sent', quoteStatus: 'Requested More Info' });
    const listed = (await get('/api/quoterequest/all?quoteState=Requested%20More%20Info&limit=100')).json();
    expect(listed.quoteRequests.map((r: { _id: string }) => r._id)).toContain(request._id);
    expect(listed.quoteRequests.find((r: { _id: string }) => r._id === request._id).quoteState).toBe(
      'Requested More Info',
    );
    expect((await get('/api/dashboard')).json().quotes.questions).toBeGreaterThanOrEqual(1);
    expect((await get(`/api/quoterequest/status/${request.quoteNumber}`, {})).json()).toEqual({
      quoteStatus: 'Quote Sent',
      quoteState: 'Requested More Info',
      nextVisit: null,
    });

    // A second question is fine too.
    expect((await answer(quoteId, { action: 'more-info', token, message: 'And the hinges?' })).statusCode).toBe(200);
    const empty = await post(`/api/quotes/${quoteId}/reply`, { message: '  ' });
    expect(empty.statusCode).toBe(400);
    const replied = await post(`/api/quotes/${quoteId}/reply`, { message: 'Yes, black is no extra charge.' });
    expect(replied.json()).toMatchObject({ status: 'Pending' });
    const reply = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Re: your quote ${quoteId}`)),
      {
        what: 'answer e-mail',
      },
    );
    expect(reply.parsed.text).toContain('Yes, black is no extra charge.');
    expect(linkIn(reply.parsed.text).quoteId).toBe(quoteId);

    const accepted = await answer(quoteId, { action: 'accept', token, signatureName: 'Dana Whitfield' });
    expect(accepted.json().status).toBe('Accepted');

    const events = await timeline(request._id);
    expect(events.map((e) => e.kind)).toEqual([
      'request-created',
      'request-accepted',
      'quote-sent',
      'reminder',
      'reminder',
      'question',
      'question',
      'answer',
      // The answer resumed the reminders; the acceptance called them off.
      'reminder',
      'reminder',
      'quote-accepted',
      'job-created',
    ]);
    expect(events.find((e) => e.kind === 'answer')).toMatchObject({
      actor: 'staff',
      actorName: expect.stringContaining('admin'),
      message: 'Yes, black is no extra charge.',
    });
    expect(events.filter((e) => e.kind === 'reminder').map((e) => e.mail?.state)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
  });

  it('accepts with the typed name, the chosen options and the network address; the job carries exactly that; the PDF prints the name, not the address', async () => {
    const { request, email, quoteId, token } = await sentQuote();
    const noName = await answer(quoteId, { action: 'accept', token, signatureName: ' ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toContain('Please type your full name to accept');

    const res = await answer(quoteId, {
      action: 'accept',
      token,
      signatureName: 'Dana Whitfield',
      selection: { materials: [2, 0, 77], labor: [] },
    });
    expect(res.statusCode, res.body).toBe(200);
    // 315.98 + 40.00 = 355.98; 8% = 28.48; 384.46. Ticking a required line (0) or a line that does not exist changes nothing.
    expect(res.json()).toMatchObject({
      status: 'Accepted',
      acceptedName: 'Dana Whitfield',
      totalCostBeforeTax: 355.98,
      taxCost: 28.48,
      totalCostAfterTax: 384.46,
    });
    // The network address is kept for the office, not sent back to the client (issue 24.7).
    for (const internal of ['acceptedIp', '_id', 'quoteRequestId', 'openedAt'])
      expect(res.json()).not.toHaveProperty(internal);
    expect(res.body).not.toContain('127.0.0.1');
    const [stored] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
    expect(stored).toMatchObject({ totalCents: 38446, acceptedName: 'Dana Whitfield', acceptedIp: '127.0.0.1' });

    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.quoteId, stored!.id));
    const detail = (await get(`/api/jobs/${job!.id}`)).json();
    expect(detail.quote.materials.map((m: { name: string }) => m.name)).toEqual([
      'Gate hinge kit',
      'Faucet cartridge',
      'Gate latch upgrade',
    ]);
    expect(detail.quote.labor).toHaveLength(1);
    expect(detail.quote.totalCostAfterTax).toBe(384.46);

    const confirmation = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Quote ${quoteId} accepted`)),
      { what: 'confirmation e-mail' },
    );
    const pdf = await pdfText(confirmation.parsed.attachments[0]!.content);
    expect(pdf).toContain('Acceptance');
    expect(pdf).toContain('Accepted by Dana Whitfield');
    // The network address is kept for the office (the row, the trail), not printed on the client's PDF.
    expect(pdf).not.toContain('127.0.0.1');
    expect(pdf).toContain('Gate latch upgrade');
    expect(pdf).not.toContain('Paint the gate');
    expect(pdf).toContain('$384.46');
    const owner = await waitFor(
      () =>
        smtp.to('owner@handyman.test').find((m) => m.parsed.subject === `Quote ${quoteId} accepted by Dana Whitfield`),
      { what: 'owner notice' },
    );
    expect(owner.parsed.text).toContain('Dana Whitfield');
    expect((await timeline(request._id)).find((e) => e.kind === 'quote-accepted')).toMatchObject({
      details: { signatureName: 'Dana Whitfield', ip: '127.0.0.1' },
      mail: { state: expect.stringMatching(/queued|sent/) },
    });
  });

  it('revises a sent quote into QT…-2: the old link names the new one, only the newest can be accepted', async () => {
    const first = await sentQuote();
    await answer(first.quoteId, { action: 'decline', token: first.token, reason: 'Too expensive' });
    const revised = await post('/api/quotes/revise', {
      ...sampleQuoteLines,
      materials: [sampleQuoteLines.materials[0]],
      quoteRequestId: first.request._id,
    });
    expect(revised.statusCode, revised.body).toBe(201);
    const v2 = revised.json();
    expect(v2).toMatchObject({ quoteId: `${first.quoteId}-2`, version: 2, status: 'Pending', current: true });
    const mail = await waitFor(
      () => smtp.to(first.email).find((m) => m.parsed.subject?.startsWith(`Your updated quote ${first.quoteId}-2`)),
      { what: 'revised quote e-mail' },
    );
    const second = linkIn(mail.parsed.text);
    expect(second.quoteId).toBe(`${first.quoteId}-2`);

    const old = (await get(`/api/client-quotes/${first.quoteId}?token=${first.token}`, {})).json();
    expect(old).toMatchObject({ current: false, replacedBy: { quoteId: `${first.quoteId}-2` } });
    const followed = new URL(old.replacedBy.link);
    expect(followed.pathname).toBe(`/quote/${first.quoteId}-2`);
    expect(
      (await get(`/api/client-quotes/${first.quoteId}-2?token=${followed.searchParams.get('token')}`, {})).json(),
    ).toMatchObject({ version: 2, current: true, replacedBy: null });
    // The old version's token opens only its own version.
    expect((await get(`/api/client-quotes/${first.quoteId}-2?token=${first.token}`, {})).statusCode).toBe(403);

    const acceptOld = await answer(first.quoteId, { action: 'accept', token: first.token, signatureName: 'Dana W' });
    expect(acceptOld.statusCode).toBe(409);
    expect(acceptOld.json().code).toBe('QUOTE_REPLACED');
    expect(
      (await answer(second.quoteId, { action: 'accept', token: second.token, signatureName: 'Dana W' })).json(),
    ).toMatchObject({ status: 'Accepted', totalCostAfterTax: 321.28 });

    const afterAccept = await post('/api/quotes/revise', { ...sampleQuoteLines, quoteRequestId: first.request._id });
    expect(afterAccept.statusCode).toBe(409);
    expect(afterAccept.json().code).toBe('QUOTE_NOT_REVISABLE');
    const kinds = (await timeline(first.request._id)).map((e) => e.kind);
    expect(kinds).toContain('quote-declined');
    expect(kinds).toContain('quote-revised');
    expect(kinds.indexOf('quote-revised')).toBeGreaterThan(kinds.indexOf('quote-declined'));
  });

  it('revisions sent at once each make their own version: numbers in a row, one current', async () => {
    const { request, quoteId } = await sentQuote();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => post('/api/quotes/revise', { ...sampleQuoteLines, quoteRequestId: request._id })),
    );
    const made = results.filter((r) => r.statusCode === 201);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    expect(made.length).toBeGreaterThanOrEqual(1);
    const versions = await t.database.db.select().from(quotes).where(eq(quotes.quoteRequestId, request._id));
    expect(versions.map((v) => v.version).sort()).toEqual(Array.from({ length: made.length + 1 }, (_, i) => i + 1));
    expect(versions.filter((v) => v.replacedAt === null)).toHaveLength(1);
    expect(new Set(versions.map((v) => v.quoteNumber))).toEqual(
      new Set(versions.map((v) => (v.version === 1 ? quoteId : `${quoteId}-${v.version}`))),
    );
  });

  it('notes when the client first opened the quote, once: by the page in their browser, not by a read', async () => {
    const { request, quoteId, token } = await sentQuote();
    expect((await get(`/api/quotes/${quoteId}`)).json().openedAt).toBeNull();
    // A mail scanner or a prefetch reads the quote (and its page, rendered with it): nobody opened it.
    for (let i = 0; i < 3; i++)
      expect((await get(`/api/client-quotes/${quoteId}?token=${token}`, {})).statusCode).toBe(200);
    expect((await get(`/api/quotes/${quoteId}`)).json().openedAt).toBeNull();
    expect((await timeline(request._id)).filter((e) => e.kind === 'quote-opened')).toHaveLength(0);
    // The page, running in the client's browser, says so: noted once however often it is sent.
    const opened = () =>
      t.app.inject({ method: 'POST', url: `/api/client-quotes/${quoteId}/opened`, payload: { token } });
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/client-quotes/${quoteId}/opened`,
      payload: { token: `${token}x` },
    });
    expect(forged.statusCode).toBe(403);
    for (const answer of await Promise.all([opened(), opened(), opened()])) expect(answer.statusCode).toBe(204);
    expect((await get(`/api/quotes/${quoteId}`)).json().openedAt).toEqual(expect.any(String));
    expect((await timeline(request._id)).filter((e) => e.kind === 'quote-opened')).toHaveLength(1);
  });

  it('after its valid-until date the quote cannot be accepted; "Ask for an updated quote" tells the owner once', async () => {
    const { request, quoteId, token } = await sentQuote();
    await t.database.db
      .update(quotes)
      .set({ validUntil: addDays(todayIn(ZONE), -1) })
      .where(eq(quotes.quoteNumber, quoteId));
    const page = (await get(`/api/client-quotes/${quoteId}?token=${token}`, {})).json();
    expect(page).toMatchObject({ expired: true, updateRequested: false });
    const accept = await answer(quoteId, { action: 'accept', token, signatureName: 'Dana Whitfield' });
    expect(accept.statusCode).toBe(410);
    expect(accept.json().code).toBe('QUOTE_EXPIRED');

    const asks = await Promise.all(
      [1, 2, 3].map(() => post(`/api/client-quotes/${quoteId}/request-update`, { token }, {})),
    );
    expect(asks.map((a) => a.json().alreadyAsked).sort()).toEqual([false, true, true]);
    await waitFor(
      () =>
        smtp
          .to('owner@handyman.test')
          .find((m) => m.parsed.subject === `Dana Whitfield asks for an updated quote (${quoteId} expired)`),
      { what: 'update request notice' },
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(
      smtp.to('owner@handyman.test').filter((m) => m.parsed.subject?.includes(`updated quote (${quoteId} expired)`)),
    ).toHaveLength(1);
    expect((await get(`/api/client-quotes/${quoteId}?token=${token}`, {})).json().updateRequested).toBe(true);
    expect((await timeline(request._id)).filter((e) => e.kind === 'update-requested')).toHaveLength(1);
    // A quote still valid has nothing to update.
    const open = await sentQuote();
    expect(
      (await post(`/api/client-quotes/${open.quoteId}/request-update`, { token: open.token }, {})).statusCode,
    ).toBe(409);
  });

  it('schedules reminders after the settings days, before expiry only, and sends each once with several relays', async () => {
    const { request, email, quoteId } = await sentQuote(sampleQuoteLines, { validUntil: addDays(todayIn(ZONE), 5) });
    const reminders = (await timeline(request._id)).filter((e) => e.kind === 'reminder');
    // Day 7 falls after the quote expires: only day 3 is scheduled.
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ details: { afterDays: 3 }, mail: { state: 'scheduled' } });
    const row = await outboxOf(reminders[0]!.mail!._id);
    const inDays = (row!.nextAttemptAt.getTime() - Date.now()) / 86_400_000;
    expect(inDays).toBeGreaterThan(2.99);
    expect(inDays).toBeLessThan(3.01);

    // Three days later: the app's relay and two more processes' relays all look at once.
    await t.database.db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(mailOutbox.id, reminders[0]!.mail!._id));
    const others = [1, 2].map(
      () =>
        new MailRelay({
          db: t.database.db,
          transport: smtpTransport(smtp.url, 'Handyman <no-reply@handyman.test>'),
          log: pino({ level: 'silent' }),
          retryBaseMs: 50,
          retryMaxMs: 400,
          pollMs: 50,
        }),
    );
    await Promise.all(others.map((r) => r.deliverDue()));
    await waitFor(
      () =>
        smtp
          .to(email)
          .find((m) => m.parsed.subject === `Reminder: your quote ${quoteId} from ${t.config.BUSINESS_NAME}`),
      {
        what: 'reminder',
      },
    );
    await Promise.all(others.map((r) => r.deliverDue()));
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.to(email).filter((m) => m.parsed.subject?.startsWith('Reminder:'))).toHaveLength(1);
    await Promise.all(others.map((r) => r.stop()));
    expect((await timeline(request._id)).find((e) => e.kind === 'reminder')?.mail?.state).toBe('sent');
  });

  it('resumes the reminders after the owner answers a question: counted from the answer, one already sent not again', async () => {
    const { request, quoteId, token } = await sentQuote(sampleQuoteLines);
    const scheduled = async () =>
      (await timeline(request._id)).filter((e) => e.kind === 'reminder' && e.mail?.state === 'scheduled');
    const first = await scheduled();
    expect(first.map((e) => e.details.afterDays)).toEqual([3, 7]);
    // Three days on, the first reminder went out; then the client asks a question: the other one waits no more.
    await t.database.db
      .update(mailOutbox)
      .set({ sent: true, sentAt: new Date() })
      .where(eq(mailOutbox.id, first[0]!.mail!._id));
    await answer(quoteId, { action: 'more-info', token, message: 'Could you start on a Saturday?' });
    expect(await scheduled()).toEqual([]);

    // The owner answers: the quote awaits the client again, and so does the reminder not yet sent,
    // its 7 days counted from the answer.
    expect((await post(`/api/quotes/${quoteId}/reply`, { message: 'Yes, Saturdays are fine.' })).statusCode).toBe(200);
    const resumed = await scheduled();
    expect(resumed.map((e) => e.details.afterDays)).toEqual([7]);
    const row = await outboxOf(resumed[0]!.mail!._id);
    const inDays = (row!.nextAttemptAt.getTime() - Date.now()) / 86_400_000;
    expect(inDays).toBeGreaterThan(6.99);
    expect(inDays).toBeLessThan(7.01);
    expect(row!.subject).toBe(`Reminder: your quote ${quoteId} from ${t.config.BUSINESS_NAME}`);

    // A second question calls it off again; the answer brings it back once, not twice.
    await answer(quoteId, { action: 'more-info', token, message: 'And Sundays?' });
    expect(await scheduled()).toEqual([]);
    await post(`/api/quotes/${quoteId}/reply`, { message: 'Sundays too.' });
    expect((await scheduled()).map((e) => e.details.afterDays)).toEqual([7]);
  });

  it('shows a failing e-mail with the SMTP error and its next try, and sends it again on request', async () => {
    const { request, email, quoteId, token } = await sentQuote(sampleQuoteLines);
    await answer(quoteId, { action: 'more-info', token, message: 'When could you start?' });
    smtp.refusing.add(email);
    try {
      await post(`/api/quotes/${quoteId}/reply`, { message: 'Next Tuesday.' });
      const failing = await waitFor(
        async () => (await timeline(request._id)).find((e) => e.kind === 'answer' && e.mail?.state === 'failing'),
        { what: 'failing answer e-mail' },
      );
      expect(failing.mail!.lastError).toContain('Mailbox unavailable');
      expect(failing.mail!.nextAttemptAt).toEqual(expect.any(String));
      // As after many failures, the next try is an hour away (set until no attempt in flight undoes it):
      // "send again" brings it forward.
      await waitFor(
        async () => {
          await t.database.db
            .update(mailOutbox)
            .set({ nextAttemptAt: sql`now() + interval '1 hour'` })
            .where(eq(mailOutbox.id, failing.mail!._id));
          await new Promise((r) => setTimeout(r, 600));
          const row = await outboxOf(failing.mail!._id);
          return row!.nextAttemptAt.getTime() > Date.now() + 30 * 60_000;
        },
        { what: 'a quiet outbox row' },
      );
    } finally {
      smtp.refusing.delete(email);
    }
    const failed = (await timeline(request._id)).find((e) => e.kind === 'answer')!;
    expect(failed.mail!.state).toBe('failing');
    const again = await post(`/api/mail/${failed.mail!._id}/send-again`, {});
    expect(again.statusCode).toBe(200);
    await waitFor(
      async () => (await timeline(request._id)).find((e) => e.kind === 'answer' && e.mail?.state === 'sent'),
      { what: 'sent after send again' },
    );
    expect(smtp.to(email).filter((m) => m.parsed.subject?.startsWith('Re: your quote'))).toHaveLength(1);
    const sentAgain = await post(`/api/mail/${failed.mail!._id}/send-again`, {});
    expect(sentAgain.statusCode).toBe(409);
    expect(sentAgain.json().code).toBe('MAIL_NOT_RETRYABLE');
    expect((await post('/api/mail/nope/send-again', {})).statusCode).toBe(404);
  });

  it('sends and accepts right after a logo change (its bytes are read before the transaction: PGlite has one connection)', async () => {
    const logo = { image: dataUrl(await makePng(120, 40), 'image/png') };
    const put = await t.app.inject({ method: 'PUT', url: '/api/settings/logo', headers: admin, payload: logo });
    expect(put.statusCode).toBe(200);
    const { quoteId, token } = await sentQuote(sampleQuoteLines);
    await t.app.inject({ method: 'PUT', url: '/api/settings/logo', headers: admin, payload: logo });
    const accepted = await answer(quoteId, { action: 'accept', token, signatureName: 'Dana Whitfield' });
    expect(accepted.json().status).toBe('Accepted');
    await t.app.inject({ method: 'DELETE', url: '/api/settings/logo', headers: admin });
  });

  it('keeps a question, a revision and an acceptance apart per request (no cross-talk between quotes)', async () => {
    const a = await sentQuote();
    const b = await sentQuote();
    expect((await answer(a.quoteId, { action: 'more-info', token: b.token, message: 'x' })).statusCode).toBe(403);
    const open = await t.database.db
      .select()
      .from(quotes)
      .where(and(eq(quotes.quoteRequestId, a.request._id), isNull(quotes.replacedAt)));
    expect(open[0]!.status).toBe('Pending');
  });
});
