import type { FastifyInstance } from 'fastify';

const PURPOSE = 'client-quote';

/** The token in a client's quote link: signed, for this one quote, expiring after the quote validity days. */
export function signClientLink(app: FastifyInstance, quoteId: string, validDays: number): Promise<string> {
  return app.tokens.signScoped(PURPOSE, quoteId, validDays * 24 * 3600);
}

/** 'ok', or why the link cannot be used for this quote. */
export async function checkClientLink(
  app: FastifyInstance,
  quoteId: string,
  token: string | undefined,
): Promise<'ok' | 'expired' | 'invalid'> {
  if (!token) return 'invalid';
  const result = await app.tokens.verifyScoped(PURPOSE, token);
  if ('error' in result) return result.error;
  return result.subject === quoteId ? 'ok' : 'invalid';
}
