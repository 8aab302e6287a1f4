/** Delay before attempt n+1 after n failures: base · 2^(n-1), capped (the mail and webhook relays). */
export function backoffMs(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
}
