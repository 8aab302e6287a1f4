import { BUSINESS_TIME_ZONE } from '#shared/constants';
import { todayIn } from '#shared/dates';

/** Today where the business is, in the default Settings' zone the tests' apps start with. */
export const todayInBusinessZone = (): string => todayIn(BUSINESS_TIME_ZONE);

/** A date `days` after today where the business is (YYYY-MM-DD): fixtures that stay in the future. */
export function futureDate(days = 30): string {
  const today = new Date(`${todayInBusinessZone()}T12:00:00Z`);
  today.setUTCDate(today.getUTCDate() + days);
  return today.toISOString().slice(0, 10);
}
