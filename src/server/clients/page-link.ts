import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { clientPageMessages } from '#shared/schemas/client-page';
import { patterns } from '#shared/paths';
import { composeBlocks, composeEmail, enqueueMail } from '../mail';
import { HttpError } from '../lib/http-errors';
import { clients } from './tables';
import type { ClientRow } from './repository';

/** The signature's purpose: a token of another kind (a quote's, an invoice's) opens nothing here. */
const PURPOSE = 'client-page';
/** A link opens the page until this many days after the last e-mail that carried one. */
export const CLIENT_PAGE_LINK_DAYS = 60;
/**
 * The signature's own limit. The 60 days are counted from `clients.page_link_sent_at`, so that any
 * link of theirs works again once a newer e-mail carried one; this only bounds a token's life.
 */
const TOKEN_SECONDS = 3 * 365 * 86_400;
/** "E-mail me my link": at most this many per address typed, and per client, in the window. */
export const PAGE_LINK_MAILS_PER_ADDRESS = 3;
export const PAGE_LINK_MAILS_PER_CLIENT = 5;
export const PAGE_LINK_WINDOW_MS = 60 * 60_000;

/** The path of a client's page with a token signed for that client alone. */
export async function clientPagePath(app: FastifyInstance, clientId: string): Promise<string> {
  const token = await app.tokens.signScoped(PURPOSE, clientId, TOKEN_SECONDS);
  return `${patterns.clientPage.replace(':clientId', encodeURIComponent(clientId))}?token=${encodeURIComponent(token)}`;
}

/** A text carried the client's page link (decision 045): the page's 60 days start again, as for an e-mail. */
export async function notePageLinkSent(app: FastifyInstance, clientId: string): Promise<void> {
  await app.db
    .update(clients)
    .set({ pageLinkSentAt: sql`now()` })
    .where(eq(clients.id, clientId));
}

const expiresAt = (sentAt: Date) => new Date(sentAt.getTime() + CLIENT_PAGE_LINK_DAYS * 86_400_000);

/**
 * The block that links a client's e-mail to their page, for the relay as it sends a message to a
 * client: it notes the moment (the 60 days start again) and signs a link for the client whose
 * address it is. Null when the address is no client's.
 */
export async function clientPageBlock(
  app: FastifyInstance,
  to: string,
): Promise<{ html: string; text: string } | null> {
  const [row] = await app.db
    .update(clients)
    .set({ pageLinkSentAt: sql`now()` })
    .where(and(sql`lower(${clients.email}) = lower(${to.trim()})`, ne(clients.email, '')))
    .returning({ id: clients.id });
  if (!row) return null;
  const href = `${app.config.PUBLIC_URL}${await clientPagePath(app, row.id)}`;
  return composeBlocks([
    {
      kind: 'paragraph',
      text: `Your requests, quotes, visits, reports and invoices are all on your own page (this link works for ${CLIENT_PAGE_LINK_DAYS} days):`,
    },
    { kind: 'button', label: 'Open your page', href },
  ]);
}

/**
 * The client a page link opens, or an error for the client: 403 when the token is not signed for this
 * client (another client's, another kind of link, altered), 410 when the link's 60 days are over.
 */
export async function clientOfPageLink(
  app: FastifyInstance,
  clientId: string,
  token: string | undefined,
  options: { expiredToo?: boolean } = {},
): Promise<{ client: ClientRow; validUntil: Date }> {
  const verified = token ? await app.tokens.verifyScoped(PURPOSE, token) : ({ error: 'invalid' } as const);
  const client =
    'subject' in verified && verified.subject === clientId
      ? await app.db.query.clients.findFirst({ where: eq(clients.id, clientId) })
      : undefined;
  if (!client) throw new HttpError(403, clientPageMessages.linkInvalid, 'LINK_INVALID');
  const validUntil = expiresAt(client.pageLinkSentAt ?? new Date(0));
  if (!options.expiredToo && validUntil.getTime() <= Date.now())
    throw new HttpError(410, clientPageMessages.linkExpired, 'LINK_EXPIRED');
  return { client, validUntil };
}

/**
 * "E-mail me my link": the e-mail, to the address on file, whose footer the relay fills with the link
 * (`clientPageBlock`). Bounded per address typed (known or not) and per client; past either limit
 * nothing is sent, and the caller answers as if it had been.
 */
export async function sendPageLink(app: FastifyInstance, by: { email: string } | { client: ClientRow }): Promise<void> {
  const perAddress =
    'email' in by
      ? await app.counters.increment(
          `page-link:to:${app.tokens.digest('page-link', by.email.trim().toLowerCase())}`,
          PAGE_LINK_WINDOW_MS,
        )
      : 0;
  if (perAddress > PAGE_LINK_MAILS_PER_ADDRESS) return;
  const client =
    'client' in by
      ? by.client
      : await app.db.query.clients.findFirst({
          where: and(sql`lower(${clients.email}) = lower(${by.email.trim()})`, ne(clients.email, '')),
        });
  if (!client?.email) return;
  if ((await app.counters.increment(`page-link:client:${client.id}`, PAGE_LINK_WINDOW_MS)) > PAGE_LINK_MAILS_PER_CLIENT)
    return;
  const business = await app.settings.current();
  const { html, text } = composeEmail({
    business,
    heading: 'The link to your page',
    blocks: [
      { kind: 'paragraph', text: `Hi ${client.name},` },
      {
        kind: 'paragraph',
        text: 'You asked for the link to your page with us. It is below: open it to see your requests, quotes, visits, reports and invoices, or to ask us for new work.',
      },
      { kind: 'paragraph', text: 'If you did not ask for it, you can ignore this e-mail.' },
    ],
  });
  await enqueueMail(app.db, {
    to: client.email,
    subject: `Your page at ${business.name}`,
    html,
    text,
    clientPage: true,
  });
}
