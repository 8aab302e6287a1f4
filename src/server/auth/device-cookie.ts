import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A browser that signed in successfully keeps a signed cookie naming the account and the device
 * (OWASP's device cookies): its sign-ins to that account are counted on their own, so nobody
 * guessing elsewhere can keep it out. Only sent to the sign-in route; unreadable by scripts.
 */
const NAME = 'hm_device';
const PURPOSE = 'sign-in-device';
const DAYS = 180;

function cookieValue(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === NAME) return value.join('=');
  }
  return undefined;
}

/** The device's id when the request carries a valid cookie signed for `userId`; null otherwise. */
export async function trustedDeviceOf(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: string | undefined,
): Promise<string | null> {
  const value = cookieValue(request);
  if (!value || !userId || value.length > 1000) return null;
  const verified = await app.tokens.verifyScoped(PURPOSE, value);
  if (!('subject' in verified)) return null;
  const [owner, device] = verified.subject.split('.');
  return owner === userId && device ? device : null;
}

/** After a successful sign-in: the cookie for this account (the same device id when it had one). */
export async function rememberDevice(
  app: FastifyInstance,
  reply: FastifyReply,
  userId: string,
  device: string | null,
): Promise<void> {
  const id = device ?? randomBytes(12).toString('base64url');
  const value = await app.tokens.signScoped(PURPOSE, `${userId}.${id}`, DAYS * 86_400);
  const secure = app.config.PUBLIC_URL.startsWith('https:') ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${NAME}=${value}; Path=/api/login; Max-Age=${DAYS * 86_400}; HttpOnly; SameSite=Strict${secure}`,
  );
}
