import { z } from 'zod';

/** What the back office exports: a CSV per part of the business, and everything as one JSON. */
export const EXPORT_FILES = [
  { file: 'clients.csv', label: 'Clients', description: 'One row per client and property' },
  { file: 'requests.csv', label: 'Requests', description: 'Every quote request with its status' },
  { file: 'quotes.csv', label: 'Quotes', description: 'One row per line of every quote version' },
  { file: 'jobs.csv', label: 'Jobs', description: 'Every job with its crew and status' },
  { file: 'visits.csv', label: 'Visits', description: 'Every visit with its time and crew' },
  { file: 'invoices.csv', label: 'Invoices', description: 'Every invoice with its totals and balance' },
  { file: 'payments.csv', label: 'Payments', description: 'Every payment recorded' },
  { file: 'everything.json', label: 'Everything (JSON)', description: 'Every table, photos included, in one file' },
] as const;

export const exportParams = z.object({
  dataset: z.enum(['clients.csv', 'requests.csv', 'quotes.csv', 'jobs.csv', 'visits.csv', 'everything.json'], {
    error: 'No such export: choose clients.csv, requests.csv, quotes.csv, jobs.csv, visits.csv or everything.json',
  }),
});
