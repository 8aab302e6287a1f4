import { ARRIVAL_WINDOWS, DEFAULT_ARRIVAL_WINDOW } from '../arrival-window';
import { z } from 'zod';
import { messages } from '../messages';
import { twoDecimals } from './numbers';
import { imageDataUrl } from './quote-request';

/** Whether the platform knows the zone (IANA names such as America/Los_Angeles). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const email = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(254, messages.emailInvalid)
    .pipe(z.email(messages.emailInvalid));

/** A place served: a city or county ("Roseville", "Placer County") or a five-digit ZIP code. */
const place = z
  .string()
  .trim()
  .min(1, 'Remove the empty place')
  .max(60, 'Each place must be at most 60 characters')
  .regex(/^[\p{L}\p{M}0-9 .,'’()-]+$/u, 'Each place is a city, a county or a ZIP code');

/** Days after something (a quote sent, an invoice's due date) when a reminder goes: a few, different. */
const reminderDays = (after: string, most: number, tooMany: string, repeated: string) =>
  z
    .array(
      z
        .number({ error: 'Reminder days must be numbers' })
        .int('Reminder days must be whole days')
        .min(1, `A reminder comes at least 1 day after ${after}`)
        .max(365, `A reminder comes at most 365 days after ${after}`),
    )
    .max(most, tooMany)
    .refine((days) => new Set(days).size === days.length, repeated);

const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).default('');

/** Settings → "How clients pay": what every invoice (e-mail, page, PDF) and the deposit request print. */
export const howClientsPay = z.object({
  /** "Make checks payable to"; empty with an address: the business's name. */
  checkPayee: optionalText('Payee for checks', 100),
  checkAddress: optionalText('Mailing address for checks', 300),
  /** Zelle or bank transfer details, as the owner writes them. */
  bankTransfer: optionalText('Zelle or bank transfer details', 500),
  cardByPhone: z.boolean().default(false),
  /** The number to call to pay by card; empty: the business's phone. */
  cardPhone: z
    .string()
    .trim()
    .max(40, 'Phone for card payments must be at most 40 characters')
    .regex(/^$|^[0-9+().\s-]{7,}$/, 'Enter a phone number, e.g. (916) 555-0142')
    .default(''),
});
export type HowClientsPay = z.infer<typeof howClientsPay>;
export const noPaymentDetails: HowClientsPay = {
  checkPayee: '',
  checkAddress: '',
  bankTransfer: '',
  cardByPhone: false,
  cardPhone: '',
};

/** PUT /api/settings and the Settings form: one schema for both. */
export const settingsInput = z.object({
  businessName: text('Business name', 100),
  businessEmail: email('Business e-mail'),
  businessPhone: text('Business phone', 40).regex(/^[0-9+().\s-]{7,}$/, 'Enter a phone number, e.g. (916) 555-0142'),
  businessAddress: z.string().trim().max(200, 'Address must be at most 200 characters'),
  /** The contractor's license number (California's CSLB), printed on every PDF; empty: none. */
  licenseNumber: optionalText('License number', 40),
  serviceAreaHeadline: text('Service area headline', 120),
  serviceArea: z.array(place).max(100, 'At most 100 places'),
  /** Percent, at most two decimals (8.75): stored as basis points. */
  taxRatePercent: twoDecimals('Tax rate', { min: 0, max: 50, unit: '%' }),
  quoteValidityDays: z
    .number({ error: 'Quote validity must be a number of days' })
    .int('Quote validity must be a whole number of days')
    .min(1, 'Quote validity must be at least 1 day')
    .max(365, 'Quote validity must be at most 365 days'),
  /** Days after sending when an unanswered quote gets a reminder: at most two, none if empty. */
  quoteReminderDays: reminderDays('the quote', 2, 'At most two reminders', 'Choose two different days'),
  ownerEmail: email('Owner notices e-mail'),
  timeZone: z.string().trim().min(1, 'Time zone is required').max(64).refine(isTimeZone, 'Choose a known time zone'),
  /** Days after an invoice's due date when an unpaid one gets a reminder: at most three, none if empty. */
  invoiceReminderDays: reminderDays(
    'the due date',
    3,
    'At most three invoice reminders',
    'Choose different days',
  ).default([7, 14]),
  /** Whether a new material line is charged sales tax unless switched off on the line. */
  materialsTaxable: z.boolean().default(true),
  /** Whether a new labor line is: repair labor is not taxed in California. */
  laborTaxable: z.boolean().default(false),
  /** Whether the crew sees prices: the price book's materials' and those of what they add. */
  crewSeesPrices: z.boolean().default(false),
  crewLeadsSeePrices: z.boolean().default(false),
  webhooksAllowPrivate: z.boolean().default(false),
  /** Whether Owner and Office accounts must sign in with two steps (decision 040). */
  requireTwoStep: z.boolean().default(false),
  /** How many daily backups of the embedded database are kept in DATA_DIR/backups. */
  backupsToKeep: z
    .number({ error: 'Backups to keep must be a number' })
    .int('Backups to keep must be a whole number')
    .min(1, 'Keep at least 1 backup')
    .max(365, 'Keep at most 365 backups')
    .default(14),
  /** The arrival window clients are given for a visit (minutes from its start); 0: the visit's own times. */
  arrivalWindowMinutes: z
    .number({ error: 'Choose an arrival window' })
    .refine((m) => (ARRIVAL_WINDOWS as readonly number[]).includes(m), 'Choose an arrival window')
    .default(DEFAULT_ARRIVAL_WINDOW),
  howClientsPay: howClientsPay.default(noPaymentDetails),
});
export type SettingsInput = z.infer<typeof settingsInput>;

/** GET /api/settings: the values, and where the logo is served (null without one). */
export const settingsView = settingsInput.extend({
  logoUrl: z.string().nullable(),
  updatedAt: z.string(),
});
export type SettingsView = z.infer<typeof settingsView>;

/** PUT /api/settings/logo: one image, checked on the server like a client's photos. */
export const logoInput = z.object({ image: imageDataUrl });
