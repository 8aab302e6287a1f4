/** `%` and `_` typed in a search box are letters, not wildcards. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Where page `page` of `limit` rows, newest first, lies among `total`: pages past the middle are read
 * from the oldest end (ascending, skipping from that end), so no page walks more than half of an
 * index (decision 004). Undefined past the last page.
 */
export function pageWindow(
  page: number,
  limit: number,
  total: number,
): { fromOldest: boolean; take: number; skip: number } | undefined {
  const offset = (page - 1) * limit;
  if (offset >= total) return undefined;
  const fromOldest = offset > total / 2;
  const take = Math.min(limit, total - offset);
  return { fromOldest, take, skip: fromOldest ? total - offset - take : offset };
}
