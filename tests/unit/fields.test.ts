import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDate, isoInstant, signedName, trimInvisible } from '#shared/schemas/fields';

// Issue 25.8: one date schema, 2000-01-01 to 2100-12-31, for every date that comes in; a name that
// shows nothing signs nothing.
describe('isoDate and isoInstant', () => {
  it('takes the range’s ends and refuses what is outside it or not a date', () => {
    for (const ok of ['2000-01-01', '2026-11-24', '2100-12-31', '2096-02-29'])
      expect(isoDate.safeParse(ok).success).toBe(true);
    for (const bad of [
      '0000-01-01',
      '0001-01-01',
      '1999-12-31',
      '2101-01-01',
      '9999-12-31',
      '2026-02-30',
      '2026-1-1',
      '',
    ])
      expect(isoDate.safeParse(bad).success, bad).toBe(false);
    expect(isoDate.safeParse('0001-01-01').error?.issues[0]?.message).toBe('Must be a date from 2000 to 2100');
    expect(isoInstant.safeParse('2027-03-14T09:00:00-07:00').success).toBe(true);
    for (const bad of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2027-03-14'])
      expect(isoInstant.safeParse(bad).success, bad).toBe(false);
  });

  it('any day of the range passes, any day outside fails', () => {
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const start = Date.UTC(2000, 0, 1);
    const end = Date.UTC(2100, 11, 31);
    fc.assert(fc.property(fc.integer({ min: start, max: end }), (ms) => isoDate.safeParse(day(ms)).success));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: Date.UTC(0, 0, 1) - 1900 * 31_556_952_000, max: start - 1 }),
          fc.integer({ min: end + 86_400_000, max: Date.UTC(9999, 11, 31) }),
        ),
        (ms) => {
          const text = day(ms);
          return !/^\d{4}-\d{2}-\d{2}$/.test(text) || !isoDate.safeParse(text).success;
        },
      ),
    );
  });
});

describe('signedName', () => {
  const name = signedName({ min: 2, max: 120, missing: 'Please type your full name to accept', tooLong: 'Too long' });
  it('refuses names made only of invisible characters', () => {
    for (const bad of [
      '\u200b\u200b',
      '\u200b\u200c\u200d\u2060\ufeff',
      ' \u00ad\u034f ',
      '\u3164\u3164',
      '\u200e\u200f\u202a\u202c',
    ])
      expect(name.safeParse(bad).error?.issues[0]?.message, JSON.stringify(bad)).toBe(
        'Please type your full name to accept',
      );
  });
  it('keeps a real name, trimmed of what does not show at its ends, with joiners inside', () => {
    expect(name.parse('\u200b Dana Whitfield \u200b')).toBe('Dana Whitfield');
    expect(name.parse('مهر\u200cناز')).toBe('مهر\u200cناز');
    expect(trimInvisible('\ufeffAl\u200b')).toBe('Al');
  });
});
