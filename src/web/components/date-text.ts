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
