import type { AuditKind } from '../../shared/schemas/audit';

/** What each audited route does, in the words the Activity page shows. */
const ACTIONS: Record<string, [AuditKind, string]> = {
  'POST /api/logout': ['sign-in', 'Signed out'],
  'POST /api/users/:id/end-sessions': ['users', 'Signed a user out everywhere'],
  'POST /api/users/:id/calendar-feed/reset': ['users', "Ended a user's calendar feed address"],
  'POST /api/users/adduser': ['users', 'Created a user'],
  'POST /api/users/updateuser': ['users', 'Changed a user'],
  'DELETE /api/users/:id': ['users', 'Deleted a user'],
  'PUT /api/my/schedule': ['users', 'Changed their schedule'],
  'PUT /api/clients/:id': ['clients', 'Changed a client'],
  'POST /api/clients/import': ['data', 'Imported clients'],
  'POST /api/quoterequest/staff-entry': ['requests', 'Entered a request'],
  'PUT /api/quoterequest/markAccepted/:id': ['requests', 'Accepted a request'],
  'POST /api/quoterequest/markDeclined': ['requests', 'Declined a request'],
  'POST /api/quotes/createNew': ['quotes', 'Created a quote'],
  'POST /api/quotes/sendQuote': ['quotes', 'Sent a quote'],
  'POST /api/quotes/revise': ['quotes', 'Revised a quote'],
  'POST /api/quotes/:quoteId/reply': ['quotes', "Answered a client's question"],
  'POST /api/jobs/:id/assign': ['jobs', 'Assigned a job'],
  'PATCH /api/jobs/:id/status': ['jobs', "Changed a job's status"],
  'POST /api/jobs/:id/undo-cancel': ['jobs', "Undid a job's cancellation"],
  'PATCH /api/my/jobs/:id/status': ['jobs', "Changed a job's status (crew)"],
  'POST /api/my/jobs/:id/complete': ['jobs', 'Completed a job'],
  'PUT /api/my/jobs/:id/checklist/:itemId': ['crew', 'Saved a checklist item'],
  'DELETE /api/my/jobs/:id/checklist/:itemId': ['crew', 'Removed a checklist item'],
  'PUT /api/my/jobs/:id/time/:itemId': ['crew', 'Saved time worked'],
  'DELETE /api/my/jobs/:id/time/:itemId': ['crew', 'Removed time worked'],
  'PUT /api/my/jobs/:id/materials/:itemId': ['crew', 'Saved a material'],
  'DELETE /api/my/jobs/:id/materials/:itemId': ['crew', 'Removed a material'],
  'PUT /api/my/jobs/:id/photos/:itemId': ['crew', 'Added a photo'],
  'DELETE /api/my/jobs/:id/photos/:itemId': ['crew', 'Removed a photo'],
  'PUT /api/my/jobs/:id/notes': ['crew', 'Wrote notes for the office'],
  'PUT /api/my/jobs/:id/signature': ['crew', "Took the client's signature"],
  'PUT /api/jobs/:id/materials/:itemId': ['jobs', 'Priced a material'],
  'DELETE /api/jobs/:id/materials/:itemId': ['jobs', 'Removed a material'],
  'POST /api/jobs/:id/visits': ['visits', 'Booked a visit'],
  'PATCH /api/visits/:id': ['visits', 'Changed a visit'],
  'POST /api/visits/:id/cancel': ['visits', 'Cancelled a visit'],
  'POST /api/calendar-feeds/company/regenerate': ['visits', "Made a new address for the company's calendar feed"],
  'POST /api/my/calendar-feed/regenerate': ['visits', 'Made a new address for their calendar feed'],
  'POST /api/jobs/:id/invoice': ['invoices', 'Drafted an invoice'],
  'PUT /api/invoices/:id': ['invoices', 'Changed a draft invoice'],
  'DELETE /api/invoices/:id': ['invoices', 'Deleted a draft invoice'],
  'POST /api/invoices/:id/send': ['invoices', 'Sent an invoice'],
  'POST /api/invoices/:id/payments': ['invoices', 'Recorded a payment'],
  'POST /api/invoices/:id/void': ['invoices', 'Voided an invoice'],
  'GET /api/invoices.csv': ['data', 'Exported invoices (CSV)'],
  'GET /api/payments.csv': ['data', 'Exported payments (CSV)'],
  'PUT /api/settings': ['settings', 'Changed the settings'],
  'PUT /api/settings/logo': ['settings', 'Changed the logo'],
  'DELETE /api/settings/logo': ['settings', 'Removed the logo'],
  'POST /api/mail/:id/send-again': ['mail', 'Sent an e-mail again'],
  'GET /api/backups/download': ['data', 'Downloaded a backup'],
  'GET /api/export/:dataset': ['data', 'Exported data'],
};

const KIND_BY_SEGMENT: Record<string, AuditKind> = {
  users: 'users',
  clients: 'clients',
  quoterequest: 'requests',
  quotes: 'quotes',
  jobs: 'jobs',
  my: 'crew',
  visits: 'visits',
  invoices: 'invoices',
  settings: 'settings',
  mail: 'mail',
  backups: 'data',
  export: 'data',
};

/** The kind and words for a route; a route not listed yet still gets recorded, by its address. */
export function describeRoute(method: string, url: string): { kind: AuditKind; action: string } {
  const known = ACTIONS[`${method} ${url}`];
  if (known) return { kind: known[0], action: known[1] };
  const segment = url.split('/')[2] ?? '';
  return { kind: KIND_BY_SEGMENT[segment] ?? 'data', action: `${method} ${url}` };
}

const HIDDEN = /pass(word)?|secret|token|signature/i;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A lone UTF-16 surrogate cannot be stored as text (JSON in the database refuses it): shown as U+FFFD. */
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');
const LONGEST = 200;

/**
 * What was sent, fit for the trail: passwords, tokens and signatures hidden; long values (a photo's
 * data URL) replaced by their length; at most 60 keys per object and 50 items per list, 4 levels.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > LONGEST ? `(${value.length} characters)` : wellFormed(value);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 4) return '(…)';
  if (Array.isArray(value)) {
    const items = value.slice(0, 50).map((v) => redact(v, depth + 1));
    return value.length > 50 ? [...items, `(${value.length - 50} more)`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, 60)) {
    out[wellFormed(key)] = HIDDEN.test(key) ? '(hidden)' : redact(v, depth + 1);
  }
  return out;
}
