import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files known to take longest start first, so that two workers end together instead of one
 * finishing a minute-long file alone at the end (a fresh clone has no timings for Vitest to sort by;
 * it then sorts by file size, which puts the short process tests, the longest to run, last).
 * Measured with `npx vitest run --reporter=json` (decision 027).
 */
const SLOW_FIRST = [
  /tests\/process\/backup-restore/,
  /tests\/api\/documents-off-the-request-path/,
  /tests\/api\/own-your-data/,
  /tests\/process\/start-up/,
  /tests\/api\/quote-conversation/,
  /tests\/api\/invoices\.test/,
  /tests\/reliability\//,
  /tests\/process\//,
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((pattern) => pattern.test(file.moduleId));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
