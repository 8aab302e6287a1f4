/**
 * A worker's colour on the calendar: one per worker, the same on every visit of theirs. Each is dark
 * enough for white text (WCAG AA, 4.5:1; `tests/unit/worker-colors.test.ts` checks every one), since the
 * colour a worker gets follows from their id and any of them can turn up.
 */
export const WORKER_PALETTE = [
  '#1864ab',
  '#23743a',
  '#c2255c',
  '#a14b00',
  '#5f3dc4',
  '#0b7285',
  '#862e9c',
  '#495057',
] as const;

/** The colour of a visit with nobody on it yet. */
export const UNASSIGNED_COLOR = '#495057';

export function workerColor(workerId: string | undefined): string {
  if (!workerId) return UNASSIGNED_COLOR;
  let hash = 0;
  for (const ch of workerId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return WORKER_PALETTE[hash % WORKER_PALETTE.length]!;
}
