import type { z } from 'zod';
import type { quoteRequestInput } from '../../shared/schemas/quote-request';
import type { Config } from '../config';
import type { BusinessSettings } from '../lib/business';
import type { Db } from '../db/client';
import { conflict, notFound } from '../lib/http-errors';
import type { ProcessedImage } from '../lib/images';
import { enqueueMail } from '../mail';
import {
  newQuoteRequestNotice,
  quoteRequestAcceptedMail,
  quoteRequestDeclinedMail,
  quoteRequestThankYou,
} from './emails';
import { findQuoteRequestById, insertQuoteRequest, transitionQuoteRequest, type QuoteRequestRow } from './repository';

/** A visitor's request, its photos and the two e-mails it causes, stored together or not at all. */
export async function submitQuoteRequest(
  db: Db,
  config: Config,
  business: BusinessSettings,
  body: z.output<typeof quoteRequestInput>,
  images: ProcessedImage[],
): Promise<QuoteRequestRow> {
  return db.transaction(async (tx) => {
    const created = await insertQuoteRequest(
      tx,
      {
        contactName: body.contactPerson.name,
        contactEmail: body.contactPerson.email,
        contactPhone: body.contactPerson.phone,
        ...body.address,
        notes: body.notes,
        preferredEndDate: body.preferredEndDate,
      },
      images,
    );
    await enqueueMail(tx, quoteRequestThankYou(config, business, created));
    await enqueueMail(tx, newQuoteRequestNotice(config, business, created, images.length));
    return created;
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
export async function acceptQuoteRequest(
  db: Db,
  config: Config,
  business: BusinessSettings,
  id: string,
): Promise<QuoteRequestRow> {
  const row = await db.transaction(async (tx) => {
    const accepted = await transitionQuoteRequest(tx, id, 'Pending', 'Accepted');
    if (accepted) await enqueueMail(tx, quoteRequestAcceptedMail(config, business, accepted));
    return accepted;
  });
  if (!row) throw await notPending(db, id);
  return row;
}

/** The owner declines a Pending request; the reason goes to the address the client gave, never to one in the body. */
export async function declineQuoteRequest(
  db: Db,
  config: Config,
  business: BusinessSettings,
  id: string,
  reason: string,
): Promise<QuoteRequestRow> {
  const row = await db.transaction(async (tx) => {
    const declined = await transitionQuoteRequest(tx, id, 'Pending', 'Declined', { declineReason: reason });
    if (declined) await enqueueMail(tx, quoteRequestDeclinedMail(config, business, declined, reason));
    return declined;
  });
  if (!row) throw await notPending(db, id);
  return row;
}
