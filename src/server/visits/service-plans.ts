import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { addDays, formatLongDate } from '#shared/dates';
import { toCents, toDollars } from '#shared/money';
import { paths } from '#shared/paths';
import { allOccurrences, describeRecurrence, occurrencesBetween, servicePlanRule } from '#shared/recurrence';
import {
  planPriceWords,
  type PlanOfferView,
  type ServicePlanView,
  type VisitsPerYear,
  type planOfferInput,
  type servicePlanInput,
} from '#shared/schemas/service-plans';
import { clientOf, clientViews } from '../clients';
import type { DbOrTx } from '../db/client';
import { newId } from '../db/ids';
import { createJobForServicePlan, findJobById } from '../jobs';
import type { BusinessSettings } from '../lib/business';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import { requireClientToken } from '../lib/signed-links';
import { composeEmail, enqueueMail, toClient } from '../mail';
import { startPlanIn } from './plans';
import { planOffers, servicePlans, visitPlans } from './tables';
import type { ClientPagePlan } from '#shared/schemas/client-page';

type PlanRow = typeof servicePlans.$inferSelect;
type OfferRow = typeof planOffers.$inferSelect;

const OFFER_LINK = 'plan-offer';
/** An offer's link opens it for 60 days. */
const OFFER_LINK_SECONDS = 60 * 86_400;
/** A signed plan's owner and client are reminded this many days before its last date. */
export const RENEWAL_NOTICE_DAYS = 30;

function servicePlanView(row: PlanRow): ServicePlanView {
  return {
    _id: row.id,
    name: row.name,
    included: row.included,
    visitsPerYear: row.visitsPerYear,
    start: row.start,
    end: row.end,
    billing: row.billing,
    price: toDollars(row.priceCents),
    taxable: row.taxable,
    termMonths: row.termMonths,
    archived: row.archivedAt !== null,
  };
}

/** The service plans, those still offered first, by name. */
export async function listServicePlans(db: DbOrTx): Promise<ServicePlanView[]> {
  const rows = await db
    .select()
    .from(servicePlans)
    .orderBy(sql`${servicePlans.archivedAt} is not null`, asc(servicePlans.name));
  return rows.map(servicePlanView);
}

type PlanInput = z.output<typeof servicePlanInput>;
const planValues = (input: PlanInput) => ({
  name: input.name,
  included: input.included,
  visitsPerYear: input.visitsPerYear,
  start: input.start,
  end: input.end,
  billing: input.billing,
  priceCents: toCents(input.price),
  taxable: input.taxable,
  termMonths: input.termMonths,
});

export async function createServicePlan(db: DbOrTx, input: PlanInput): Promise<ServicePlanView> {
  const [row] = await db
    .insert(servicePlans)
    .values({ id: newId(), ...planValues(input) })
    .returning();
  return servicePlanView(row!);
}

/** A plan's change holds for the offers made after it; those made and signed keep what they said. */
export async function updateServicePlan(db: DbOrTx, id: string, input: PlanInput): Promise<ServicePlanView> {
  const [row] = await db
    .update(servicePlans)
    .set({ ...planValues(input), updatedAt: new Date() })
    .where(eq(servicePlans.id, id))
    .returning();
  if (!row) throw notFound('Service plan not found');
  return servicePlanView(row);
}

/** No longer offered (or offered again): the plans signed go on. */
export async function archiveServicePlan(db: DbOrTx, id: string, archived: boolean): Promise<ServicePlanView> {
  const [row] = await db
    .update(servicePlans)
    .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
    .where(eq(servicePlans.id, id))
    .returning();
  if (!row) throw notFound('Service plan not found');
  return servicePlanView(row);
}

const addressLine = (a: OfferRow['address']) => `${a.street}, ${a.city}, ${a.state} ${a.zip}`;

