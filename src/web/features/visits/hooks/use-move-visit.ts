import type { EventDropArg } from '@fullcalendar/core';
import type { EventResizeDoneArg } from '@fullcalendar/interaction';
import { useState } from 'react';
import type { VisitInput, VisitView } from '#shared/schemas/visits';
import { hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { useVisitChanges } from '../api/visits';
import { valuesOf } from '../components/visit-dialog';
import { wall } from '../wall-clock';

/** A move the server warned about (a worker busy or unavailable then), waiting for the office's answer. */
export type PendingMove = { visit: VisitView; body: VisitInput; revert: () => void; message: string };

/**
 * Dragging or resizing a visit on the calendar: the new wall-clock times are saved; when a worker is
 * busy then, the move waits (`pendingMove`) until the office moves it anyway or puts it back.
 */
export function useMoveVisit(change: ReturnType<typeof useVisitChanges>['change']) {
  const [pendingMove, setPendingMove] = useState<PendingMove | null>(null);

  /** A drag or a resize: the new wall-clock times, saved; a warning asks before booking anyway. */
  const onMoved = (arg: EventDropArg | EventResizeDoneArg) => {
    const visit = arg.event.extendedProps.visit as VisitView;
    const start = wall(arg.event.start!.toISOString());
    const end = wall((arg.event.end ?? arg.event.start!).toISOString());
    const body: VisitInput = {
      ...valuesOf(visit),
      date: start.date,
      start: start.time,
      end: end.date === start.date ? end.time : '23:59',
    };
    change.mutate(
      { visitId: visit._id, body },
      {
        onSuccess: () => toast.success('Visit moved: the client is e-mailed the new time'),
        onError: (error) => {
          if (hasErrorCode(error, 'VISIT_CONFLICT'))
            setPendingMove({ visit, body, revert: arg.revert, message: error.message });
          else {
            arg.revert();
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
          toast.success('Visit moved: the client is e-mailed the new time');
          setPendingMove(null);
        },
        onError: (error) => {
          pendingMove?.revert();
          setPendingMove(null);
          toast.error(error.message);
        },
      },
    );

  const putBack = () => {
    pendingMove?.revert();
    setPendingMove(null);
  };

  return { onMoved, pendingMove, moveAnyway, putBack };
}
