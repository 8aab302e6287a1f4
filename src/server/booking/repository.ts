import { DEFAULT_BOOKING_WINDOWS } from '#shared/booking';
import type { BookingSettingsInput, BookingSettingsView } from '#shared/schemas/booking';
import type { DbOrTx } from '../db/client';
import { bookingSettings } from './tables';

/** Before the owner saves Settings → Online booking: three windows a weekday, changes open to 24 h before. */
export const DEFAULT_BOOKING: BookingSettingsView = {
  windows: DEFAULT_BOOKING_WINDOWS,
  leadBusinessDays: 1,
  horizonDays: 30,
  clientChanges: true,
  changeCutoffHours: 24,
  maxMoves: 2,
  onlineBooking: false,
  needsApproval: false,
  estimateMinutes: 60,
  estimateWorkerIds: [],
  bookingArea: [],
};

/** The booking rules as saved, or the defaults. */
export async function bookingRules(db: DbOrTx): Promise<BookingSettingsView> {
  return (await bookingRulesWithStamp(db)).rules;
}

/** The rules and when they were last saved (a cache of what they decide is known by it). */
export async function bookingRulesWithStamp(db: DbOrTx): Promise<{ rules: BookingSettingsView; savedAt: number }> {
  const [row] = await db.select().from(bookingSettings).limit(1);
  if (!row) return { rules: DEFAULT_BOOKING, savedAt: 0 };
  const { id: _one, updatedAt, ...rules } = row;
  return { rules, savedAt: updatedAt.getTime() };
}

export async function saveBookingRules(db: DbOrTx, input: BookingSettingsInput): Promise<BookingSettingsView> {
  const values = { ...input, updatedAt: new Date() };
  await db
    .insert(bookingSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: bookingSettings.id, set: values });
  return bookingRules(db);
}
