import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe on the page once what is moving has arrived: no violations of WCAG 2.1 A/AA or best practices.
 * A toast or dialog fading is read by axe at part of its opacity, so its text measured too faint: a CI
 * run failed on a toast caught mid-fade in, and a later one (a loaded host, where axe took seconds) on a
 * toast that began to fade out while axe read the page. So finite animations and transitions are let
 * finish first (endless ones, a loader, are not waited for), and while axe reads, anything that starts
 * moving jumps to its end (zero durations), then the page moves as before.
 */
export async function expectNoAxeViolations(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const still = await page.addStyleTag({
    content: `*, *::before, *::after { transition-duration: 0s !important; transition-delay: 0s !important;
      animation-duration: 0s !important; animation-delay: 0s !important; }`,
  });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
    .finally(() => still.evaluate((style) => (style as Element).remove()).catch(() => undefined));
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join('\n  ')}`,
  );
  expect(summary, summary.join('\n')).toEqual([]);
}
