import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { PAST_DATE_MESSAGE, type EstimatePick, type quoteRequestInput } from '#shared/schemas/quote-request';
import { todayIn } from '#shared/dates';
import type { BusinessSettings } from '../lib/business';
import type { Db, Tx } from '../db/client';
import { recordActivity } from '../activity';
import { clientOf as findClientOf, matchClient, serviceAddressOf } from '../clients';
import { badRequest, conflict, notFound } from '../lib/http-errors';
import type { ProcessedImage } from '../lib/images';
import { enqueueMail, toClient } from '../mail';
import {
  newQuoteRequestNotice,
  quoteRequestAcceptedMail,
  quoteRequestDeclinedMail,
  quoteRequestThankYou,
} from './emails';
import { emitWebhook } from '../webhooks';
import { findQuoteRequestById, insertQuoteRequest, transitionQuoteRequest, type QuoteRequestRow } from './repository';

type RequestBody = Omit<z.output<typeof quoteRequestInput>, 'images'>;

/** A preferred end date already past where the business is (the Settings' zone) is refused, as the form does. */
function checkPreferredEndDate(body: RequestBody, business: BusinessSettings): void {
  if (body.preferredEndDate && body.preferredEndDate < todayIn(business.timeZone))
    throw badRequest(`preferredEndDate: ${PAST_DATE_MESSAGE}`, 'VALIDATION_FAILED');
}

/**
 * Stores a request with its photos, attached to its client (matched by e-mail, by phone when none was
 * given, or new). A phoned-in request without an e-mail takes the one on file for that client, if any.
 */
async function storeRequest(tx: Tx, body: RequestBody, images: ProcessedImage[], chosen?: ChosenPlace) {
  const place = chosen ? await chosenPlace(tx, chosen) : undefined;
  const client = place ?? (await matchClient(tx, body.contactPerson, body.address));
  const created = await insertQuoteRequest(
    tx,
    {
      contactName: body.contactPerson.name,
      contactEmail: body.contactPerson.email || client.email,
      contactPhone: body.contactPerson.phone,
      ...(place?.address ?? body.address),
      notes: body.notes,
      preferredEndDate: body.preferredEndDate,
      clientId: client.id,
      serviceAddressId: client.serviceAddressId,
    },
    images,
  );
  await emitWebhook(tx, 'request.created', {
    quoteRequestId: created.id,
    quoteNumber: created.quoteNumber,
    name: created.contactName,
    email: created.contactEmail,
    phone: created.contactPhone,
    address: { street: created.street, city: created.city, state: created.state, zip: created.zip },
    notes: created.notes,
    photos: images.length,
  });
  return created;
}

/** An existing client and one of their service addresses, chosen by the office (decision 037). */
export interface ChosenPlace {
  clientId: string;
  serviceAddressId: string;
}

async function chosenPlace(tx: Tx, chosen: ChosenPlace) {
  const client = await findClientOf(tx, chosen.clientId);
  if (!client) throw notFound('Client not found');
  const address = await serviceAddressOf(tx, chosen.clientId, chosen.serviceAddressId);
  if (!address) throw badRequest('serviceAddressId: not one of this client’s service addresses', 'VALIDATION_FAILED');
  return {
    id: client.id,
    email: client.email,
    serviceAddressId: address.id,
    address: { street: address.street, city: address.city, state: address.state, zip: address.zip },
  };
}

/** A visitor's request, its photos and the two e-mails it causes, stored together or not at all. */
/**
 * Books the estimate visit a visitor picked, in the request's transaction (issue 31): given by the
 * app, since visits build on requests. Answers the window as the client's messages read it, and
 * whether it waits for the office's approval; throws to refuse (and the request is not stored either).
 */
export type BookEstimate = (tx: Tx, request: QuoteRequestRow, pick: EstimatePick) => Promise<BookedEstimate>;

/** The window as the client's messages read it, and whether it waits for the office's approval. */
export interface BookedEstimate {
  when: string;
  awaitingApproval: boolean;
}

