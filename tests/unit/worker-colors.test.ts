import { describe, expect, it } from 'vitest';
import { UNASSIGNED_COLOR, WORKER_PALETTE, workerColor } from '../../src/web/features/visits/worker-colors';

/** WCAG 2 relative luminance and contrast ratio, written out so the test does not lean on the code under test. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

describe('worker colours on the calendar', () => {
  it.each([...WORKER_PALETTE, UNASSIGNED_COLOR])('%s carries white text at 4.5:1 or better', (hex) => {
    expect(contrastWithWhite(hex)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives a worker the same colour every time, and spreads workers over the palette', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect(workerColor(ids[0])).toBe(workerColor(ids[0]));
    expect(new Set(ids.map(workerColor)).size).toBe(WORKER_PALETTE.length);
    expect(workerColor(undefined)).toBe(UNASSIGNED_COLOR);
  });

  it('the old green that failed axe on CI is below the bar (the check can fail)', () => {
    expect(contrastWithWhite('#2b8a3e')).toBeLessThan(4.5);
  });
});
