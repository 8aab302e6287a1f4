import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header that carries a delivery's signature (decision 044). */
export const SIGNATURE_HEADER = 'x-handyman-signature';

/** A new webhook's signing secret: 32 random bytes, `whsec_` and base64url. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`: the receiver computes the
 * same over the raw body and the t it was given, compares in constant time, and refuses an old t.
 */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** What a receiver does (README's example, and the tests' receiver): true when the body is ours and fresh. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  { toleranceSeconds = 300, now = Date.now() } = {},
): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return false;
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureHeader(secret, timestamp, body).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
