import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changedChecklistItem,
  isLateStart,
  isStoppedByNewTimer,
  materialUnitPrice,
  MAX_TIMER_MINUTES,
  timerEnd,
  timerMinutes,
} from '#shared/job-record-rules';
import { untickedMessage } from '#shared/schemas/job-records';
import { applyPending } from '../../src/web/features/job-records/lib/apply-pending';
import type { QueuedChange } from '../../src/web/lib/outbox';
import { sampleRecordView } from '../helpers/job-record-view';

// Issue 26.1: the crew record's rules live once in src/shared; the server and the phone's view of its
// changes not yet sent both call them.
describe("the crew record's rules", () => {
  const instant = fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 });

  it('a timer counts whole minutes from 0 to a day, and ends no later than a day after its start', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -86_400_000, max: 5 * 86_400_000 }), (start, length) => {
        const end = timerEnd(start, start + length);
        const minutes = timerMinutes(start, start + length);
        expect(end).toBeGreaterThanOrEqual(start);
        expect(end).toBeLessThanOrEqual(start + MAX_TIMER_MINUTES * 60_000);
        expect(minutes).toBe(Math.round((end - start) / 60_000));
        expect(minutes).toBeGreaterThanOrEqual(0);
        expect(minutes).toBeLessThanOrEqual(MAX_TIMER_MINUTES);
        if (length >= 0 && length <= 86_400_000) expect(end).toBe(start + length);
      }),
    );
  });

  it('a sold line keeps its words, the first tick is kept, unticking clears it', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.string(),
        fc.string(),
        fc.option(fc.constant('first tick'), { nil: null }),
        fc.boolean(),
        (fromQuote, text, newText, doneAt, done) => {
          const current = { fromQuote, text, doneAt, doneBy: doneAt && 'Alex' };
          const next = changedChecklistItem(current, { text: newText, done }, 'now', 'Sam');
          expect(next.text).toBe(fromQuote ? text : newText);
          expect(next.doneAt).toBe(done ? (doneAt ?? 'now') : null);
          expect(next.doneBy).toBe(done ? (doneAt ? 'Alex' : 'Sam') : null);
        },
      ),
    );
    expect(changedChecklistItem(undefined, { text: 'Haul away', done: true }, 'now', 'Sam')).toEqual({
      text: 'Haul away',
      doneAt: 'now',
      doneBy: 'Sam',
    });
  });

  it("a new timer stops the same worker's other running one only; a late start does not rerun a stopped timer", () => {
    const running = { id: 't0', workerId: 'u1', startedMs: 1, endedMs: null };
    expect(isStoppedByNewTimer(running, 'u1', 't1')).toBe(true);
    expect(isStoppedByNewTimer(running, 'u2', 't1')).toBe(false);
    expect(isStoppedByNewTimer(running, 'u1', 't0')).toBe(false);
    expect(isStoppedByNewTimer({ ...running, endedMs: 5 }, 'u1', 't1')).toBe(false);
    expect(isStoppedByNewTimer({ ...running, startedMs: null }, 'u1', 't1')).toBe(false);
    const stopped = { ...running, endedMs: 100 };
    expect(isLateStart(stopped, { startedMs: 1, endedMs: null })).toBe(true);
    expect(isLateStart(stopped, { startedMs: 200, endedMs: null })).toBe(false);
    expect(isLateStart(stopped, { startedMs: 1, endedMs: 150 })).toBe(false);
    expect(isLateStart(undefined, { startedMs: 1, endedMs: null })).toBe(false);
  });

  it("a material's price: the office's (or cleared), a pricing crew's, the kept one while the name stays, the list's", () => {
    const base = { mayGivePrice: false, office: false, name: 'Hinge', listed: 700 as number | undefined };
    const current = { name: 'hinge', price: 900 };
    expect(materialUnitPrice({ ...base, given: 100, current })).toBe(900);
    expect(materialUnitPrice({ ...base, given: 100, mayGivePrice: true, current })).toBe(100);
    expect(materialUnitPrice({ ...base, given: null, office: true, mayGivePrice: true, current })).toBeNull();
    expect(materialUnitPrice({ ...base, given: undefined, current: { name: 'Screw', price: 900 } })).toBe(700);
    expect(materialUnitPrice({ ...base, given: undefined, current: undefined, listed: undefined })).toBeNull();
  });
});

describe("the phone's view applies the same rules as the server", () => {
  const record = sampleRecordView({}, { endedAt: '2026-11-22T17:00:00.000Z' });
  const queued = (path: string, body: unknown): QueuedChange =>
    ({ id: path, method: 'PUT', path: `/my/jobs/job1/${path}`, body, queuedAt: '2026-11-22T18:00:00.000Z' }) as never;

  it('a start sent again after its timer was stopped does not show it running again', () => {
    const view = applyPending(record, [queued('time/t0', { kind: 'timer', startedAt: '2026-11-22T16:00:00.000Z' })]);
    expect(view.time[0]).toMatchObject({ endedAt: '2026-11-22T17:00:00.000Z', minutes: 60 });
  });

  it('a timer stopped 30 hours after its start counts a day and ends there, as the server stores it', () => {
    const view = applyPending(record, [
      queued('time/t1', {
        kind: 'timer',
        startedAt: '2026-11-20T08:00:00.000Z',
        endedAt: '2026-11-21T14:00:00.000Z',
      }),
    ]);
    expect(view.time.find((t) => t._id === 't1')).toMatchObject({
      endedAt: '2026-11-21T08:00:00.000Z',
      minutes: 1440,
    });
  });
});

describe('untickedMessage', () => {
  it('asks the crew to tick, and tells the office, who cannot tick for them, what is open', () => {
    expect(untickedMessage(1)).toBe('1 item not ticked: tick them or complete anyway');
    expect(untickedMessage(2, 'crew')).toBe('2 items not ticked: tick them or complete anyway');
    expect(untickedMessage(1, 'office')).toBe('The crew has not ticked 1 item');
    expect(untickedMessage(3, 'office')).toBe('The crew has not ticked 3 items');
  });
});