export async function submitQuoteRequest(
  app: FastifyInstance,
  body: z.output<typeof quoteRequestInput>,
  images: ProcessedImage[],
  bookEstimate?: BookEstimate,
): Promise<QuoteRequestRow> {
  const { db, config } = app;
  const business = await app.settings.current();
  checkPreferredEndDate(body, business);
  if (body.estimate && !bookEstimate) throw badRequest('estimate: visits are not booked online');
  return db.transaction(async (tx) => {
    const created = await storeRequest(tx, body, images);
    const mailId = await enqueueMail(tx, toClient(quoteRequestThankYou(config, business, created)));
    await recordActivity(tx, { quoteRequestId: created.id, kind: 'request-created', actor: 'client', mailId });
    // The visit's own e-mail (with its .ics) follows the thank-you; the owner's notice names it.
    const estimate = body.estimate && bookEstimate ? await bookEstimate(tx, created, body.estimate) : undefined;
    if (estimate)
      await recordActivity(tx, {
        quoteRequestId: created.id,
        kind: 'estimate-booked',
        actor: 'client',
        details: { when: estimate.when, awaitingApproval: estimate.awaitingApproval },
      });
    await enqueueMail(tx, newQuoteRequestNotice(config, business, created, images.length, estimate));
    return created;
  });
}

/**
 * A request the office enters for a client who phoned: the same checks, photos optional, and the
 * client's confirmation e-mail only when asked for (no owner notice: the office is the owner's). The
 * office took it on by answering the phone: it is Accepted at once, for the Quote Builder, without the
 * "a quote is being prepared" e-mail (issue 28.10): the quote itself is the next thing the client gets.
 */
export async function enterQuoteRequest(
  app: FastifyInstance,
  body: RequestBody,
  images: ProcessedImage[],
  options: { emailClient: boolean; userId: string | undefined; chosen?: ChosenPlace | undefined },
): Promise<QuoteRequestRow> {
  const { db, config } = app;
  const business = await app.settings.current();
  checkPreferredEndDate(body, business);
  return db.transaction(async (tx) => {
    const created = await storeRequest(tx, body, images, options.chosen);
    const mailId = options.emailClient
      ? await enqueueMail(tx, toClient(quoteRequestThankYou(config, business, created)))
      : null;
    await recordActivity(tx, {
      quoteRequestId: created.id,
      kind: 'request-created',
      actor: 'staff',
      userId: options.userId,
      details: { enteredBy: 'office' },
      mailId,
    });
    const accepted = await transitionQuoteRequest(tx, created.id, 'Pending', 'Accepted');
    await recordActivity(tx, {
      quoteRequestId: created.id,
      kind: 'request-accepted',
      actor: 'staff',
      userId: options.userId,
      details: { enteredBy: 'office' },
    });
    return accepted ?? created;
  });
}

async function notPending(db: Db, id: string) {
  const current = await findQuoteRequestById(db, id);
  return current
    ? conflict(
        `This request is ${current.status}: only a Pending request can be accepted or declined`,
        'REQUEST_NOT_PENDING',
      )
    : notFound('Quote request not found');
}

/** The owner takes a Pending request on; the client is told a quote is coming. */
export async function acceptQuoteRequest(app: FastifyInstance, id: string, userId?: string): Promise<QuoteRequestRow> {
  const { db, config } = app;
  const business = await app.settings.current();
  const row = await db.transaction(async (tx) => {
    const accepted = await transitionQuoteRequest(tx, id, 'Pending', 'Accepted');
    if (accepted) {
      const mailId = await enqueueMail(tx, toClient(quoteRequestAcceptedMail(config, business, accepted)));
      await recordActivity(tx, { quoteRequestId: id, kind: 'request-accepted', actor: 'staff', userId, mailId });
    }
    return accepted;
  });
  if (!row) throw await notPending(db, id);
  return row;
}

/** What else a decline does, in its transaction (the visits feature calls off the request's estimate visits). */
export type DeclineStep = (tx: Tx, business: BusinessSettings, quoteRequestId: string) => Promise<void>;

/**
 * The owner declines a Pending request; the reason goes to the address the client gave, never to one
 * in the body. An estimate visit booked with it is called off (`declinedStep`).
 */
export async function declineQuoteRequest(
  app: FastifyInstance,
  id: string,
  reason: string,
  userId?: string,
  declinedStep?: DeclineStep,
): Promise<QuoteRequestRow> {
  const { db, config } = app;
  const business = await app.settings.current();
  const row = await db.transaction(async (tx) => {
    const declined = await transitionQuoteRequest(tx, id, 'Pending', 'Declined', { declineReason: reason });
    if (declined) {
      const mailId = await enqueueMail(tx, toClient(quoteRequestDeclinedMail(config, business, declined, reason)));
      await recordActivity(tx, {
        quoteRequestId: id,
        kind: 'request-declined',
        actor: 'staff',
        userId,
        message: reason,
        mailId,
      });
      await declinedStep?.(tx, business, id);
    }
    return declined;
  });
  if (!row) throw await notPending(db, id);
  return row;
}
