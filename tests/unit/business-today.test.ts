import { afterEach, describe, expect, it } from 'vitest';
import type { SiteConfig } from '#shared/business';
import { todayIn } from '#shared/dates';
import { businessDay } from '../../src/server/site/page-head';
import { businessToday } from '../../src/web/lib/business-today';
import { provideSiteConfig } from '../../src/web/lib/site-config';

const ZONE = 'America/Los_Angeles';
const site = (today?: SiteConfig['today']) => ({ timeZone: ZONE, today }) as unknown as SiteConfig;

describe('the business day the server writes into a page', () => {
  it('is the date where the business is and ends at its next midnight there', () => {
    // 11:30 PM on Friday, Nov 27 in Sacramento is already Saturday in UTC.
    expect(businessDay(ZONE, new Date('2026-11-28T07:30:00Z'))).toEqual({
      date: '2026-11-27',
      endsAt: Date.parse('2026-11-28T08:00:00Z'),
    });
    // One second later, the next day.
    expect(businessDay(ZONE, new Date('2026-11-28T08:00:00Z')).date).toBe('2026-11-28');
  });

  it('keeps to the clocks across daylight time: a day of 23 hours in March and 25 in November', () => {
    expect(businessDay(ZONE, new Date('2027-03-14T12:00:00Z')).endsAt).toBe(Date.parse('2027-03-15T07:00:00Z'));
    expect(businessDay(ZONE, new Date('2027-03-13T12:00:00Z')).endsAt).toBe(Date.parse('2027-03-14T08:00:00Z'));
    expect(businessDay(ZONE, new Date('2027-11-07T12:00:00Z')).endsAt).toBe(Date.parse('2027-11-08T08:00:00Z'));
  });
});

describe('businessToday in the browser', () => {
  afterEach(() => provideSiteConfig(site()));

  it("is the server's date until that day ends where the business is", () => {
    const now = Date.parse('2026-11-28T07:30:00Z');
    provideSiteConfig(site(businessDay(ZONE, new Date(now))));
    expect(businessToday(now)).toBe('2026-11-27');
    expect(businessToday(Date.parse('2026-11-28T07:59:59Z'))).toBe('2026-11-27');
  });

  it('reckons the date itself once that day is over, or when the page carried none', () => {
    provideSiteConfig(site(businessDay(ZONE, new Date('2026-11-28T07:30:00Z'))));
    expect(businessToday(Date.parse('2026-11-28T08:00:00Z'))).toBe('2026-11-28');
    expect(businessToday(Date.parse('2026-12-03T20:00:00Z'))).toBe('2026-12-03');
    provideSiteConfig(site());
    const now = Date.parse('2026-11-28T07:30:00Z');
    expect(businessToday(now)).toBe(todayIn(ZONE, new Date(now)));
    expect(businessToday(now)).toBe('2026-11-27');
  });
});
