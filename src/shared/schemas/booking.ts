import { z } from 'zod';
import { bookingWindows } from '../booking';
import { errorResponse } from './errors';
export { estimatePick, type EstimatePick } from './quote-request';

/** Settings → Online booking (decision 046), as the owner reads and writes it. */
export const bookingSettingsInput = z.object({
  windows: bookingWindows,
  leadBusinessDays: z.coerce.number().int().min(0).max(30),
  horizonDays: z.coerce.number().int().min(1).max(120),
  clientChanges: z.boolean(),
  changeCutoffHours: z.coerce.number().int().min(0).max(168),
  maxMoves: z.coerce.number().int().min(0).max(10),
  /** Visitors book an estimate visit on Get a Quote (issue 31). */
  onlineBooking: z.boolean(),
  /** The office approves each online booking (the window held meanwhile) instead of it being booked at once. */
  needsApproval: z.boolean().default(false),
  estimateMinutes: z.coerce.number().int().min(15).max(480),
  estimateWorkerIds: z.array(z.string().max(64)).max(50),
  bookingArea: z.array(z.string().trim().min(1).max(100)).max(200),
});
export type BookingSettingsInput = z.infer<typeof bookingSettingsInput>;
export const bookingSettingsView = bookingSettingsInput;
export type BookingSettingsView = z.infer<typeof bookingSettingsView>;

/** A window a client may pick: its day and wall-clock times on the business's clock. */
export const windowView = z.object({ date: z.string(), start: z.string(), end: z.string() });
export type WindowView = z.infer<typeof windowView>;

/** Why a client cannot change a visit themselves: off, too close, moved too often, over. */
export const CHANGE_CLOSED_REASONS = ['off', 'cutoff', 'moves'] as const;

/** What the client may do with one of their visits, and the windows it may move to. */
export const visitChangeOptions = z.object({
  /** Whether Reschedule and Cancel are open; when not, `closed` says why and `phone` whom to call. */
  open: z.boolean(),
  closed: z.enum(CHANGE_CLOSED_REASONS).nullable(),
  /** Until when (an instant) they may change it themselves. */
  until: z.string().nullable(),
  movesLeft: z.number().int(),
  phone: z.string(),
  windows: z.array(windowView),
});
export type VisitChangeOptions = z.infer<typeof visitChangeOptions>;

export const rescheduleInput = z.object({
  token: z.string().max(2000),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Pick a day'),
  start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Pick a window'),
});
export type RescheduleInput = z.infer<typeof rescheduleInput>;

export const cancelByClientInput = z.object({
  token: z.string().max(2000),
  reason: z.string().trim().min(1, 'Tell us why, so we can help').max(500, 'Keep it under 500 characters'),
});
export type CancelByClientInput = z.infer<typeof cancelByClientInput>;

/** The visit's new time as the client's messages read it. */
export const rescheduleAnswer = z.object({ when: z.string() });
export const cancelByClientAnswer = z.object({ cancelled: z.literal(true) });

/** 409 WINDOW_TAKEN: the window went to someone else first; these are free now. */
export const windowTaken = errorResponse.extend({ windows: z.array(windowView) });

/** GET /api/booking/windows: whether visitors may book an estimate visit now, and the windows free. */
export const estimateWindows = z.object({
  open: z.boolean(),
  /** How long the visit lasts, in minutes. */
  minutes: z.number().int(),
  /** The office approves each booking: the visitor's window is held until it does. */
  needsApproval: z.boolean(),
  windows: z.array(windowView),
});
export type EstimateWindows = z.infer<typeof estimateWindows>;

/** Whether a request's place is where the owner books online: its ZIP or its city on the list; an empty list is anywhere. */
export function inBookingArea(area: string[], place: { city: string; zip: string }): boolean {
  if (area.length === 0) return true;
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
  const zip = place.zip.trim().slice(0, 5);
  return area.some((entry) => norm(entry) === norm(place.city) || entry.trim() === zip);
}
