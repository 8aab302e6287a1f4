import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallTimeIn } from '#shared/dates';
import { plainForText, smsLength } from '#shared/sms';
import { toE164 } from '../../src/server/lib/phone';
import { outsideQuietHours } from '../../src/server/texts/quiet-hours';

const ZONE = 'America/Los_Angeles';
const local = (at: Date) => wallTimeIn(ZONE, at);

describe('quiet hours (9 PM to 8 AM on the business’s clock)', () => {
  it('leaves a daytime moment alone and moves evening and night ones to 8 AM', () => {
    const noon = new Date('2027-01-12T20:00:00Z'); // 12:00 PST
    expect(outsideQuietHours(noon, ZONE)).toEqual(noon);
    expect(local(outsideQuietHours(new Date('2027-01-13T05:30:00Z'), ZONE))).toEqual({
      date: '2027-01-13',
      time: '08:00',
    }); // 21:30
    expect(local(outsideQuietHours(new Date('2027-01-13T14:59:00Z'), ZONE))).toEqual({
      date: '2027-01-13',
      time: '08:00',
    }); // 06:59
    expect(local(outsideQuietHours(new Date('2027-01-13T05:00:00Z'), ZONE))).toEqual({
      date: '2027-01-13',
      time: '08:00',
    }); // 21:00
    const eight = new Date('2027-01-13T16:00:00Z'); // 08:00
    expect(outsideQuietHours(eight, ZONE)).toEqual(eight);
  });

  it('wakes at 8 AM on the wall across both clock changes', () => {
    // The night the clocks go forward (Mar 14, 2027) and back (Nov 7, 2027).
    expect(local(outsideQuietHours(new Date('2027-03-14T06:30:00Z'), ZONE))).toEqual({
      date: '2027-03-14',
      time: '08:00',
    });
    expect(outsideQuietHours(new Date('2027-03-14T06:30:00Z'), ZONE).toISOString()).toBe('2027-03-14T15:00:00.000Z');
    expect(outsideQuietHours(new Date('2027-11-07T07:30:00Z'), ZONE).toISOString()).toBe('2027-11-07T16:00:00.000Z');
  });

  it('never moves a moment back and always lands between 8 AM and 9 PM', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('2026-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }), (at) => {
        const out = outsideQuietHours(at, ZONE);
        expect(out.getTime()).toBeGreaterThanOrEqual(at.getTime());
        const { time } = local(out);
        expect(time >= '08:00' && time < '21:00').toBe(true);
        expect(out.getTime() - at.getTime()).toBeLessThanOrEqual(12 * 3600_000);
      }),
    );
  });
});

describe('text length', () => {
  it('counts GSM-7 in septets and its extended characters twice', () => {
    expect(smsLength('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(smsLength('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(smsLength('a'.repeat(307)).segments).toBe(3);
  });

  it('turns a whole text into UCS-2 for one character outside GSM-7', () => {
    expect(smsLength(`${'a'.repeat(69)}’`)).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(smsLength(`${'a'.repeat(70)}’`).segments).toBe(2);
  });

  it('makes typographic quotes, dashes and spaces plain so a text stays GSM-7', () => {
    const typed = 'Dana’s visit: Tue, Mar 16, 10:00 AM – 12:00 PM… “ok”';
    const plain = plainForText(typed);
    expect(plain).toBe('Dana\'s visit: Tue, Mar 16, 10:00 AM - 12:00 PM... "ok"');
    expect(smsLength(plain).encoding).toBe('GSM-7');
  });
});

describe('mobile numbers', () => {
  it('reads US numbers as typed into E.164, and refuses what is not a number', () => {
    expect(toE164('(916) 555-0142')).toBe('+19165550142');
    expect(toE164('916.555.0142')).toBe('+19165550142');
    expect(toE164('+1 916 555 0142')).toBe('+19165550142');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('12')).toBeNull();
    expect(toE164('call me')).toBeNull();
    expect(toE164('555-1234')).toBeNull();
  });
});
