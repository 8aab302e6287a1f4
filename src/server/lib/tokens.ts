import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, createHmac, randomBytes, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

const ALGORITHM = 'HS256';

export interface TokenClaims {
  /** The user's id. */
  sub: string;
  /** The user's token version when the token was issued. */
  ver: number;
  /** The session this sign-in started (sessions.ts); signing out ends it. */
  sid: string;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  verify(token: string): Promise<TokenClaims | null>;
  /** Signs any purpose-scoped payload (e.g. a client's quote link) with the same key. */
  signScoped(
    purpose: string,
    subject: string,
    ttlSeconds: number,
    options?: { deterministic?: boolean; expiresAt?: number },
  ): Promise<string>;
  verifyScoped(purpose: string, token: string): Promise<{ subject: string } | { error: 'expired' | 'invalid' }>;
  /** A keyed fingerprint of a secret (HMAC-SHA256): to find it by without storing it. */
  digest(purpose: string, value: string): string;
  /** A secret encrypted with the install's key (AES-256-GCM), so that the database alone does not reveal it. */
  seal(purpose: string, value: string): string;
  /** What `seal` sealed; null when it was sealed by another key (a backup restored on another install) or altered. */
  unseal(purpose: string, sealed: string): string | null;
}

/** JWT_SECRET when set; otherwise a key generated once and kept in DATA_DIR. */
export function loadSigningKey(secret: string | undefined, dataDir: string): Uint8Array {
  if (secret) return new TextEncoder().encode(secret);
  const file = path.join(dataDir, 'secrets', 'jwt-secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}

export function createTokenService(secret: Uint8Array, ttlHours: number): TokenService {
  // A Web Crypto key, imported once: given a KeyObject or bytes, jose imports the key again on every
  // signature and every check, a twelfth of a signed-in request's time (decision 006, session 45).
  const cryptoKey = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  // No handler here on purpose: a key that cannot be imported (an empty key file) stops the process at
  // start-up, loudly, rather than refusing every sign-in without a word.

  // Staff tokens whose signature checked out, with their claims, until they expire: a screen makes
  // several calls with one token, and Web Crypto's check was a twentieth of each call (decision 006,
  // session 45). Only a token that verified is kept, so a stranger's tokens take no room; whether its
  // session and user still stand is read from the database on every call, as before.
  const checked = new LRUCache<string, TokenClaims & { exp: number }>({ max: 5000 });
  // One key per use, derived from the install's key, so a value made for one use is worth nothing in another.
  const subkey = (use: string) => createHmac('sha256', secret).update(use).digest();
  return {
    sign: async (claims) =>
      new SignJWT({ ver: claims.ver, sid: claims.sid })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.sub)
        .setAudience('staff')
        .setIssuedAt()
        .setExpirationTime(`${ttlHours}h`)
        .sign(await cryptoKey),
    async verify(token) {
      const known = checked.get(token);
      if (known) {
        // Expired as jose counts it: at the second of `exp`.
        if (known.exp > Math.floor(Date.now() / 1000)) return { sub: known.sub, ver: known.ver, sid: known.sid };
        checked.delete(token);
        return null;
      }
      try {
        // A token without an expiry is refused: every token we issue has one.
        const { payload } = await jwtVerify(token, await cryptoKey, {
          algorithms: [ALGORITHM],
          audience: 'staff',
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number' || typeof payload.sid !== 'string')
          return null;
        const claims = { sub: payload.sub, ver: payload.ver, sid: payload.sid };
        checked.set(token, { ...claims, exp: payload.exp! });
        return claims;
      } catch {
        return null;
      }
    },
    async signScoped(purpose, subject, ttlSeconds, options = {}) {
      const jwt = new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(subject)
        .setAudience(purpose);
      // Without an issue time, the same subject and expiry always give the same token.
      if (!options.deterministic) jwt.setIssuedAt();
      return jwt
        .setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(await cryptoKey);
    },
    async verifyScoped(purpose, token) {
      try {
        const { payload } = await jwtVerify(token, await cryptoKey, {
          algorithms: [ALGORITHM],
          audience: purpose,
          requiredClaims: ['exp'],
        });
        return typeof payload.sub === 'string' ? { subject: payload.sub } : { error: 'invalid' };
      } catch (error) {
        return { error: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
      }
    },
    digest: (purpose, value) =>
      createHmac('sha256', subkey(`digest:${purpose}`))
        .update(value)
        .digest('base64url'),
    seal(purpose, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', subkey(`seal:${purpose}`), iv);
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    unseal(purpose, sealed) {
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length < 28) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', subkey(`seal:${purpose}`), bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
