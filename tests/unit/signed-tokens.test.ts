import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { createTokenService } from '../../src/server/lib/tokens';

const secret = new TextEncoder().encode('the install key, 32 characters..');
const claims = { sub: 'user-1', ver: 3, sid: 'session-1' };

describe('signed tokens', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a staff token checks out as the claims it was signed with, and a changed one does not', async () => {
    const tokens = createTokenService(secret, 1);
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'owner', aud: 'staff', exp: 9e9 })).toString(
      'base64url',
    );
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    // One character of the signature changed (in the middle: its last one carries padding bits).
    const middle = Math.floor(signature!.length / 2);
    const altered = `${signature!.slice(0, middle)}${signature![middle] === 'A' ? 'B' : 'A'}${signature!.slice(middle + 1)}`;
    expect(await tokens.verify(`${header}.${payload}.${altered}`)).toBeNull();
    expect(
      await createTokenService(new TextEncoder().encode('another install key, 32 chars..'), 1).verify(token),
    ).toBeNull();
  });

  it('a token for one use is refused for another, and an expired one says so', async () => {
    const tokens = createTokenService(secret, 1);
    const link = await tokens.signScoped('client-page', 'client-9', 60);
    expect(await tokens.verifyScoped('client-page', link)).toEqual({ subject: 'client-9' });
    expect(await tokens.verifyScoped('quote', link)).toEqual({ error: 'invalid' });
    expect(await tokens.verify(link)).toBeNull();
    const expired = await tokens.signScoped('client-page', 'client-9', 60, {
      expiresAt: Math.floor(Date.now() / 1000) - 5,
    });
    expect(await tokens.verifyScoped('client-page', expired)).toEqual({ error: 'expired' });
  });

  it('a token without an expiry, or signed with another algorithm, is refused', async () => {
    const tokens = createTokenService(secret, 1);
    const noExpiry = await new SignJWT({ ver: 3, sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-1')
      .setAudience('staff')
      .sign(secret);
    expect(await tokens.verify(noExpiry)).toBeNull();
    const hs512 = await new SignJWT({ ver: 3, sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('user-1')
      .setAudience('staff')
      .setExpirationTime('1h')
      .sign(secret);
    expect(await tokens.verify(hs512)).toBeNull();
  });

  // Given bytes or a KeyObject, jose imported the key into Web Crypto on every check: a twelfth of a
  // signed-in request's time (decision 006, session 45). The key is imported once per service.
  it('checks hundreds of tokens with the key imported once', async () => {
    const importKey = vi.spyOn(webcrypto.subtle, 'importKey');
    const tokens = createTokenService(secret, 1);
    const token = await tokens.sign(claims);
    const link = await tokens.signScoped('client-page', 'client-9', 60);
    for (let i = 0; i < 200; i++) {
      expect(await tokens.verify(token)).toEqual(claims);
      expect(await tokens.verifyScoped('client-page', link)).toEqual({ subject: 'client-9' });
    }
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  // A staff screen makes several calls a second with one token: its signature is checked once, and the
  // token still stops working at its expiry (decision 006, session 45).
  it("checks a staff token's signature once, and refuses it once it expires", async () => {
    const verify = vi.spyOn(webcrypto.subtle, 'verify');
    const tokens = createTokenService(secret, 1);
    const token = await tokens.sign(claims);
    for (let i = 0; i < 100; i++) expect(await tokens.verify(token)).toEqual(claims);
    expect(verify).toHaveBeenCalledTimes(1);
    // Another token (another session) is checked on its own.
    const other = await tokens.sign({ ...claims, sid: 'session-2' });
    expect(await tokens.verify(other)).toEqual({ ...claims, sid: 'session-2' });
    expect(verify).toHaveBeenCalledTimes(2);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
    try {
      expect(await tokens.verify(token)).toBeNull();
      expect(await tokens.verify(other)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
