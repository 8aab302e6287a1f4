import fs from 'node:fs';
import path from 'node:path';
import { createSecretKey, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

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
  // A KeyObject, so jose imports the key for Web Crypto once rather than on every signature.
  const key = createSecretKey(secret);
  return {
    sign: (claims) =>
      new SignJWT({ ver: claims.ver, sid: claims.sid })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(claims.sub)
        .setAudience('staff')
        .setIssuedAt()
        .setExpirationTime(`${ttlHours}h`)
        .sign(key),
    async verify(token) {
      try {
        // A token without an expiry is refused: every token we issue has one.
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          audience: 'staff',
          requiredClaims: ['exp', 'sub'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number' || typeof payload.sid !== 'string')
          return null;
        return { sub: payload.sub, ver: payload.ver, sid: payload.sid };
      } catch {
        return null;
      }
    },
    signScoped(purpose, subject, ttlSeconds, options = {}) {
      const jwt = new SignJWT({})
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(subject)
        .setAudience(purpose);
      // Without an issue time, the same subject and expiry always give the same token.
      if (!options.deterministic) jwt.setIssuedAt();
      return jwt.setExpirationTime(options.expiresAt ?? Math.floor(Date.now() / 1000) + ttlSeconds).sign(key);
    },
    async verifyScoped(purpose, token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          audience: purpose,
          requiredClaims: ['exp'],
        });
        return typeof payload.sub === 'string' ? { subject: payload.sub } : { error: 'invalid' };
      } catch (error) {
        return { error: (error as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'expired' : 'invalid' };
      }
    },
  };
}
