import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, clients, mailOutbox } from '../../src/server/db/schema';
import { addDays, todayIn } from '#shared/dates';
import { clientPageMessages } from '#shared/schemas/client-page';
import type { ClientPageView } from '#shared/schemas/client-page';
import { createQuoteRequest, soldJobWithDeposit } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithCrew, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';
const OWNER = 'owner@handyman.test';
const PAGE_LINK = /http:\/\/handyman\.test\/your-page\/([\w-]+)\?token=([\w.%-]+)/;

/** The client page's id and token in an e-mail's text. */
function pageLinkIn(text: string | undefined): { id: string; token: string } {
  const found = PAGE_LINK.exec(text ?? '');
  if (!found) throw new Error(`no link to the client's page in: ${text}`);
  return { id: found[1]!, token: decodeURIComponent(found[2]!) };
}

/** Issue 29, the client's page (decision 036): one signed link per client, in every e-mail to them. */
describe.each(dbKinds)("the client's own page (%s)", (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let crew: Record<string, string>;
  beforeAll(async () => {
    const office = await createMailingTestAppWithCrew(kind);
    ({ smtp, admin } = office);
    crew = office.crew.auth;
    t = office;
  });
  afterAll(() => t.close());

  const page = (id: string, token: string | undefined) =>
    t.app.inject({
      method: 'GET',
      url: `/api/client-page/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
    });
  const ask = (email: string) => t.app.inject({ method: 'POST', url: '/api/client-page/link', payload: { email } });
  const linkMails = async (email: string) =>
    (
      await t.database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, email), sql`${mailOutbox.subject} like 'Your page at %'`))
    ).length;

  it('every e-mail to the client carries the link; it opens their quotes, visits, invoices (with the receipt) and the .ics; the owner’s do not', async () => {
    const email = `hub${Date.now()}@home.test`;
    const { jobId } = await soldJobWithDeposit(t, smtp, admin, { email, name: 'Hana Hubbard' });
    const deposit = await waitFor(() => smtp.to(email).find((m) => /deposit/i.test(m.parsed.subject ?? '')), {
      what: 'deposit invoice e-mail',
    });
    const { id, token } = pageLinkIn(deposit.parsed.text);
    // The HTML carries it as a button too.
    expect(String(deposit.parsed.html)).toContain(`/your-page/${id}?token=`);

    // A visit booked, the deposit paid by check: the client's page shows them.
    const date = addDays(todayIn(ZONE), 3);
    const visit = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${jobId}/visits`,
      headers: admin,
      payload: { date, start: '09:00', end: '11:00', workerIds: [], notes: '', clientNote: '' },
    });
    expect(visit.statusCode, visit.body).toBeLessThan(300);
    const view = (await page(id, token)).json<ClientPageView>();
    expect(view.client.name).toBe('Hana Hubbard');
    expect(view.readOnly).toBe(false);
    expect(view.quotes).toHaveLength(1);
    expect(view.quotes[0]!.state).toBe('accepted');
    expect(view.quotes[0]!.pdfHref).toMatch(/^\/api\/client-quotes\/QT\d{8}\/pdf\?token=/);
    expect(view.requests[0]!.status).toBe('Quote accepted');
    expect(view.visits).toHaveLength(1);
    expect(view.visits[0]).toMatchObject({ date, start: '09:00', upcoming: true });
    const [invoice] = view.invoices;
    expect(invoice).toMatchObject({ kind: 'deposit', status: 'Due', payments: [] });
    expect(invoice!.balanceCents).toBeGreaterThan(0);
    expect(view.balanceCents).toBe(invoice!.balanceCents);
    expect(invoice!.href).toMatch(/^\/invoice\/[\w-]+\?token=/);

    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/invoices/${invoice!.id}/payments`,
      headers: admin,
      payload: {
        amount: invoice!.balanceCents / 100,
        method: 'check',
        reference: '1042',
        paidOn: todayIn(ZONE),
        note: '',
      },
    });
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    const after = (await page(id, token)).json<ClientPageView>();
    expect(after.invoices[0]).toMatchObject({ status: 'Paid', balanceCents: 0 });
    expect(after.invoices[0]!.payments).toEqual([
      { paidOn: todayIn(ZONE), amountCents: invoice!.balanceCents, method: 'check' },
    ]);

    // Add to calendar: the visit's .ics by its signed address; an altered one is refused.
    const ics = await t.app.inject({ method: 'GET', url: after.visits[0]!.icsHref });
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    expect(ics.body).toContain('BEGIN:VEVENT');
    const forged = await t.app.inject({ method: 'GET', url: `${after.visits[0]!.icsHref}x` });
    expect(forged.statusCode).toBe(403);

    // The quote, the yes, the deposit, the visit and the receipt e-mails all carry the same client's link;
    // the owner's notices carry none.
    const receipt = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Receipt')), {
      what: 'receipt',
    });
    expect(receipt).toBeDefined();
    const toClient = smtp.to(email);
    expect(toClient.length).toBeGreaterThanOrEqual(5);
    for (const mail of toClient) expect(pageLinkIn(mail.parsed.text).id, mail.parsed.subject).toBe(id);
    for (const mail of smtp.to(OWNER)) expect(mail.parsed.text ?? '').not.toMatch(PAGE_LINK);
  });

  it('a link works only for its client: swapped ids and tokens, another kind of link or an altered token are refused', async () => {
    const a = `swap-a${Date.now()}@home.test`;
    const b = `swap-b${Date.now()}@home.test`;
    await createQuoteRequest(t, { email: a, name: 'Ann Swap' });
    await createQuoteRequest(t, { email: b, name: 'Ben Swap' });
    const mailA = await waitFor(() => smtp.to(a)[0], { what: 'thank-you to A' });
    const mailB = await waitFor(() => smtp.to(b)[0], { what: 'thank-you to B' });
    const linkA = pageLinkIn(mailA.parsed.text);
    const linkB = pageLinkIn(mailB.parsed.text);
    expect(linkA.id).not.toBe(linkB.id);

    expect((await page(linkA.id, linkA.token)).json<ClientPageView>().client.name).toBe('Ann Swap');
    expect((await page(linkB.id, linkB.token)).json<ClientPageView>().client.name).toBe('Ben Swap');
    for (const [id, token] of [
      [linkA.id, linkB.token],
      [linkB.id, linkA.token],
      [linkA.id, undefined],
      [linkA.id, ''],
      [linkA.id, `${linkA.token.slice(0, -2)}xx`],
      // A staff session's token, a quote's or an invoice's: signed by the same key for another purpose.
      [linkA.id, admin.authorization!.slice('Bearer '.length)],
      [linkA.id, await t.app.tokens.signScoped('client-invoice', linkA.id, 3600)],
    ] as const) {
      const res = await page(id, token);
      expect(res.statusCode, `${id} ${token}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'LINK_INVALID', message: clientPageMessages.linkInvalid });
    }
  });

  it('a link expires 60 days after the last e-mail that carried one; the expired page e-mails a fresh one, to the address on file only', async () => {
    const email = `expire${Date.now()}@home.test`;
    await createQuoteRequest(t, { email, name: 'Eve Expire' });
    const first = await waitFor(() => smtp.to(email)[0], { what: 'thank-you' });
    const { id, token } = pageLinkIn(first.parsed.text);
    const view = (await page(id, token)).json<ClientPageView>();
    expect(view.linkValidUntil).toBe(new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10));

    await t.database.db
      .update(clients)
      .set({ pageLinkSentAt: sql`now() - interval '60 days 1 minute'` })
      .where(eq(clients.id, id));
    const expired = await page(id, token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ code: 'LINK_EXPIRED', message: clientPageMessages.linkExpired });

    // Asking with a token that is not this client's sends nothing, with the same answer.
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/client-page/${id}/fresh-link`,
      payload: { token: 'not-a-token' },
    });
    const fresh = await t.app.inject({ method: 'POST', url: `/api/client-page/${id}/fresh-link`, payload: { token } });
    expect(refused.statusCode).toBe(202);
    expect(fresh.statusCode).toBe(202);
    expect(refused.body).toBe(fresh.body);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your page at')), {
      what: 'fresh link',
    });
    expect(await linkMails(email)).toBe(1);
    // The e-mail that carried a link counts the 60 days again: the old link opens the page again, too.
    expect((await page(id, pageLinkIn(mail.parsed.text).token)).statusCode).toBe(200);
    expect((await page(id, token)).statusCode).toBe(200);
  });

  it('“E-mail me my link” answers the same for a known and an unknown address, and is limited per address and per client', async () => {
    const email = `ask${Date.now()}@home.test`;
    await createQuoteRequest(t, { email, name: 'Abe Ask' });
    await waitFor(() => smtp.to(email)[0], { what: 'thank-you' });
    const known = await ask(email.toUpperCase());
    const unknown = await ask(`nobody${Date.now()}@home.test`);
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ message: clientPageMessages.linkSent });
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your page at')), {
      what: 'the link',
    });
    expect(mail.parsed.text).toContain('Hi Abe Ask');
    pageLinkIn(mail.parsed.text);
    expect((await ask('not an address')).statusCode).toBe(400);

    // Per address: 3 an hour, whatever the answer says.
    for (let i = 0; i < 4; i++) expect((await ask(email)).statusCode).toBe(202);
    expect(await linkMails(email)).toBe(3);
    // Per client: the expired page's button counts too, up to 5 an hour in all.
    const { id } = pageLinkIn(mail.parsed.text);
    const token = pageLinkIn(mail.parsed.text).token;
    for (let i = 0; i < 4; i++)
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/client-page/${id}/fresh-link`, payload: { token } }))
          .statusCode,
      ).toBe(202);
    expect(await linkMails(email)).toBe(5);
  });

  it('staff open a client’s page as the client sees it, read-only, and the trail records it; the crew may not', async () => {
    const email = `staff${Date.now()}@home.test`;
    await createQuoteRequest(t, { email, name: 'Sam Staffview' });
    const { id } = pageLinkIn((await waitFor(() => smtp.to(email)[0], { what: 'thank-you' })).parsed.text);
    const res = await t.app.inject({ method: 'GET', url: `/api/clients/${id}/their-page`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json<ClientPageView>()).toMatchObject({
      readOnly: true,
      linkValidUntil: null,
      client: { name: 'Sam Staffview' },
    });
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.target, id));
    expect(entries.map((e) => e.action)).toContain("Opened the client's own page as they see it");
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/clients/${id}/their-page`, headers: crew })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/clients/${id}/their-page` })).statusCode).toBe(401);
  });
});
