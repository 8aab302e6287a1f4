import { todayIn } from '#shared/dates';

/** "2026-12-20" or an ISO time → "Dec 20, 2026"; the date part only, never shifted by the time zone. */
export function formatDate(value: string | null | undefined, fallback = 'No Date Provided'): string {
  if (!value) return fallback;
  const datePart = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
  if (!datePart) return fallback;
  const [y, m, d] = datePart.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * A moment (an ISO time) → "Nov 28, 2026": its day where the business is. A request made at 7:49 PM
 * in Sacramento on Nov 28 is of Nov 28, though it is already Nov 29 in UTC (formatDate would say so).
 */
export function formatDayOf(iso: string, timeZone: string): string {
  return formatDate(todayIn(timeZone, new Date(iso)));
}

/** "just now", "5 min ago", "2 h ago", "3 days ago": how long ago something happened. */
export function timeAgo(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? 'yesterday' : `${days} days ago`;
}

/**
 * "Nov 22, 2026, 9:14 AM": a moment as staff read it, in the business's zone ("9:14:05 AM" with
 * seconds, where entries a few seconds apart must read apart: the audit trail).
 */
export function formatDateTime(iso: string, timeZone?: string, options: { seconds?: boolean } = {}): string {
  return new Date(iso).toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' } : {}),
    ...(timeZone ? { timeZone } : {}),
  });
}
