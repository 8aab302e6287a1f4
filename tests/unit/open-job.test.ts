import { describe, expect, it } from 'vitest';
import { JOB_STATUSES } from '#shared/constants';
import { CREW_TRANSITIONS, isOpenJob, JOB_TRANSITIONS } from '#shared/statuses';

// Issue 26.1: "open job" is one rule, used by the job's lifecycle, the crew's record, the status page's
// next visit, the crew's page and the office's deposit alert.
describe('an open job', () => {
  it('is one not yet completed or cancelled', () => {
    expect(JOB_STATUSES.filter(isOpenJob)).toEqual(['Not Started', 'In Progress']);
  });

  it('is one the office or the crew can still move on (a closed one only by reopening it)', () => {
    for (const status of JOB_STATUSES) {
      if (isOpenJob(status))
        expect(
          JOB_TRANSITIONS[status].some((to) => !isOpenJob(to)),
          status,
        ).toBe(true);
      else expect(CREW_TRANSITIONS[status].filter(isOpenJob), status).toEqual([]);
    }
  });
});
