import type { JobRecordView } from '#shared/schemas/job-records';

/** A crew member's record of a job as the phone shows it (Robin's, one timer); `changes` replaces parts. */
export function sampleRecordView(
  changes: Partial<JobRecordView> = {},
  timer: { endedAt: string | null } = { endedAt: null },
): JobRecordView {
  return {
    jobId: 'job1',
    status: 'In Progress',
    me: { _id: 'u1', fullName: 'Robin' },
    job: {
      clientName: 'C',
      phone: '',
      address: { street: 's', city: 'c', state: 'CA', zip: '95814' },
      description: '',
      visitNotes: [],
      photos: [],
    },
    pricesShown: false,
    checklist: [],
    time: [
      {
        _id: 't0',
        worker: { _id: 'u1', fullName: 'Robin' },
        visitId: null,
        workDate: '2026-11-22',
        startedAt: '2026-11-22T16:00:00.000Z',
        endedAt: timer.endedAt,
        minutes: timer.endedAt
          ? Math.round((Date.parse(timer.endedAt) - Date.parse('2026-11-22T16:00:00.000Z')) / 60_000)
          : null,
      },
    ],
    timeTotals: [],
    materials: [],
    priceList: [],
    photos: [],
    notes: '',
    clientNote: '',
    signature: null,
    report: null,
    ...changes,
  };
}