function offerView(row: OfferRow, clientName: string, staff: boolean): PlanOfferView {
  const dates = allOccurrences(row.rule);
  return {
    _id: row.id,
    name: row.name,
    included: row.included,
    schedule: describeRecurrence(row.rule),
    billing: row.billing,
    price: toDollars(row.priceCents),
    taxable: row.taxable,
    termMonths: row.termMonths,
    firstDate: row.rule.firstDate,
    until: row.rule.until!,
    firstDates: dates.slice(0, 5),
    clientName,
    address: addressLine(row.address),
    state: row.state,
    signedName: row.signedName,
    signedAt: row.signedAt?.toISOString() ?? null,
    jobId: staff ? row.jobId : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** An offer's price in the words of every page and e-mail. */
const priceWords = (offer: OfferRow) =>
  planPriceWords({ price: toDollars(offer.priceCents), billing: offer.billing, taxable: offer.taxable });

async function offerLink(app: FastifyInstance, offerId: string): Promise<string> {
  const token = await app.tokens.signScoped(OFFER_LINK, offerId, OFFER_LINK_SECONDS);
  return `${app.config.PUBLIC_URL}${paths.servicePlanOffer(offerId, token)}`;
}

/**
 * The office offers a service plan to a client (issue 31): what it is, as it is today, from the first
 * visit's date for the plan's term, at one of their addresses; the client is e-mailed a link to read and
 * sign it.
 */
export async function offerServicePlan(
  app: FastifyInstance,
  clientId: string,
  input: z.output<typeof planOfferInput>,
): Promise<PlanOfferView> {
  const business = await app.settings.current();
  const today = await app.settings.today();
  const client = await clientOf(app.db, clientId);
  if (!client) throw notFound('Client not found');
  if (!client.email) throw conflict('This client has no e-mail: add one to send them the plan', 'CONFLICT');
  const [plan] = await app.db.select().from(servicePlans).where(eq(servicePlans.id, input.servicePlanId));
  if (!plan || plan.archivedAt) throw badRequest('Pick a service plan that is offered');
  if (input.firstDate <= today) throw badRequest('The first visit must be after today');
  if (plan.visitsPerYear < 26 && Number(input.firstDate.slice(8)) > 28)
    throw badRequest('Pick a first visit on the 1st to the 28th: every month has that day');
  const [view] = await clientViews(app.db, [client]);
  const address = input.addressId ? view!.addresses.find((a) => a._id === input.addressId) : view!.addresses[0];
  if (!address) throw badRequest('Pick one of the client’s addresses');
  const rule = servicePlanRule({
    ...plan,
    visitsPerYear: plan.visitsPerYear as VisitsPerYear,
    firstDate: input.firstDate,
  });
  return app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(planOffers)
      .values({
        id: newId(),
        servicePlanId: plan.id,
        clientId,
        name: plan.name,
        included: plan.included,
        serviceAddressId: address._id,
        address: { street: address.street, city: address.city, state: address.state, zip: address.zip },
        rule,
        billing: plan.billing,
        priceCents: plan.priceCents,
        taxable: plan.taxable,
        termMonths: plan.termMonths,
      })
      .returning();
    await enqueueMail(tx, toClient(offerMail(business, client.email, row!, await offerLink(app, row!.id))));
    return offerView(row!, client.name, true);
  });
}

/** A client's offers, newest first (the office's client page). */
export async function offersOfClient(db: DbOrTx, clientId: string): Promise<PlanOfferView[]> {
  const client = await clientOf(db, clientId);
  if (!client) throw notFound('Client not found');
  const rows = await db
    .select()
    .from(planOffers)
    .where(eq(planOffers.clientId, clientId))
    .orderBy(desc(planOffers.createdAt), desc(planOffers.id));
  return rows.map((row) => offerView(row, client.name, true));
}

