import { HttpError } from './http-errors';
import type { TokenService } from './tokens';

const BUCKET_SECONDS = 600;

/**
 * An <img> or a download link cannot send the bearer token, so staff pages get addresses signed for
 * one file (a purpose and the file's id). The expiry is rounded to a 10-minute step, so the address
 * stays the same between refetches (the browser keeps its cached copy) and lives 10 to 20 minutes.
 */
export async function signedLink(tokens: TokenService, purpose: string, subject: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = (Math.floor(now / BUCKET_SECONDS) + 2) * BUCKET_SECONDS;
  return tokens.signScoped(purpose, subject, expiresAt - now, { deterministic: true, expiresAt });
}

/** Whether `sig` is a live signature of this purpose for this file. */
export async function verifySignedLink(
  tokens: TokenService,
  purpose: string,
  subject: string,
  sig: string | undefined,
): Promise<boolean> {
  if (!sig) return false;
  const result = await tokens.verifyScoped(purpose, sig);
  return 'subject' in result && result.subject === subject;
}

/**
 * A client's e-mailed link (a quote, an invoice): its token must be signed for this purpose and this
 * document. An expired one answers 410, any other failure 403, each with a message for the client.
 */
export async function requireClientToken(
  tokens: TokenService,
  purpose: string,
  subject: string,
  token: string | undefined,
): Promise<void> {
  const result = token ? await tokens.verifyScoped(purpose, token) : ({ error: 'invalid' } as const);
  if ('subject' in result && result.subject === subject) return;
  if ('error' in result && result.error === 'expired')
    throw new HttpError(
      410,
      'This link has expired. Please contact us and we will send you a new one.',
      'LINK_EXPIRED',
    );
  throw new HttpError(
    403,
    'This link is not valid. Please use the link in your e-mail, or contact us.',
    'LINK_INVALID',
  );
}
