import { z } from 'zod';
import { QUOTE_REQUEST_STATUSES, QUOTE_STATUSES, JOB_STATUSES } from '../constants';
import { invoiceSummary } from './invoices';
import { pageQuery } from './paging';
import { MESSAGE_CHANNELS } from './texts';

export const clientAddress = z.object({
  _id: z.string(),
  /** What the client calls the place ("Store #12"); '' when unnamed. */
  label: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});

export const clientView = z.object({
  _id: z.string(),
  name: z.string(),
  /** A commercial client's company ('' for a household). */
  companyName: z.string(),
  email: z.string(),
  phone: z.string(),
  /** The mobile texts go to, in E.164 ('' when none; decision 045). */
  mobile: z.string(),
  /** How they want to hear from us (texts only when texts are set up in Settings). */
  messageChannel: z.enum(MESSAGE_CHANNELS),
  notes: z.string(),
  /** Where bills go, when the client gave one apart from their properties (an import's billing address). */
  billingAddress: z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string() }).nullable(),
  addresses: z.array(clientAddress),
  createdAt: z.string(),
});
export type ClientView = z.infer<typeof clientView>;

export const clientListQuery = pageQuery;

export const clientList = z.object({
  clients: z.array(clientView),
  totalPages: z.number(),
  total: z.number(),
});
export type ClientList = z.infer<typeof clientList>;

/** PUT /api/clients/:id: what the office may change (the e-mail identifies the client and stays). */
const addressPart = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** A street address: a service address, or where the bills go. */
export const streetAddressInput = z.object({
  street: addressPart('Street', 200),
  city: addressPart('City', 100),
  state: addressPart('State', 50),
  zip: addressPart('Zip', 20),
});

export const clientUpdateInput = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(120),
  phone: z.string().trim().max(40, 'Phone must be at most 40 characters'),
  notes: z.string().trim().max(5000, 'Notes must be at most 5000 characters'),
  /** A commercial client's company; left out, unchanged. */
  companyName: z.string().trim().max(200, 'Company name must be at most 200 characters').optional(),
  /** Where the bills go when not to the property (null: to the property); left out, unchanged. */
  billingAddress: streetAddressInput.nullable().optional(),
  /** The mobile texts go to, as typed ('' for none; the server reads it as E.164); left out, unchanged. */
  mobile: z.string().trim().max(40, 'Mobile must be at most 40 characters').optional(),
  messageChannel: z.enum(MESSAGE_CHANNELS, { error: 'Choose e-mail, text or both' }).optional(),
});

/** POST /api/clients/:id/addresses: another place the client has us work. */
export const serviceAddressInput = streetAddressInput.extend({
  label: z
    .string()
    .trim()
    .max(80, 'Label must be at most 80 characters')
    .optional()
    .transform((v) => v ?? ''),
});
export type ServiceAddressInput = z.input<typeof serviceAddressInput>;
export type ClientUpdateInput = z.infer<typeof clientUpdateInput>;

/** Everything of a client's, each with where it stands. */
export const clientHistory = z.object({
  requests: z.array(
    z.object({
      _id: z.string(),
      quoteNumber: z.string(),
      status: z.enum(QUOTE_REQUEST_STATUSES),
      quoteState: z.enum(QUOTE_STATUSES).nullable(),
      address: z.string(),
      createdAt: z.string(),
    }),
  ),
  quotes: z.array(
    z.object({
      quoteId: z.string(),
      quoteRequestId: z.string(),
      projectName: z.string(),
      status: z.enum(QUOTE_STATUSES),
      current: z.boolean(),
      total: z.number(),
      quoteDate: z.string(),
    }),
  ),
  jobs: z.array(
    z.object({
      _id: z.string(),
      status: z.enum(JOB_STATUSES),
      quoteRequestId: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  /** Every invoice of theirs, newest first, as the Invoices list shows it. */
  invoices: z.array(invoiceSummary),
  /** What they owe: the balances of their sent invoices (dollars). */
  balance: z.number(),
});
export type ClientHistory = z.infer<typeof clientHistory>;

export const clientDetail = clientView.extend({ history: clientHistory });
export type ClientDetail = z.infer<typeof clientDetail>;
