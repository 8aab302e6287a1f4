import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn, wallTimeIn } from '#shared/dates';
import type { ClientPageView } from '#shared/schemas/client-page';
import type { PlanOfferView, ServicePlanView } from '#shared/schemas/service-plans';
import { invoices, jobs, planOffers, quoteRequests, visitPlans, visits } from '../../src/server/db/schema';
import { remindRenewals } from '../../src/server/visits';
import { createQuoteRequest } from '../helpers/factories';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ZONE = 'America/Los_Angeles';

/** Issue 31: service plans the business sells, offered to a client, signed on their link. */
describe.each(dbKinds)('service plans (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let owner: Record<string, string>;
  beforeAll(async () => {
    const mailing = await createMailingTestApp(kind);
    t = mailing;
    smtp = mailing.smtp;
    owner = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const gutters = {
    name: 'Gutter care',
    included: 'Gutters and downspouts cleared, roof line checked',
    visitsPerYear: 2,
    start: '09:00',
    end: '11:00',
    billing: 'visit',
    price: 145,
    taxable: false,
    termMonths: 12,
  };
  const addPlan = (body: object) =>
    t.app.inject({ method: 'POST', url: '/api/service-plans', headers: owner, payload: body });

  /** A client with an e-mail and an address (from a request), and their id. */
  async function client(tag: string) {
    const email = `${tag}${Date.now()}@home.test`;
    const request = await createQuoteRequest(t, { name: `Client ${tag}`, email });
    const [row] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, request._id));
    return { id: row!.clientId!, email };
  }

  /** The first day from `days` ahead that every month has (the 1st to the 28th). */
  const dayAhead = (days: number) => {
    let date = addDays(todayIn(ZONE), days);
    while (date.slice(8) > '28') date = addDays(date, 1);
    return date;
  };

  /** The link the client was e-mailed: its offer id and token. */
  async function linkOf(email: string, subject: RegExp) {
    const mail = await waitFor(() => smtp.to(email).find((m) => subject.test(m.parsed.subject ?? '')), {
      what: 'the plan e-mail',
    });
    const url = new URL(/https?:\/\/\S+\/service-plan\/[^\s"<>]+/.exec(mail.parsed.text!)![0]);
    return { id: url.pathname.split('/').at(-1)!, token: url.searchParams.get('token')!, mail };
  }

  it('the office adds a plan and offers it; the client reads it from their link and signs once of two taps: a job with its visits', async () => {
    const bad = await addPlan({ ...gutters, price: 0, end: '08:00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Price must be more than 0');
    expect(bad.body).toContain('The visit must end after it starts');
    const added = await addPlan(gutters);
    expect(added.statusCode, added.body).toBe(201);
    const plan = added.json<ServicePlanView>();
    expect(plan).toMatchObject({ name: 'Gutter care', price: 145, visitsPerYear: 2, archived: false });

    const { id: clientId, email } = await client('plan');
    const firstDate = dayAhead(3);
    const offered = await t.app.inject({
      method: 'POST',
      url: `/api/clients/${clientId}/plan-offers`,
      headers: owner,
      payload: { servicePlanId: plan._id, firstDate },
    });
    expect(offered.statusCode, offered.body).toBe(201);
    expect(offered.json<PlanOfferView>()).toMatchObject({ state: 'Offered', firstDate, price: 145 });

    // The client's e-mail: what it is, its price, and the link to sign it.
    const link = await linkOf(email, /^Your Gutter care plan from /);
    expect(link.mail.parsed.text).toContain('$145.00 a visit');
    const read = await t.app.inject({ method: 'GET', url: `/api/client-plan-offers/${link.id}?token=${link.token}` });
    expect(read.statusCode, read.body).toBe(200);
    const offer = read.json<PlanOfferView>();
    expect(offer.schedule).toMatch(/^Every 6 months on the \d+(st|nd|rd|th), 9:00 AM – 11:00 AM, from .+, until /);
    expect(offer.firstDates[0]).toBe(firstDate);
    expect(offer.firstDates).toHaveLength(2);
    expect(offer.jobId).toBeNull();
    const stranger = await t.app.inject({ method: 'GET', url: `/api/client-plan-offers/${link.id}?token=nope` });
    expect(stranger.statusCode).toBe(403);

    // Their own page (the e-mail's other link) lists it, waiting for their signature, with a link that
    // opens it; staff looking at that page as the client sees it get no link to sign in their name.
    const pageLink = new URL(/https?:\/\/\S+\/your-page\/[^\s"<>]+/.exec(link.mail.parsed.text!)![0]);
    const ownPage = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api${pageLink.pathname.replace('/your-page/', '/client-page/')}${pageLink.search}`,
        })
      ).json<ClientPageView>();
    const listed = (await ownPage()).servicePlans;
    expect(listed).toMatchObject([
      { id: link.id, name: 'Gutter care', state: 'offered', price: '$145.00 a visit', signedAt: null },
    ]);
    expect(listed[0]!.schedule).toBe(offer.schedule);
    const fromPage = new URL(listed[0]!.href!, 'http://x');
    expect(fromPage.pathname).toBe(`/service-plan/${link.id}`);
    const readFromPage = await t.app.inject({
      method: 'GET',
      url: `/api/client-plan-offers/${link.id}${fromPage.search}`,
    });
    expect(readFromPage.statusCode, readFromPage.body).toBe(200);
    const asStaff = (
      await t.app.inject({ method: 'GET', url: `/api/clients/${clientId}/their-page`, headers: owner })
    ).json<ClientPageView>();
    expect(asStaff.servicePlans).toMatchObject([{ id: link.id, state: 'offered', href: null }]);

    // Two taps at once: one signs, the other is told it is signed; one job.
    const sign = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/client-plan-offers/${link.id}/sign`,
        payload: { token: link.token, signedName: 'Pat Client' },
      });
    const [a, b] = await Promise.all([sign(), sign()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const [row] = await t.database.db.select().from(planOffers).where(eq(planOffers.id, link.id));
    expect(row).toMatchObject({ state: 'Signed', signedName: 'Pat Client' });
    const made = await t.database.db.select().from(jobs).where(eq(jobs.clientId, clientId));
    const job = made.find((j) => j.id === row!.jobId)!;
    expect(made.filter((j) => j.notes.startsWith('Service plan:'))).toHaveLength(1);
    expect(job.notes).toBe('Service plan: Gutter care\nGutters and downspouts cleared, roof line checked');
    const [repeating] = await t.database.db.select().from(visitPlans).where(eq(visitPlans.jobId, job.id));
    expect(repeating).toMatchObject({ offerId: link.id, billing: 'visit', priceCents: 14500 });
    const booked = await t.database.db.select().from(visits).where(eq(visits.planId, repeating!.id));
    // Its whole term is booked at once: twice a year, both visits.
    expect(booked.map((v) => v.planDate).sort()).toEqual(offer.firstDates);
    expect(wallTimeIn(ZONE, booked[0]!.startsAt).time).toBe('09:00');

    // The client is told once for the series, the owner that it was signed.
    await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your regular visits:')), {
      what: 'the series e-mail',
    });
    await waitFor(() => smtp.received.find((m) => m.parsed.subject === `Plan signed: Gutter care for Client plan`), {
      what: 'the owner’s notice',
    });
    // Their page has it signed, to read.
    const [signedOnPage] = (await ownPage()).servicePlans;
    expect(signedOnPage).toMatchObject({ id: link.id, state: 'signed' });
    expect(signedOnPage!.signedAt).not.toBeNull();
    expect(signedOnPage!.href).toMatch(new RegExp(`^/service-plan/${link.id}\\?token=`));
    // And the visits the plan booked, though its job came from no request.
    const page = await ownPage();
    expect(page.visits.map((v) => v.date).sort()).toEqual(offer.firstDates);
    // The office's page of the client lists the plan's job among theirs.
    const staffView = await t.app.inject({ method: 'GET', url: `/api/clients/${clientId}`, headers: owner });
    expect(staffView.json().history.jobs.map((j: { _id: string }) => j._id)).toContain(job.id);
    // Nothing invoiced before a visit is over.
    expect(await t.database.db.select().from(invoices).where(eq(invoices.jobId, job.id))).toHaveLength(0);
  });

  it('refuses an offer for a day no month has, a past date, a client without the plan; withdrawn, its link says so', async () => {
    const plan = (
      await addPlan({ ...gutters, name: 'Monthly upkeep', visitsPerYear: 12, billing: 'month' })
    ).json<ServicePlanView>();
    const { id: clientId, email } = await client('refused');
    const offer = (firstDate: string, servicePlanId = plan._id) =>
      t.app.inject({
        method: 'POST',
        url: `/api/clients/${clientId}/plan-offers`,
        headers: owner,
        payload: { servicePlanId, firstDate },
      });
    const today = todayIn(ZONE);
    let day30 = addDays(today, 1);
    while (!day30.endsWith('-30')) day30 = addDays(day30, 1);
    expect((await offer(day30)).body).toContain('Pick a first visit on the 1st to the 28th');
    expect((await offer(today)).body).toContain('The first visit must be after today');
    expect((await offer(addDays(today, 2), 'none')).statusCode).toBe(400);

    const ok = await offer(dayAhead(2));
    expect(ok.statusCode, ok.body).toBe(201);
    const link = await linkOf(email, /^Your Monthly upkeep plan from /);
    const withdrawn = await t.app.inject({
      method: 'POST',
      url: `/api/plan-offers/${link.id}/withdraw`,
      headers: owner,
    });
    expect(withdrawn.statusCode).toBe(204);
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/client-plan-offers/${link.id}/sign`,
      payload: { token: link.token, signedName: 'Pat Client' },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This plan is no longer offered: please call us');
    const listed = (
      await t.app.inject({ method: 'GET', url: `/api/clients/${clientId}/plan-offers`, headers: owner })
    ).json<{ offers: PlanOfferView[] }>();
    expect(listed.offers.map((o) => o.state)).toEqual(['Withdrawn']);
    // A withdrawn offer leaves the client's page.
    const theirs = (
      await t.app.inject({ method: 'GET', url: `/api/clients/${clientId}/their-page`, headers: owner })
    ).json<ClientPageView>();
    expect(theirs.servicePlans).toEqual([]);
  });

  it('a signed plan ending within 30 days reminds the client and the owner once', async () => {
    const plan = (
      await addPlan({ ...gutters, name: 'Pressure washing', visitsPerYear: 52, termMonths: 1 })
    ).json<ServicePlanView>();
    const { id: clientId, email } = await client('renew');
    const today = todayIn(ZONE);
    await t.app.inject({
      method: 'POST',
      url: `/api/clients/${clientId}/plan-offers`,
      headers: owner,
      payload: { servicePlanId: plan._id, firstDate: addDays(today, 1) },
    });
    const link = await linkOf(email, /^Your Pressure washing plan from /);
    const signed = await t.app.inject({
      method: 'POST',
      url: `/api/client-plan-offers/${link.id}/sign`,
      payload: { token: link.token, signedName: 'Renée Client' },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    // Ten days on, its last visit is within 30 days: reminded once, however often the job runs.
    const later = addDays(today, 10);
    const counts = await Promise.all([remindRenewals(t.app, later), remindRenewals(t.app, later)]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await remindRenewals(t.app, later)).toBe(0);
    const mail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your Pressure washing plan ends ')),
      { what: 'the renewal reminder' },
    );
    expect(mail.parsed.text).toContain('Would you like it to go on for another month?');
    await waitFor(
      () =>
        smtp.received.find((m) => /^Renewal: Client renew.s Pressure washing plan ends /.test(m.parsed.subject ?? '')),
      { what: 'the owner’s renewal notice' },
    );
    expect(smtp.to(email).filter((m) => m.parsed.subject?.startsWith('Your Pressure washing plan ends '))).toHaveLength(
      1,
    );
  });
});
