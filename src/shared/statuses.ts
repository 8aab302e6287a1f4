/**
 * Every status list and the moves between statuses: one source for the server, the office screens,
 * the crew's phone and the database's CHECK constraints (migration 0004).
 */
import {
  JOB_STATUSES,
  QUOTE_REQUEST_STATUSES,
  QUOTE_STATUSES,
  type JobStatus,
  type QuoteRequestStatus,
  type QuoteStatus,
} from './constants';

export {
  JOB_STATUSES,
  QUOTE_REQUEST_STATUSES,
  QUOTE_STATUSES,
  type JobStatus,
  type QuoteRequestStatus,
  type QuoteStatus,
};

/** A request: the owner accepts or declines it while Pending; an accepted one moves on when its quote is sent. */
export const QUOTE_REQUEST_TRANSITIONS: Record<QuoteRequestStatus, readonly QuoteRequestStatus[]> = {
  Pending: ['Accepted', 'Declined'],
  Accepted: ['Quote Sent'],
  'Quote Sent': [],
  Declined: [],
};

/**
 * A quote: the client accepts, declines or asks a question; a question leaves the quote open (the
 * client may ask again, accept or decline), and the owner's answer puts it back to awaiting the
 * client. Accepted and Declined are final for that version: a revision sends a new one.
 */
export const QUOTE_TRANSITIONS: Record<QuoteStatus, readonly QuoteStatus[]> = {
  Pending: ['Accepted', 'Declined', 'Requested More Info'],
  Accepted: [],
  Declined: [],
  'Requested More Info': ['Accepted', 'Declined', 'Requested More Info', 'Pending'],
};

/**
 * Where a request's quote stands, as the request list, its filter, the dashboard and the client's
 * status page name it (beside the spec's four request statuses).
 */
export const QUOTE_STATE_LABELS: Record<QuoteStatus, string> = {
  Pending: 'Awaiting the client',
  'Requested More Info': 'Question asked',
  Accepted: 'Accepted (job created)',
  Declined: 'Declined by the client',
};

/** A quote the owner may still replace with a new version: anything but an accepted one. */
export const REVISABLE_QUOTE_STATUSES = [
  'Pending',
  'Requested More Info',
  'Declined',
] as const satisfies readonly QuoteStatus[];

/**
 * A job, as the office moves it: forward through the work, cancelled (with a reason) before it is
 * done, or a completed one reopened. A cancellation is undone by "undo", which puts back the status
 * the job had.
 */
export const JOB_TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  'Not Started': ['In Progress', 'Cancelled'],
  'In Progress': ['Completed', 'Cancelled'],
  Completed: ['In Progress'],
  Cancelled: [],
};

/** What the crew may do from the field: forward only. */
export const CREW_TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  'Not Started': ['In Progress'],
  'In Progress': ['Completed'],
  Completed: [],
  Cancelled: [],
};

/** What the crew may do from the field: start the work, then finish it (never cancel). */
export const CREW_JOB_MOVES = ['In Progress', 'Completed'] as const satisfies readonly JobStatus[];
export type CrewJobMove = (typeof CREW_JOB_MOVES)[number];

/** The crew's next move on a job, if there is one. */
export function nextCrewMove(status: JobStatus): CrewJobMove | null {
  return (
    CREW_TRANSITIONS[status].find((s): s is CrewJobMove => (CREW_JOB_MOVES as readonly string[]).includes(s)) ?? null
  );
}

/** Jobs still to do: the crew's list and the office's "open" filter. */
export const OPEN_JOB_STATUSES = ['Not Started', 'In Progress'] as const satisfies readonly JobStatus[];

/** A job still to do (not completed or cancelled): the one rule the server, the office and the crew use. */
export const isOpenJob = (status: JobStatus): status is (typeof OPEN_JOB_STATUSES)[number] =>
  (OPEN_JOB_STATUSES as readonly JobStatus[]).includes(status);

export function canMove<S extends string>(transitions: Record<S, readonly S[]>, from: S, to: S): boolean {
  return transitions[from].includes(to);
}
