import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { contactInput } from '#shared/schemas/contact';
import { newId } from '../db/ids';
import { contactMessages } from './tables';
import { composeEmail, enqueueMail } from '../mail';

/** A visitor's message and the owner's notice of it, stored together; returns the message's id. */
export async function storeContactMessage(app: FastifyInstance, m: z.output<typeof contactInput>): Promise<string> {
  const db = app.db;
  const business = await app.settings.current();
  const name = `${m.firstName} ${m.lastName}`;
  const { html, text } = composeEmail({
    business,
    heading: `New message from ${name}`,
    blocks: [
      {
        kind: 'details',
        rows: [
          ['Name', name],
          ['E-mail', m.email],
          ['Phone', m.phone || 'Not provided'],
        ],
      },
      { kind: 'preformatted', text: m.message },
    ],
  });
  const id = newId();
  await db.transaction(async (tx) => {
    await tx.insert(contactMessages).values({ id, ...m });
    await enqueueMail(tx, {
      to: business.ownerEmail,
      replyTo: m.email,
      subject: `Contact request from ${name}`,
      html,
      text,
    });
  });
  return id;
}
