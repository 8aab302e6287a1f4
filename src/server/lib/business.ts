import type { HowClientsPay } from '#shared/schemas/settings';

/** The business as e-mails and PDFs name it. */
export interface Business {
  name: string;
  email: string;
  phone: string;
}

/**
 * The business's details and rules as the Settings page keeps them: what every page, e-mail and
 * PDF reads at the moment it is made, so a change applies without a restart.
 */
export interface BusinessSettings extends Business {
  address: string;
  /** The contractor's license number, printed on quotes, invoices and job reports; empty: none. */
  licenseNumber: string;
  serviceAreaHeadline: string;
  serviceArea: string[];
  /** 800 = 8%. New quotes are priced at it; a sent quote keeps its own. */
  taxRateBasisPoints: number;
  /** How long a client's quote link stays valid. */
  quoteValidityDays: number;
  /** Days after sending when an unanswered quote gets a polite reminder (at most two). */
  quoteReminderDays: number[];
  /** Where the owner's notices go. */
  ownerEmail: string;
  timeZone: string;
  /** Days after an invoice's due date when an unpaid one gets a reminder. */
  invoiceReminderDays: number[];
  /** Whether the crew sees prices (the owner's choice). */
  crewSeesPrices: boolean;
  crewLeadsSeePrices: boolean;
  webhooksAllowPrivate: boolean;
  /** Owner and Office must sign in with two steps. */
  requireTwoStep: boolean;
  /** How many daily backups to keep (embedded database). */
  backupsToKeep: number;
  /** The arrival window a visit is shown to its client as (minutes from its start); 0: its own times. */
  arrivalWindowMinutes: number;
  /** The materials the crew picks from, priced in cents, taxed or not when billed. */
  /** Whether new material and labor lines are charged sales tax unless switched on the line. */
  materialsTaxable: boolean;
  laborTaxable: boolean;
  /** How clients pay: printed on every invoice (see shared/how-to-pay.ts). */
  howClientsPay: HowClientsPay;
  /** Changes whenever the logo does (a cache-busting version for its address); null without a logo. */
  logoVersion: string | null;
  /**
   * The hours no text goes out (TEXTS_QUIET_HOURS; null: none), for the messages that ask whether a
   * text would still arrive in time (a visit's reminder). Unset: the default 9 PM to 8 AM.
   */
  textQuietHours?: { from: string; until: string } | null;
}

/** Where the app reads the current settings (the settings feature provides it as `app.settings`). */
export interface SettingsSource {
  current(): Promise<BusinessSettings>;
  /** Today's date (YYYY-MM-DD) in the Settings' time zone. */
  today(): Promise<string>;
  /** The logo as PNG bytes, or undefined without one. */
  logo(): Promise<Buffer | undefined>;
}
