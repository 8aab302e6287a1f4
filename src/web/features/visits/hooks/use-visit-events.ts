import type { EventInput } from '@fullcalendar/core';
import { useMemo } from 'react';
import type { VisitView } from '#shared/schemas/visits';
import { asWall } from '../wall-clock';
import { workerColor } from '../worker-colors';

/**
 * The calendar's events for visits: titled with the client and the crew, coloured by the first
 * worker's colour, at the business's wall-clock times. A cancelled visit is not on the calendar (the
 * ranges the calendar asks for leave them out already; the job page lists them).
 */
export function visitEvents(visits: readonly VisitView[]): EventInput[] {
  return visits
    .filter((v) => !v.cancelled)
    .map((v) => ({
      id: v._id,
      // A visit the client confirmed starts with a tick (decision 045).
      // An estimate visit (issue 31) says so: it has no job yet, only its request; one booked online
      // that waits for the office's approval says that too.
      title: `${v.confirmedAt ? '✓ ' : ''}${v.jobId ? '' : v.awaitingApproval ? 'Estimate to approve: ' : 'Estimate: '}${v.client.name}${v.workers.length ? ` · ${v.workers.map((w) => w.fullName).join(', ')}` : ''}`,
      start: asWall(v.date, v.start),
      end: asWall(v.date, v.end === '24:00' ? '23:59' : v.end),
      backgroundColor: workerColor(v.workers[0]?._id),
      borderColor: workerColor(v.workers[0]?._id),
      textColor: '#ffffff',
      extendedProps: { visit: v },
    }));
}

/** `visitEvents`, made again only when the visits loaded change. */
export function useVisitEvents(visits: readonly VisitView[] | undefined): EventInput[] {
  return useMemo(() => visitEvents(visits ?? []), [visits]);
}
