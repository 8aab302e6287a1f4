import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTokenService } from '../../src/server/lib/tokens';

const keyOf = (text: string) => new TextEncoder().encode(text.padEnd(32, '.'));

// Secrets the database keeps for the install (calendar-feed addresses) are sealed with the install's key
// and found by a keyed fingerprint: the database alone, as a backup holds it, reveals none (decision 024).
describe('sealed secrets', () => {
  const mine = createTokenService(keyOf('this install'), 1);
  const other = createTokenService(keyOf('another install'), 1);

  it('what is sealed unseals with the same key and use, and with nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (secret) => {
        const sealed = mine.seal('calendar-feed', secret);
        // The plain secret's own encoding is not in what is kept. Only meaningful from 12 bytes: a
        // shorter encoding turns up by chance in 40 random characters (a one-character secret did).
        if (Buffer.byteLength(secret) >= 12) expect(sealed).not.toContain(Buffer.from(secret).toString('base64url'));
        expect(mine.unseal('calendar-feed', sealed)).toBe(secret);
        expect(mine.unseal('another-use', sealed)).toBeNull();
        expect(other.unseal('calendar-feed', sealed)).toBeNull();
      }),
    );
  });

  it('an altered or cut sealed value is refused, not misread', () => {
    const sealed = Buffer.from(mine.seal('calendar-feed', 'a feed token'), 'base64url');
    for (let i = 0; i < sealed.length; i++) {
      const altered = Buffer.from(sealed);
      altered[i] = altered[i]! ^ 1;
      expect(mine.unseal('calendar-feed', altered.toString('base64url'))).toBeNull();
    }
    expect(mine.unseal('calendar-feed', sealed.subarray(0, 27).toString('base64url'))).toBeNull();
    expect(mine.unseal('calendar-feed', '')).toBeNull();
  });

  it('the fingerprint is the same for the same secret, and differs by key and by use', () => {
    expect(mine.digest('calendar-feed', 'x')).toBe(mine.digest('calendar-feed', 'x'));
    expect(mine.digest('calendar-feed', 'x')).not.toBe(other.digest('calendar-feed', 'x'));
    expect(mine.digest('calendar-feed', 'x')).not.toBe(mine.digest('another-use', 'x'));
    expect(mine.digest('calendar-feed', 'x')).not.toBe(mine.digest('calendar-feed', 'y'));
  });
});
