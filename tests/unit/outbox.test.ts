import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyPending } from '../../src/web/features/job-records/lib/apply-pending';
import { Outbox, type QueuedChange, type SendResult } from '../../src/web/lib/outbox';
import { sampleRecordView } from '../helpers/job-record-view';

/** Storage that outlives an Outbox, as IndexedDB outlives a page. */
function memoryStorage() {
  let saved: QueuedChange[] = [];
  return {
    load: async () => structuredClone(saved),
    save: async (changes: QueuedChange[]) => {
      saved = structuredClone(changes);
    },
    get saved() {
      return saved;
    },
  };
}

const change = (path: string, body?: unknown, method: QueuedChange['method'] = 'PUT') => ({
  id: crypto.randomUUID(),
  scope: 'job1',
  by: 'me',
  method,
  path,
  body,
});

describe('the outbox of changes made without signal', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends in order, keeps what could not go across a reload, and sends it when the signal returns', async () => {
    const storage = memoryStorage();
    const sent: string[] = [];
    let online = false;
    const send = async (c: QueuedChange): Promise<SendResult> => {
      if (!online) return { kind: 'retry' };
      sent.push(`${c.method} ${c.path}`);
      return { kind: 'sent' };
    };
    const first = new Outbox(storage, send);
    await first.add(change('/a', 1));
    await first.add(change('/b', 2, 'DELETE'));
    await vi.advanceTimersByTimeAsync(0);
    expect(first.getSnapshot().waiting).toBe(true);
    expect(storage.saved.map((c) => c.path)).toEqual(['/a', '/b']);

    // The page reloads: a new outbox finds the changes and sends them once the signal is back.
    const second = new Outbox(storage, send);
    await vi.advanceTimersByTimeAsync(0);
    expect(second.getSnapshot().pending).toHaveLength(2);
    online = true;
    await second.flush();
    expect(sent).toEqual(['PUT /a', 'DELETE /b']);
    expect(second.getSnapshot()).toMatchObject({ pending: [], waiting: false });
    expect(storage.saved).toEqual([]);
  });

  it('has a sent change out of the kept queue before it shows as sent (a reload right after “Saved” finds it gone)', async () => {
    const storage = memoryStorage();
    const outbox = new Outbox(storage, async () => ({ kind: 'sent' }));
    await vi.advanceTimersByTimeAsync(0);
    // What the phone keeps, each time the page learns nothing is waiting.
    const kept: number[] = [];
    outbox.subscribe(() => {
      if (outbox.getSnapshot().pending.length === 0) kept.push(storage.saved.length);
    });
    await outbox.add(change('/a', 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(outbox.getSnapshot().recent).toHaveLength(1);
    expect(kept).toEqual([0]);
  });

  it('retries by itself, sooner at first, without being asked', async () => {
    let tries = 0;
    const box = new Outbox(memoryStorage(), async () => (++tries < 3 ? { kind: 'retry' } : { kind: 'sent' }));
    await box.add(change('/a'));
    expect(tries).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tries).toBe(2);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(tries).toBe(3);
    expect(box.getSnapshot().pending).toEqual([]);
  });

  it('replaces a waiting PUT to the same address (typing queues one change), never one on its way', async () => {
    let release: () => void = () => {};
    const bodies: unknown[] = [];
    const box = new Outbox(memoryStorage(), async (c) => {
      bodies.push(c.body);
      await new Promise<void>((r) => (release = r));
      return { kind: 'sent' };
    });
    await box.add(change('/notes', 'T'));
    await box.add(change('/notes', 'Tw'));
    await box.add(change('/notes', 'Two'));
    expect(box.getSnapshot().pending.map((c) => c.body)).toEqual(['T', 'Two']);
    release();
    await vi.advanceTimersByTimeAsync(0);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(bodies).toEqual(['T', 'Two']);
  });

  it('drops a change the server refuses, says why, and goes on with the next', async () => {
    const sent: string[] = [];
    const box = new Outbox(memoryStorage(), async (c) => {
      if (c.path === '/bad') return { kind: 'refused', message: 'Name the material' };
      sent.push(c.path);
      return { kind: 'sent' };
    });
    await box.add(change('/bad'));
    await box.add(change('/good'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['/good']);
    expect(box.getSnapshot().refused.map((r) => r.message)).toEqual(['Name the material']);
    box.dismissRefused();
    expect(box.getSnapshot().refused).toEqual([]);
  });
});

const record = sampleRecordView({
  checklist: [{ _id: 'q1', text: 'Deck boards × 10', fromQuote: true, done: false, doneAt: null, doneBy: null }],
  priceList: [{ name: 'Gate hinge', unitPrice: null }],
});
const queued = (path: string, body?: unknown, method: QueuedChange['method'] = 'PUT'): QueuedChange => ({
  ...change(`/my/jobs/job1/${path}`, body, method),
  queuedAt: '2026-11-22T17:00:00.000Z',
});

describe('the record with the changes not yet sent laid over it', () => {
  const changes = [
    queued('checklist/q1', { text: 'Reworded', done: true }),
    queued('checklist/c1', { text: 'Haul away', done: false }),
    queued('time/t1', { kind: 'timer', startedAt: '2026-11-22T17:30:00.000Z' }),
    queued('time/t2', { kind: 'hours', workDate: '2026-11-21', hours: 1.5 }),
    queued('materials/m1', { name: 'gate hinge', quantity: 2 }),
    queued('notes', { notes: 'Soft joists' }),
    queued('client-note', { note: 'Thank you for the coffee' }),
    queued('photos/p1', { stage: 'after', image: 'data:image/jpeg;base64,AAAA' }),
    queued('complete', undefined, 'POST'),
  ];

  it('shows each change as the server will apply it', () => {
    const view = applyPending(record, changes);
    expect(view.checklist).toEqual([
      {
        _id: 'q1',
        text: 'Deck boards × 10',
        fromQuote: true,
        done: true,
        doneAt: '2026-11-22T17:00:00.000Z',
        doneBy: 'Robin',
      },
      { _id: 'c1', text: 'Haul away', fromQuote: false, done: false, doneAt: null, doneBy: null },
    ]);
    // Starting the new timer stopped the one that ran (90 minutes).
    expect(view.time.map((t) => [t._id, t.minutes])).toEqual([
      ['t0', 90],
      ['t1', null],
      ['t2', 90],
    ]);
    expect(view.timeTotals).toEqual([{ worker: { _id: 'u1', fullName: 'Robin' }, minutes: 180 }]);
    expect(view.materials).toEqual([{ _id: 'm1', name: 'gate hinge', quantity: 2, unitPrice: null, addedBy: 'Robin' }]);
    expect(view.notes).toBe('Soft joists');
    expect(view.clientNote).toBe('Thank you for the coffee');
    expect(view.photos[0]).toMatchObject({ _id: 'p1', stage: 'after', thumbnailUrl: 'data:image/jpeg;base64,AAAA' });
    expect(view.status).toBe('Completed');
  });

  it('gives the same view when a change is both fetched and still listed (sent, not yet refetched)', () => {
    const once = applyPending(record, changes);
    expect(applyPending(once, changes)).toEqual(once);
    expect(applyPending(record, [...changes, ...changes])).toEqual(once);
  });

  it('leaves other jobs’ changes out', () => {
    const other = { ...queued('notes', { notes: 'x' }), path: '/my/jobs/job2/notes' };
    expect(applyPending(record, [other]).notes).toBe('');
  });
});
