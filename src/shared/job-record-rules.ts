// The crew record's rules, in one place: the server applies them when a change arrives, and the phone
// applies the same ones to show its changes not yet sent (apply-pending.ts), so what the crew sees
// offline is what the server will keep. Pure functions over plain values; no zod, no I/O.

/** A timer counts at most a day: a forgotten one is stopped there. */
export const MAX_TIMER_MINUTES = 1440;
const MINUTE_MS = 60_000;

/** Where a timer that ran from `startMs` to `endMs` ends: at most a day after its start, never before it. */
export function timerEnd(startMs: number, endMs: number): number {
  return Math.min(Math.max(endMs, startMs), startMs + MAX_TIMER_MINUTES * MINUTE_MS);
}

/** The whole minutes a timer counts (0 to a day). */
export function timerMinutes(startMs: number, endMs: number): number {
  return Math.round((timerEnd(startMs, endMs) - startMs) / MINUTE_MS);
}

/** A checklist item as the rules see it: the instant and the person are the caller's own types. */
export interface ChecklistState<At, Who> {
  fromQuote: boolean;
  text: string;
  doneAt: At | null;
  doneBy: Who | null;
}

/**
 * A checklist item after a change: a line of the sold quote keeps its words (the crew's own can be
 * reworded); ticking again keeps who ticked it first and when; unticking clears both.
 */
export function changedChecklistItem<At, Who>(
  current: ChecklistState<At, Who> | undefined,
  change: { text: string; done: boolean },
  now: At,
  who: Who,
): Pick<ChecklistState<At, Who>, 'text' | 'doneAt' | 'doneBy'> {
  return {
    text: current?.fromQuote ? current.text : change.text,
    doneAt: change.done ? (current?.doneAt ?? now) : null,
    doneBy: change.done ? (current?.doneBy ?? who) : null,
  };
}

/** A time entry as the rules see it (instants in milliseconds). */
export interface TimerState {
  id: string;
  workerId: string;
  startedMs: number | null;
  endedMs: number | null;
}

/** Starting a timer stops the worker's other running one: is `entry` such a timer? */
export function isStoppedByNewTimer(entry: TimerState, workerId: string, newTimerId: string): boolean {
  return entry.workerId === workerId && entry.id !== newTimerId && entry.startedMs !== null && entry.endedMs === null;
}

/** A start that arrives after its timer was stopped (a late retry) does not run it again. */
export function isLateStart(existing: TimerState | undefined, change: { startedMs: number; endedMs: number | null }) {
  return existing?.endedMs != null && change.endedMs === null && change.startedMs <= existing.endedMs;
}

/**
 * A material's unit price: the office's (who may also clear it); the one given by a crew member who
 * sees prices; the one it had while its name stays the same; the price list's for that name; else none.
 */
export function materialUnitPrice<Price>(input: {
  given: Price | null | undefined;
  mayGivePrice: boolean;
  office: boolean;
  current: { name: string; price: Price | null } | undefined;
  name: string;
  listed: Price | undefined;
}): Price | null {
  if (input.office && input.given === null) return null;
  const given = input.mayGivePrice && input.given !== undefined && input.given !== null ? input.given : undefined;
  const kept =
    input.current && input.current.name.toLowerCase() === input.name.toLowerCase() ? input.current.price : null;
  return given ?? kept ?? input.listed ?? null;
}
