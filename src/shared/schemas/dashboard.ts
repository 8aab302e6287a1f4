import { z } from 'zod';

/** How many records each "Needs you today" list shows (its count says how many there are). */
export const NEEDS_YOU_LIST_LIMIT = 5;

/** One record that waits for the owner: the record to open (none when no page acts on it) and how it reads. */
export const needsYouItem = z.object({
  id: z.string().nullable(),
  label: z.string(),
  detail: z.string(),
});

export const needsYouList = z.object({
  count: z.number().int(),
  items: z.array(needsYouItem),
});
export type NeedsYouList = z.infer<typeof needsYouList>;

/** The admin dashboard's "Needs you today": what waits for the owner, today in the business's time zone. */
export const needsYouToday = z.object({
  /** Today (YYYY-MM-DD) in the business's time zone. */
  date: z.string(),
  /** Booked visits starting today; each opens its job. */
  visits: needsYouList,
  /** Tomorrow's booked visits the client has not confirmed (decision 045); each opens its job. */
  unconfirmedVisits: needsYouList,
  /** Requests accepted for quoting with no quote sent yet; each opens the request. */
  acceptedRequests: needsYouList,
  /** Open jobs with no booked visit; each opens the job. */
  jobsWithoutVisit: needsYouList,
  /** Completed jobs with no invoice yet; each opens the job. */
  jobsToInvoice: needsYouList,
  /** Sent deposit invoices with something still owed; each opens the invoice. */
  unpaidDeposits: needsYouList,
  /** E-mails the relay could not deliver; each opens the request whose history can send it again. */
  failingEmails: needsYouList,
  /** Texts of the last week that failed or were not sent; each opens the client (decision 045). */
  failingTexts: needsYouList,
});
export type NeedsYouToday = z.infer<typeof needsYouToday>;
