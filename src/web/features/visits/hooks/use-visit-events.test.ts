import { describe, expect, it } from 'vitest';
import { zonedTimeToUtc } from '#shared/dates';
import type { VisitView } from '#shared/schemas/visits';
import { UNASSIGNED_COLOR, WORKER_PALETTE, workerColor } from '../worker-colors';
import { visitEvents } from './use-visit-events';

const LA = 'America/Los_Angeles';
const ana = { _id: 'worker-ana', fullName: 'Ana Ruiz' };
const ben = { _id: 'worker-ben', fullName: 'Ben Okafor' };

/** A visit as the API sends it: its instants in UTC, its date and times on the business's clock (LA). */
function visit(over: Partial<VisitView> & Pick<VisitView, '_id' | 'date' | 'start' | 'end'>): VisitView {
  return {
    jobId: 'job-1',
    startsAt: zonedTimeToUtc(over.date, over.start, LA).toISOString(),
    endsAt: zonedTimeToUtc(over.date, over.end === '24:00' ? '23:59' : over.end, LA).toISOString(),
    workers: [ana],
    notes: '',
    clientNote: '',
    cancelled: false,
    cancelReason: null,
    confirmedAt: null,
    clientMoves: 0,
    awaitingApproval: false,
    quoteRequestId: null,
    planId: null,
    work: 'Fix the gate',
    client: { name: 'Dana Client', phone: '(916) 555-0101', address: '1 Main St, Sacramento' },
    ...over,
  };
}

describe('visits as calendar events', () => {
  it('titles an event with the client, then the crew', () => {
    const events = visitEvents([
      visit({ _id: 'v1', date: '2026-07-01', start: '09:00', end: '11:00', workers: [ana, ben] }),
      visit({ _id: 'v2', date: '2026-07-01', start: '13:00', end: '14:00', workers: [] }),
      visit({ _id: 'v3', date: '2026-07-02', start: '08:00', end: '09:00', jobId: null, quoteRequestId: 'r1' }),
      visit({
        _id: 'v4',
        date: '2026-07-02',
        start: '10:00',
        end: '11:00',
        jobId: null,
        quoteRequestId: 'r2',
        awaitingApproval: true,
      }),
    ]);
    expect(events.map((e) => [e.id, e.title])).toEqual([
      ['v1', 'Dana Client · Ana Ruiz, Ben Okafor'],
      ['v2', 'Dana Client'],
      ['v3', 'Estimate: Dana Client · Ana Ruiz'],
      ['v4', 'Estimate to approve: Dana Client · Ana Ruiz'],
    ]);
  });

  it('starts the title of a visit the client confirmed with a tick', () => {
    const [confirmed, waiting] = visitEvents([
      visit({ _id: 'v1', date: '2026-07-01', start: '09:00', end: '11:00', confirmedAt: '2026-06-30T18:00:00.000Z' }),
      visit({ _id: 'v2', date: '2026-07-01', start: '13:00', end: '14:00' }),
    ]);
    expect(confirmed!.title).toBe('✓ Dana Client · Ana Ruiz');
    expect(waiting!.title).toBe('Dana Client · Ana Ruiz');
  });

  it("colours an event with its first worker's colour, the same on every visit of theirs; grey with nobody on it", () => {
    expect(workerColor(ana._id)).not.toBe(workerColor(ben._id)); // the test needs two colours to tell apart
    const [first, second, third, nobody] = visitEvents([
      visit({ _id: 'v1', date: '2026-07-01', start: '09:00', end: '10:00', workers: [ana, ben] }),
      visit({ _id: 'v2', date: '2026-07-02', start: '09:00', end: '10:00', workers: [ana] }),
      visit({ _id: 'v3', date: '2026-07-02', start: '09:00', end: '10:00', workers: [ben, ana] }),
      visit({ _id: 'v4', date: '2026-07-03', start: '09:00', end: '10:00', workers: [] }),
    ]);
    expect(first).toMatchObject({ backgroundColor: workerColor(ana._id), borderColor: workerColor(ana._id) });
    expect(second!.backgroundColor).toBe(first!.backgroundColor);
    expect(third).toMatchObject({ backgroundColor: workerColor(ben._id), borderColor: workerColor(ben._id) });
    expect(WORKER_PALETTE).toContain(third!.backgroundColor);
    expect(nobody).toMatchObject({ backgroundColor: UNASSIGNED_COLOR, borderColor: UNASSIGNED_COLOR });
    expect(new Set([first, third, nobody].map((e) => e!.textColor))).toEqual(new Set(['#ffffff']));
  });

  it("places an event at the business's wall-clock times, whatever the UTC instant (no offset to shift it)", () => {
    // 5 to 7 pm in Sacramento on November 24 is 01:00 to 03:00 UTC on the 25th; in July, 9 am is 16:00 UTC.
    const evening = visit({ _id: 'v1', date: '2026-11-24', start: '17:00', end: '19:00' });
    const summer = visit({ _id: 'v2', date: '2026-07-01', start: '09:00', end: '10:30' });
    expect(evening.startsAt).toBe('2026-11-25T01:00:00.000Z');
    expect(summer.startsAt).toBe('2026-07-01T16:00:00.000Z');

    const [e, s] = visitEvents([evening, summer]);
    expect([e!.start, e!.end]).toEqual(['2026-11-24T17:00:00', '2026-11-24T19:00:00']);
    expect([s!.start, s!.end]).toEqual(['2026-07-01T09:00:00', '2026-07-01T10:30:00']);
  });

  it('ends a visit that runs to midnight at 23:59 of its own day', () => {
    const [late] = visitEvents([visit({ _id: 'v1', date: '2026-07-01', start: '20:00', end: '24:00' })]);
    expect([late!.start, late!.end]).toEqual(['2026-07-01T20:00:00', '2026-07-01T23:59:00']);
  });

  it('leaves cancelled visits off the calendar, and keeps the visit on the event for the dialogs', () => {
    const kept = visit({ _id: 'kept', date: '2026-07-01', start: '09:00', end: '10:00' });
    const events = visitEvents([
      kept,
      visit({ _id: 'gone', date: '2026-07-01', start: '11:00', end: '12:00', cancelled: true, cancelReason: 'Rain' }),
    ]);
    expect(events.map((e) => e.id)).toEqual(['kept']);
    expect(events[0]!.extendedProps).toEqual({ visit: kept });
    expect(visitEvents([])).toEqual([]);
  });
});
