// Vitest setup: a component test (happy-dom) fails on any console error or warning React or Mantine
// prints (a missing key, an act() warning, a failed prop type), so a broken component cannot pass by
// rendering text that looks right. Tests that expect an error silence it themselves with vi.spyOn.
import { afterEach, beforeEach, vi } from 'vitest';

if (typeof window !== 'undefined') {
  const seen: string[] = [];
  beforeEach(() => {
    seen.length = 0;
    for (const level of ['error', 'warn'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        seen.push(`console.${level}: ${args.map(String).join(' ')}`);
      });
    }
  });
  afterEach(() => {
    const problems = [...seen];
    seen.length = 0;
    if (problems.length > 0) throw new Error(`The component printed to the console:\n${problems.join('\n')}`);
  });
}