async function offerOf(db: DbOrTx, id: string, lock = false) {
  const query = db.select().from(planOffers).where(eq(planOffers.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('This plan could not be found');
  return row;
}

/** The offer as the client reads it from their link (no job id). */
export async function clientOffer(app: FastifyInstance, id: string, token: string | undefined): Promise<PlanOfferView> {
  await requireClientToken(app.tokens, OFFER_LINK, id, token);
  const row = await offerOf(app.db, id);
  const client = await clientOf(app.db, row.clientId);
  return offerView(row, client?.name ?? '', false);
}

/**
 * The client signs (issue 31): in one transaction with the offer locked, it is marked signed with their
 * typed name, a job is made at its address, and its repeating visits start (made ahead, the client told
 * once, the first month invoiced when billed by the month). Signing twice (two taps, two tabs) makes one
 * job: the second is told it is signed already. The owner is e-mailed.
 */
export async function signOffer(
  app: FastifyInstance,
  id: string,
  sign: { token: string; signedName: string },
): Promise<PlanOfferView> {
  await requireClientToken(app.tokens, OFFER_LINK, id, sign.token);
  const business = await app.settings.current();
  const today = await app.settings.today();
  return app.db.transaction(async (tx) => {
    const offer = await offerOf(tx, id, true);
    if (offer.state === 'Signed') throw conflict('This plan is signed already', 'CONFLICT');
    if (offer.state !== 'Offered') throw conflict('This plan is no longer offered: please call us', 'CONFLICT');
    if (offer.rule.until! < today) throw conflict('This plan’s dates have passed: please call us', 'CONFLICT');
    const client = await clientOf(tx, offer.clientId);
    if (!client) throw notFound('This plan could not be found');
    const jobId = await createJobForServicePlan(tx, {
      clientId: client.id,
      serviceAddressId: offer.serviceAddressId,
      contact: { name: client.name, email: client.email, phone: client.phone },
      address: offer.address,
      notes: [`Service plan: ${offer.name}`, offer.included].filter(Boolean).join('\n'),
    });
    const job = (await findJobById(tx, jobId))!;
    const plan = await startPlanIn(app, tx, {
      business,
      job,
      body: {
        rule: offer.rule,
        workerIds: [],
        notes: '',
        clientNote: '',
        // The whole term on the calendar (and on the client's page) at once, up to a year.
        horizonWeeks: Math.min(52, Math.ceil((offer.termMonths * 52) / 12)),
        billing: offer.billing,
        price: toDollars(offer.priceCents),
        taxable: offer.taxable,
      },
      workerIds: [],
      today,
      offerId: offer.id,
    });
    const [signed] = await tx
      .update(planOffers)
      .set({ state: 'Signed', signedName: sign.signedName, signedAt: new Date(), jobId, planId: plan._id })
      .where(eq(planOffers.id, id))
      .returning();
    await enqueueMail(
      tx,
      signedMail(business, signed!, client.name, `${app.config.PUBLIC_URL}${paths.admin.job(jobId)}`),
    );
    return offerView(signed!, client.name, false);
  });
}

/**
 * A client's service plans for their own page (decision 036): those offered and not yet signed, and
 * those signed, newest first, each with a fresh link to read it (and sign it, while offered). Withdrawn
 * offers are not listed. `readOnly` (staff looking at the page as the client sees it): no link to sign.
 */
export async function plansOfClientPage(
  app: FastifyInstance,
  clientId: string,
  today: string,
  readOnly: boolean,
): Promise<ClientPagePlan[]> {
  const rows = await app.db
    .select()
    .from(planOffers)
    .where(and(eq(planOffers.clientId, clientId), inArray(planOffers.state, ['Offered', 'Signed'])))
    .orderBy(desc(planOffers.createdAt), desc(planOffers.id));
  return Promise.all(
    rows.map(async (row) => {
      const until = row.rule.until!;
      const state =
        row.state === 'Signed' ? (until < today ? 'ended' : 'signed') : until < today ? 'lapsed' : 'offered';
      const readable = !(readOnly && state === 'offered') && state !== 'lapsed';
      return {
        id: row.id,
        name: row.name,
        schedule: describeRecurrence(row.rule),
        price: priceWords(row),
        address: addressLine(row.address),
        state,
        signedAt: row.signedAt ? row.signedAt.toISOString() : null,
        href: readable
          ? paths.servicePlanOffer(row.id, await app.tokens.signScoped(OFFER_LINK, row.id, OFFER_LINK_SECONDS))
          : null,
      } satisfies ClientPagePlan;
    }),
  );
}

/** The office withdraws an offer not yet signed: its link then says so. */
export async function withdrawOffer(db: DbOrTx, id: string): Promise<void> {
  const [row] = await db
    .update(planOffers)
    .set({ state: 'Withdrawn' })
    .where(and(eq(planOffers.id, id), eq(planOffers.state, 'Offered')))
    .returning();
  if (!row) {
    await offerOf(db, id);
    throw conflict('Only an offer not yet signed can be withdrawn', 'CONFLICT');
  }
}

/**
 * The renewal reminders (the horizon job's turn): each signed plan still running whose last visit is
 * within 30 days, once: the client is asked whether to go on, the owner told.
 */
export async function remindRenewals(app: FastifyInstance, today: string): Promise<number> {
  const business = await app.settings.current();
  const due = await app.db
    .select({ plan: visitPlans, offer: planOffers })
    .from(visitPlans)
    .innerJoin(planOffers, eq(planOffers.id, visitPlans.offerId))
    .where(
      and(
        isNotNull(visitPlans.offerId),
        isNull(visitPlans.endedAt),
        isNull(visitPlans.renewalRemindedAt),
        lte(sql`(${visitPlans.rule}->>'until')::date`, sql`${addDays(today, RENEWAL_NOTICE_DAYS)}::date`),
      ),
    );
  let sent = 0;
  for (const { plan, offer } of due) {
    await app.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(visitPlans)
        .set({ renewalRemindedAt: new Date() })
        .where(and(eq(visitPlans.id, plan.id), isNull(visitPlans.renewalRemindedAt)))
        .returning();
      if (!claimed) return;
      const job = await findJobById(tx, plan.jobId);
      if (!job || job.status === 'Cancelled' || job.status === 'Completed') return;
      const last = occurrencesBetween(plan.rule, today, plan.rule.until!).at(-1) ?? plan.rule.until!;
      if (job.contactEmail) await enqueueMail(tx, toClient(renewalMail(business, job.contactEmail, offer, last)));
      await enqueueMail(tx, renewalNotice(business, offer, job.contactName, last));
      sent += 1;
    });
  }
  return sent;
}

