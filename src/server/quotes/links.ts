import type { FastifyInstance } from 'fastify';
import { paths } from '#shared/paths';
import { requireClientToken } from '../lib/signed-links';

const PURPOSE = 'client-quote';

/**
 * How long after the valid-until date a client's link still opens the quote: long enough to read
 * it, see that it expired and ask for an updated one.
 */
export const LINK_GRACE_DAYS = 60;

/** The token in a client's quote link: signed, for this one quote version, until its grace period ends. */
export function signClientLink(app: FastifyInstance, quoteId: string, validUntil: string): Promise<string> {
  const end = Date.parse(`${validUntil}T23:59:59Z`) + LINK_GRACE_DAYS * 86_400_000;
  const seconds = Math.max(3600, Math.ceil((end - Date.now()) / 1000));
  return app.tokens.signScoped(PURPOSE, quoteId, seconds);
}

/** The whole address of a client's quote page, signed. */
export async function clientQuoteLink(app: FastifyInstance, quoteId: string, validUntil: string): Promise<string> {
  const token = await signClientLink(app, quoteId, validUntil);
  return `${app.config.PUBLIC_URL}${paths.clientQuote(quoteId, token)}`;
}

/** Throws unless the token opens this quote version (410 expired, 403 otherwise). */
export const checkClientLink = (app: FastifyInstance, quoteId: string, token: string | undefined) =>
  requireClientToken(app.tokens, PURPOSE, quoteId, token);

/** The client's quote PDF (signed once accepted), by the same token as their page. */
export const clientQuotePdfPath = (quoteId: string, token: string) =>
  `/api/client-quotes/${encodeURIComponent(quoteId)}/pdf?token=${encodeURIComponent(token)}`;

/** The client's quote page and its PDF, signed by one token (the client's own page links both). */
export async function clientQuotePaths(
  app: FastifyInstance,
  quoteId: string,
  validUntil: string,
): Promise<{ page: string; pdf: string }> {
  const token = await signClientLink(app, quoteId, validUntil);
  return { page: paths.clientQuote(quoteId, token), pdf: clientQuotePdfPath(quoteId, token) };
}
