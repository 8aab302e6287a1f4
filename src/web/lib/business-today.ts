import { todayIn } from '#shared/dates';
import { siteConfig } from './site-config';

/**
 * Today where the business is (the Settings' zone): the date the server wrote into the page until
 * that day ends, then the browser's own reckoning. A form's first render (the one that takes over the
 * page the server sent) then asks nothing of Intl, whose first time-zone format costs a phone tens of
 * milliseconds on the main thread.
 */
export function businessToday(now = Date.now()): string {
  const { today, timeZone } = siteConfig();
  return today && now < today.endsAt ? today.date : todayIn(timeZone, new Date(now));
}