function offerMail(business: BusinessSettings, to: string, offer: OfferRow, link: string) {
  const { html, text } = composeEmail({
    business,
    heading: `Your ${offer.name} plan`,
    blocks: [
      {
        kind: 'paragraph',
        text: `Here is the ${offer.name} plan we talked about. Read what it includes and sign it on the page below: we then book its visits and remind you before each one.`,
      },
      {
        kind: 'details',
        rows: [
          ['Visits', describeRecurrence(offer.rule)],
          ['Price', priceWords(offer)],
          ['Where', addressLine(offer.address)],
        ],
      },
      { kind: 'button', label: 'Read and sign the plan', href: link },
      { kind: 'paragraph', text: `Questions? Reply to this e-mail or call us at ${business.phone}.` },
    ],
  });
  return { to, subject: `Your ${offer.name} plan from ${business.name}`, html, text };
}

function signedMail(business: BusinessSettings, offer: OfferRow, clientName: string, jobLink: string) {
  const { html, text } = composeEmail({
    business,
    heading: `${clientName} signed the ${offer.name} plan`,
    blocks: [
      {
        kind: 'paragraph',
        text: `${offer.signedName} signed it on their page. Its visits are booked ahead on the calendar without a crew yet: choose who goes on the job's page.`,
      },
      {
        kind: 'details',
        rows: [
          ['Visits', describeRecurrence(offer.rule)],
          ['Price', priceWords(offer)],
          ['Where', addressLine(offer.address)],
        ],
      },
      { kind: 'button', label: 'Open the job', href: jobLink },
    ],
  });
  return { to: business.ownerEmail, subject: `Plan signed: ${offer.name} for ${clientName}`, html, text };
}

function renewalMail(business: BusinessSettings, to: string, offer: OfferRow, last: string) {
  const { html, text } = composeEmail({
    business,
    heading: `Your ${offer.name} plan ends soon`,
    blocks: [
      {
        kind: 'paragraph',
        text: `Your ${offer.name} plan's last visit is on ${formatLongDate(last)}. Would you like it to go on for another ${offer.termMonths === 12 ? 'year' : offer.termMonths === 1 ? 'month' : `${offer.termMonths} months`}? Reply to this e-mail or call us at ${business.phone}, and we will send you the plan to sign again.`,
      },
    ],
  });
  return { to, subject: `Your ${offer.name} plan ends ${formatLongDate(last)}`, html, text };
}

function renewalNotice(business: BusinessSettings, offer: OfferRow, clientName: string, last: string) {
  const { html, text } = composeEmail({
    business,
    heading: `${clientName}'s ${offer.name} plan ends soon`,
    blocks: [
      {
        kind: 'paragraph',
        text: `Its last visit is on ${formatLongDate(last)}. ${clientName} was asked whether to go on: offer the plan again from their page to renew it.`,
      },
    ],
  });
  return {
    to: business.ownerEmail,
    subject: `Renewal: ${clientName}'s ${offer.name} plan ends ${formatLongDate(last)}`,
    html,
    text,
  };
}
