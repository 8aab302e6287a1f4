// @vitest-environment happy-dom
import type { EventDropArg } from '@fullcalendar/core';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VisitView } from '#shared/schemas/visits';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { useVisitChanges } from '../api/visits';
import { useMoveVisit } from './use-move-visit';

vi.mock('../../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
afterEach(cleanup);

type Change = ReturnType<typeof useVisitChanges>['change'];
type Callbacks = { onSuccess?: () => void; onError?: (error: Error) => void };

const visit: VisitView = {
  _id: 'visit-1',
  jobId: 'job-1',
  startsAt: '2026-07-01T16:00:00.000Z',
  endsAt: '2026-07-01T18:00:00.000Z',
  date: '2026-07-01',
  start: '09:00',
  end: '11:00',
  workers: [{ _id: 'worker-ana', fullName: 'Ana Ruiz' }],
  notes: 'Gate code 1234',
  clientNote: '',
  cancelled: false,
  cancelReason: null,
  confirmedAt: null,
  clientMoves: 0,
  awaitingApproval: false,
  quoteRequestId: null,
  planId: null,
  work: 'Fix the gate',
  client: { name: 'Dana Client', phone: '(916) 555-0101', address: '1 Main St' },
};

/** The visit dragged on the calendar to July 2, 13:00–15:00 (FullCalendar runs in "UTC": wall-clock times). */
function dragged() {
  const revert = vi.fn();
  const arg = {
    event: {
      start: new Date('2026-07-02T13:00:00Z'),
      end: new Date('2026-07-02T15:00:00Z'),
      extendedProps: { visit },
    },
    revert,
  } as unknown as EventDropArg;
  return { arg, revert };
}

function setUp() {
  const calls: { variables: unknown; callbacks: Callbacks }[] = [];
  const change = {
    mutate: vi.fn((variables: unknown, callbacks: Callbacks) => calls.push({ variables, callbacks })),
  } as unknown as Change;
  const hook = renderHook(() => useMoveVisit(change));
  return { calls, hook };
}

const conflict = () =>
  new ApiError(409, 'Ana Ruiz is busy then', { code: 'VISIT_CONFLICT', message: 'Ana Ruiz is busy then' });

describe('moving a visit on the calendar', () => {
  it('asks "Tell the client?" first, then saves the new wall-clock times with the rest of the visit as it was', () => {
    const { calls, hook } = setUp();
    const { arg, revert } = dragged();
    act(() => hook.result.current.onMoved(arg));
    expect(calls).toHaveLength(0);
    expect(hook.result.current.asking).toEqual({
      client: 'Dana Client',
      date: '2026-07-02',
      start: '13:00',
      end: '15:00',
    });
    act(() => hook.result.current.answer(true));
    expect(hook.result.current.asking).toBeNull();
    expect(calls[0]!.variables).toEqual({
      visitId: 'visit-1',
      body: {
        date: '2026-07-02',
        start: '13:00',
        end: '15:00',
        workerIds: ['worker-ana'],
        notes: 'Gate code 1234',
        clientNote: '',
        notifyClient: true,
      },
    });
    act(() => calls[0]!.callbacks.onSuccess!());
    expect(toast.success).toHaveBeenCalledWith('Visit moved: the client is told the new time');
    expect(revert).not.toHaveBeenCalled();
    expect(hook.result.current.pendingMove).toBeNull();
  });

  it('asks before moving onto a busy worker, then moves it anyway with confirm', () => {
    const { calls, hook } = setUp();
    const { arg, revert } = dragged();
    act(() => hook.result.current.onMoved(arg));
    act(() => hook.result.current.answer(true));
    act(() => calls[0]!.callbacks.onError!(conflict()));
    expect(hook.result.current.pendingMove).toMatchObject({ visit, message: 'Ana Ruiz is busy then' });
    expect(revert).not.toHaveBeenCalled();

    act(() => hook.result.current.moveAnyway());
    expect(calls[1]!.variables).toMatchObject({ visitId: 'visit-1', body: { date: '2026-07-02', confirm: true } });
    act(() => calls[1]!.callbacks.onSuccess!());
    expect(hook.result.current.pendingMove).toBeNull();
    expect(revert).not.toHaveBeenCalled();
  });

  it('puts the visit back when the office says no, or when the server refuses', () => {
    const { calls, hook } = setUp();
    const first = dragged();
    act(() => hook.result.current.onMoved(first.arg));
    act(() => hook.result.current.answer(true));
    act(() => calls[0]!.callbacks.onError!(conflict()));
    act(() => hook.result.current.putBack());
    expect(first.revert).toHaveBeenCalledTimes(1);
    expect(hook.result.current.pendingMove).toBeNull();

    const second = dragged();
    act(() => hook.result.current.onMoved(second.arg));
    act(() => hook.result.current.answer(true));
    act(() => calls[1]!.callbacks.onError!(new ApiError(404, 'This visit no longer exists')));
    expect(second.revert).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith('This visit no longer exists');
    expect(hook.result.current.pendingMove).toBeNull();
  });

  it('moves it without e-mailing the client when told so, and puts it back when the question is closed', () => {
    const { calls, hook } = setUp();
    const quiet = dragged();
    act(() => hook.result.current.onMoved(quiet.arg));
    act(() => hook.result.current.answer(false));
    expect(calls[0]!.variables).toMatchObject({
      visitId: 'visit-1',
      body: { date: '2026-07-02', notifyClient: false },
    });
    act(() => calls[0]!.callbacks.onSuccess!());
    expect(toast.success).toHaveBeenCalledWith('Visit moved: the client is not told');

    const closed = dragged();
    act(() => hook.result.current.onMoved(closed.arg));
    act(() => hook.result.current.putBack());
    expect(closed.revert).toHaveBeenCalledTimes(1);
    expect(hook.result.current.asking).toBeNull();
    expect(calls).toHaveLength(1);
  });
});
