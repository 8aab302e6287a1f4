import { todayInBusinessZone } from '../../src/shared/schemas/quote-request';

/** A date `days` after today where the business is (YYYY-MM-DD): fixtures that stay in the future. */
export function futureDate(days = 30): string {
  const today = new Date(`${todayInBusinessZone()}T12:00:00Z`);
  today.setUTCDate(today.getUTCDate() + days);
  return today.toISOString().slice(0, 10);
}
