import { BUSINESS_TIME_ZONE } from './constants';

/** Today's date (YYYY-MM-DD) where the business is, whatever the clock's zone. No zod: pages import it. */
export function todayInBusinessZone(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}
