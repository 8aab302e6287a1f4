import { z } from 'zod';

/** The plain template's columns: the same as the clients export, so an export imports back. */
export const CLIENT_IMPORT_TEMPLATE = ['Name', 'Email', 'Phone', 'Street', 'City', 'State', 'Zip', 'Notes'] as const;

/** The largest file an import takes (about 20,000 clients), and the most rows. */
export const CLIENT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CLIENT_IMPORT_MAX_ROWS = 20_000;

export const IMPORT_FIELDS = [
  'name',
  'firstName',
  'lastName',
  'company',
  'email',
  'phone',
  'street',
  'street2',
  'city',
  'state',
  'zip',
  'billingStreet',
  'billingStreet2',
  'billingCity',
  'billingState',
  'billingZip',
  'notes',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  name: 'Name',
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company',
  email: 'E-mail',
  phone: 'Phone',
  street: 'Street',
  street2: 'Street (line 2)',
  city: 'City',
  state: 'State',
  zip: 'ZIP',
  billingStreet: 'Billing street',
  billingStreet2: 'Billing street (line 2)',
  billingCity: 'Billing city',
  billingState: 'Billing state',
  billingZip: 'Billing ZIP',
  notes: 'Notes',
};

/** A row left out, numbered as the spreadsheet numbers it (the header is row 1). */
const refusedRow = z.object({ row: z.number(), reason: z.string() });

const importedClient = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  /** Whether a client with this e-mail (or, without one, this phone) is already on file (their record is merged). */
  existing: z.boolean(),
});

/** POST /api/clients/import/preview: what importing the file would do; nothing is changed. */
export const clientImportPreview = z.object({
  /** Whose export the headers look like: Jobber, Housecall Pro, the template, or other. */
  source: z.string(),
  columns: z.array(z.object({ header: z.string(), field: z.enum(IMPORT_FIELDS).nullable() })),
  rows: z.number(),
  /** Clients after merging rows with the same e-mail (or, without one, the same phone). */
  clients: z.number(),
  newClients: z.number(),
  existingClients: z.number(),
  sample: z.array(importedClient),
  refused: z.array(refusedRow),
});
export type ClientImportPreview = z.infer<typeof clientImportPreview>;

/** POST /api/clients/import: what was done. */
export const clientImportResult = z.object({
  created: z.number(),
  merged: z.number(),
  addressesAdded: z.number(),
  refused: z.array(refusedRow),
});
export type ClientImportResult = z.infer<typeof clientImportResult>;
