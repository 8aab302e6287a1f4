import type { EventDropArg } from '@fullcalendar/core';
import type { EventResizeDoneArg } from '@fullcalendar/interaction';
import { useState } from 'react';
import type { VisitChangeInput, VisitView } from '#shared/schemas/visits';
import { hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { useVisitChanges } from '../api/visits';
import type { NewTime } from '../components/tell-client-dialog';
import { valuesOf } from '../components/visit-dialog';
import { wall } from '../wall-clock';

/** A visit dragged or resized, not saved yet: its new times, and how to put it back. */
type Move = { visit: VisitView; body: VisitChangeInput; revert: () => void };

/** A move the server warned about (a worker busy or unavailable then), waiting for the office's answer. */
export type PendingMove = Move & { message: string };

/** What the office is told once a move is saved. */
export const movedToast = (notifyClient: boolean) =>
  notifyClient ? 'Visit moved: the client is told the new time' : 'Visit moved: the client is not told';

/**
 * Dragging or resizing a visit on the calendar: first the office says whether the client is told
 * the new time (`asking`, answered by `answer`); then the new wall-clock times are saved. When a
 * worker is busy then, the move waits (`pendingMove`) until the office moves it anyway or puts it back.
 */
export function useMoveVisit(change: ReturnType<typeof useVisitChanges>['change']) {
  const [asking, setAsking] = useState<Move | null>(null);
  const [pendingMove, setPendingMove] = useState<PendingMove | null>(null);

  /** A drag or a resize: its new wall-clock times, held until the office says whether to tell the client. */
  const onMoved = (arg: EventDropArg | EventResizeDoneArg) => {
    const visit = arg.event.extendedProps.visit as VisitView;
    const start = wall(arg.event.start!.toISOString());
    const end = wall((arg.event.end ?? arg.event.start!).toISOString());
    const body: VisitChangeInput = {
      ...valuesOf(visit),
      date: start.date,
      start: start.time,
      end: end.date === start.date ? end.time : '23:59',
    };
    setAsking({ visit, body, revert: arg.revert });
  };

  /** The office's answer to "Tell the client?": the move is saved, with or without the e-mail. */
  const answer = (notifyClient: boolean) => {
    if (!asking) return;
    const { visit, revert } = asking;
    const body = { ...asking.body, notifyClient };
    setAsking(null);
    change.mutate(
      { visitId: visit._id, body },
      {
        onSuccess: () => toast.success(movedToast(notifyClient)),
        onError: (error) => {
          if (hasErrorCode(error, 'VISIT_CONFLICT')) setPendingMove({ visit, body, revert, message: error.message });
          else {
            revert();
            toast.error(error.message);
          }
        },
      },
    );
  };

  const moveAnyway = () =>
    change.mutate(
      { visitId: pendingMove!.visit._id, body: { ...pendingMove!.body, confirm: true } },
      {
        onSuccess: () => {
          toast.success(movedToast(pendingMove!.body.notifyClient ?? true));
          setPendingMove(null);
        },
        onError: (error) => {
          pendingMove?.revert();
          setPendingMove(null);
          toast.error(error.message);
        },
      },
    );

  /** Neither saved: the visit goes back where it was. */
  const putBack = () => {
    (asking ?? pendingMove)?.revert();
    setAsking(null);
    setPendingMove(null);
  };

  const newTime: NewTime | null = asking && { client: asking.visit.client.name, ...pick(asking.body) };
  return { onMoved, asking: newTime, answer, pendingMove, moveAnyway, putBack };
}

const pick = ({ date, start, end }: VisitChangeInput) => ({ date, start, end });
