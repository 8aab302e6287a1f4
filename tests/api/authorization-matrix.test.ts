import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '#shared/schemas/settings';
import type { TwoStepEnrolment } from '#shared/schemas/two-step';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';
import type { Access } from '#shared/roles';

/** What the guard lets through: `ok` means any answer but 401/403 (the route's own checks decide). */
type Expect = number | 'ok';

interface Row {
  access: Access;
  /** A concrete URL for routes with parameters. */
  url?: string;
  body?: unknown;
  anonymous: Expect;
  crew: Expect;
  crewLead: Expect;
  office: Expect;
  owner: Expect;
}

type Who = 'anonymous' | 'crew' | 'crewLead' | 'office' | 'owner';
const PUBLIC: Pick<Row, Who> = { anonymous: 'ok', crew: 'ok', crewLead: 'ok', office: 'ok', owner: 'ok' };
const STAFF: Pick<Row, Who> = { anonymous: 401, crew: 'ok', crewLead: 'ok', office: 'ok', owner: 'ok' };
/** Requests, quotes, clients, calendar, jobs, invoices, payments, reports (decision 042). */
const OFFICE: Pick<Row, Who> = { anonymous: 401, crew: 403, crewLead: 403, office: 'ok', owner: 'ok' };
/** Users, settings, backups and exports, the trail, the system, API keys. */
const OWNER: Pick<Row, Who> = { anonymous: 401, crew: 403, crewLead: 403, office: 403, owner: 'ok' };

/**
 * Every /api route × anonymous and the four team roles. A route missing here fails the first test, so
 * a new route cannot be added without saying who may call it.
 */
export const matrix: Record<string, Row> = {
  'GET /api/health': { access: 'public', ...PUBLIC },
  'GET /api/system': { access: 'owner', ...OWNER },
  'POST /api/login': {
    access: 'public',
    body: { username: 'nobody', password: 'wrong' },
    anonymous: 401,
    crew: 401,
    crewLead: 401,
    office: 401,
    owner: 401,
  },
  'GET /api/login/user-role': { access: 'public', anonymous: 401, crew: 200, crewLead: 200, office: 200, owner: 200 },
  'POST /api/quoterequest/create': {
    access: 'public',
    body: {},
    anonymous: 400,
    crew: 400,
    crewLead: 400,
    office: 400,
    owner: 400,
  },
  'GET /api/quoterequest/status/:quoteNumber': {
    access: 'public',
    url: '/api/quoterequest/status/Q000000000',
    anonymous: 404,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'GET /api/quoterequest/status/:quoteNumber/timeline': {
    access: 'public',
    url: '/api/quoterequest/status/Q000000000/timeline',
    anonymous: 404,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'POST /api/contact': {
    access: 'public',
    body: {},
    anonymous: 400,
    crew: 400,
    crewLead: 400,
    office: 400,
    owner: 400,
  },
  'GET /api/quoterequest/images/:imageId': {
    access: 'public',
    url: '/api/quoterequest/images/x',
    anonymous: 401,
    crew: 401,
    crewLead: 401,
    office: 401,
    owner: 401,
  },
  'GET /api/quoterequest/all': { access: 'office', ...OFFICE },
  'GET /api/quoterequest/byStatus': { access: 'office', url: '/api/quoterequest/byStatus?status=Pending', ...OFFICE },
  'GET /api/quoterequest/:id': { access: 'office', url: '/api/quoterequest/none', ...OFFICE },
  'PUT /api/quoterequest/markAccepted/:id': { access: 'office', url: '/api/quoterequest/markAccepted/none', ...OFFICE },
  'POST /api/quoterequest/markDeclined': {
    access: 'office',
    body: { quoteRequestId: 'none', reasonForDecline: 'x' },
    ...OFFICE,
  },
  'GET /api/dashboard': { access: 'office', ...OFFICE },
  'GET /api/dashboard/today': { access: 'office', ...OFFICE },
  'GET /api/settings': { access: 'owner', ...OWNER },
  'PUT /api/settings': { access: 'owner', body: {}, ...OWNER },
  'PUT /api/settings/logo': { access: 'owner', body: {}, ...OWNER },
  'DELETE /api/settings/logo': { access: 'owner', ...OWNER },
  'GET /api/price-book': { access: 'office', ...OFFICE },
  'POST /api/price-book': { access: 'office', body: {}, ...OFFICE },
  'PUT /api/price-book/:id': { access: 'office', url: '/api/price-book/x', body: {}, ...OFFICE },
  'DELETE /api/price-book/:id': { access: 'office', url: '/api/price-book/x', ...OFFICE },
  'GET /api/users': { access: 'owner', ...OWNER },
  'GET /api/users/search-employees': { access: 'office', url: '/api/users/search-employees?fullName=a', ...OFFICE },
  'POST /api/users/adduser': { access: 'owner', body: {}, ...OWNER },
  'POST /api/users/updateuser': { access: 'owner', body: {}, ...OWNER },
  'DELETE /api/users/:id': { access: 'owner', url: '/api/users/none', ...OWNER },
  'POST /api/users/:id/end-sessions': { access: 'owner', url: '/api/users/none/end-sessions', ...OWNER },
  'POST /api/users/:id/calendar-feed/reset': {
    access: 'owner',
    url: '/api/users/none/calendar-feed/reset',
    ...OWNER,
  },
  'GET /api/jobs': { access: 'office', ...OFFICE },
  'GET /api/jobs/:id': { access: 'office', url: '/api/jobs/none', ...OFFICE },
  'GET /api/jobs/by-quote-request/:quoteRequestId': {
    access: 'office',
    url: '/api/jobs/by-quote-request/none',
    ...OFFICE,
  },
  'POST /api/jobs/:id/assign': { access: 'office', url: '/api/jobs/none/assign', body: { workers: [] }, ...OFFICE },
  'PATCH /api/jobs/:id/status': {
    access: 'office',
    url: '/api/jobs/none/status',
    body: { status: 'Completed' },
    ...OFFICE,
  },
  'GET /api/my/jobs': { access: 'staff', ...STAFF },
  'GET /api/account/two-step': { access: 'staff', ...STAFF },
  'POST /api/account/two-step/start': { access: 'staff', ...STAFF },
  'POST /api/account/two-step/confirm': { access: 'staff', body: { code: '000000' }, ...STAFF },
  'POST /api/account/two-step/disable': { access: 'staff', body: { password: 'x', code: '000000' }, ...STAFF },
  'POST /api/account/two-step/recovery-codes': { access: 'staff', body: { code: '000000' }, ...STAFF },
  'GET /api/account/sessions': { access: 'staff', ...STAFF },
  'GET /api/account/api-keys': { access: 'owner', ...OWNER },
  'POST /api/account/api-keys': { access: 'owner', body: { name: 'Matrix', scope: 'read' }, ...OWNER },
  'DELETE /api/account/api-keys/:id': { access: 'owner', url: '/api/account/api-keys/none', ...OWNER },
  'DELETE /api/account/sessions/:id': { access: 'staff', url: '/api/account/sessions/none', ...STAFF },
  'GET /api/users/:id/sessions': { access: 'owner', url: '/api/users/none/sessions', ...OWNER },
  'DELETE /api/users/:id/sessions/:sessionId': { access: 'owner', url: '/api/users/none/sessions/none', ...OWNER },
  'PATCH /api/my/jobs/:id/status': {
    access: 'staff',
    url: '/api/my/jobs/none/status',
    body: { status: 'Completed' },
    ...STAFF,
  },
  'GET /api/my/schedule': { access: 'staff', ...STAFF },
  'PUT /api/my/schedule': { access: 'staff', body: { schedule: [] }, ...STAFF },
  'GET /api/my/time-off': { access: 'staff', ...STAFF },
  'POST /api/my/time-off': { access: 'staff', body: {}, ...STAFF },
  'DELETE /api/my/time-off/:id': { access: 'staff', url: '/api/my/time-off/none', ...STAFF },
  'POST /api/quotes/createNew': { access: 'office', body: {}, ...OFFICE },
  'POST /api/quotes/sendQuote': { access: 'office', body: {}, ...OFFICE },
  'POST /api/quotes/preview': { access: 'office', body: {}, ...OFFICE },
  'GET /api/quote-templates': { access: 'office', ...OFFICE },
  'GET /api/quote-templates/:id': { access: 'office', url: '/api/quote-templates/x', ...OFFICE },
  'POST /api/quote-templates': { access: 'office', body: {}, ...OFFICE },
  'PATCH /api/quote-templates/:id': { access: 'office', url: '/api/quote-templates/x', body: {}, ...OFFICE },
  'DELETE /api/quote-templates/:id': { access: 'office', url: '/api/quote-templates/x', ...OFFICE },
  'GET /api/quotes/by-quote-request/:quoteRequestId': {
    access: 'office',
    url: '/api/quotes/by-quote-request/none',
    ...OFFICE,
  },
  'GET /api/quotes/:quoteId': { access: 'office', url: '/api/quotes/QT00000000', ...OFFICE },
  'GET /api/client-quotes/:quoteId': {
    access: 'public',
    url: '/api/client-quotes/QT00000000?token=x',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'GET /api/client-quotes/:quoteId/pdf': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/pdf?token=x',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-quotes/:quoteId/answer': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/answer',
    body: { action: 'accept', token: 'x', signatureName: 'Dana Whitfield' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-quotes/:quoteId/opened': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/opened',
    body: { token: 'x' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-quotes/:quoteId/request-update': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/request-update',
    body: { token: 'x' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/quotes/revise': { access: 'office', body: {}, ...OFFICE },
  'POST /api/quotes/:quoteId/reply': { access: 'office', url: '/api/quotes/QT00000000/reply', body: {}, ...OFFICE },
  'GET /api/quoterequest/:id/timeline': { access: 'office', url: '/api/quoterequest/none/timeline', ...OFFICE },
  'POST /api/quoterequest/:id/timeline/:eventId/text-instead': {
    access: 'office',
    url: '/api/quoterequest/none/timeline/none/text-instead',
    ...OFFICE,
  },
  'POST /api/quoterequest/staff-entry': { access: 'office', body: {}, ...OFFICE },
  'POST /api/mail/:id/send-again': { access: 'office', url: '/api/mail/none/send-again', ...OFFICE },
  'GET /api/clients': { access: 'office', ...OFFICE },
  'GET /api/clients/:id': { access: 'office', url: '/api/clients/none', ...OFFICE },
  'PUT /api/clients/:id': { access: 'office', url: '/api/clients/none', body: {}, ...OFFICE },
  'POST /api/clients/:id/addresses': { access: 'office', url: '/api/clients/none/addresses', body: {}, ...OFFICE },
  'PUT /api/clients/:id/addresses/:addressId': {
    access: 'office',
    url: '/api/clients/none/addresses/none',
    body: {},
    ...OFFICE,
  },
  'DELETE /api/clients/:id/addresses/:addressId': {
    access: 'office',
    url: '/api/clients/none/addresses/none',
    ...OFFICE,
  },
  'PATCH /api/jobs/:id/address': { access: 'office', url: '/api/jobs/none/address', body: {}, ...OFFICE },
  'GET /api/visits': {
    access: 'office',
    url: '/api/visits?from=2027-01-01T00:00:00Z&to=2027-01-31T00:00:00Z',
    ...OFFICE,
  },
  'GET /api/jobs/:id/visits': { access: 'office', url: '/api/jobs/none/visits', ...OFFICE },
  'GET /api/quoterequest/:id/visits': { access: 'office', url: '/api/quoterequest/none/visits', ...OFFICE },
  'POST /api/jobs/:id/visits': { access: 'office', url: '/api/jobs/none/visits', body: {}, ...OFFICE },
  'GET /api/jobs/:id/plans': { access: 'office', url: '/api/jobs/none/plans', ...OFFICE },
  'POST /api/jobs/:id/plans': { access: 'office', url: '/api/jobs/none/plans', body: {}, ...OFFICE },
  'POST /api/plans/:id/stop': { access: 'office', url: '/api/plans/none/stop', ...OFFICE },
  'POST /api/plans/:id/change': { access: 'office', url: '/api/plans/none/change', body: {}, ...OFFICE },
  'GET /api/service-plans': { access: 'office', url: '/api/service-plans', ...OFFICE },
  'POST /api/service-plans': { access: 'office', url: '/api/service-plans', body: {}, ...OFFICE },
  'PUT /api/service-plans/:id': { access: 'office', url: '/api/service-plans/none', body: {}, ...OFFICE },
  'POST /api/service-plans/:id/archive': {
    access: 'office',
    url: '/api/service-plans/none/archive',
    body: {},
    ...OFFICE,
  },
  'GET /api/clients/:id/plan-offers': { access: 'office', url: '/api/clients/none/plan-offers', ...OFFICE },
  'POST /api/clients/:id/plan-offers': { access: 'office', url: '/api/clients/none/plan-offers', body: {}, ...OFFICE },
  'POST /api/plan-offers/:id/withdraw': { access: 'office', url: '/api/plan-offers/none/withdraw', ...OFFICE },
  // A service plan offered to a client: the link's token is the permission, whoever is signed in.
  'GET /api/client-plan-offers/:id': {
    access: 'public',
    url: '/api/client-plan-offers/none?token=x',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-plan-offers/:id/sign': {
    access: 'public',
    url: '/api/client-plan-offers/none/sign',
    body: { token: 'x', signedName: 'Dana Whitfield' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'PATCH /api/visits/:id': { access: 'office', url: '/api/visits/none', body: {}, ...OFFICE },
  'POST /api/visits/:id/cancel': { access: 'office', url: '/api/visits/none/cancel', body: {}, ...OFFICE },
  'POST /api/visits/:id/approve': { access: 'office', url: '/api/visits/none/approve', ...OFFICE },
  'POST /api/jobs/:id/undo-cancel': { access: 'office', url: '/api/jobs/none/undo-cancel', ...OFFICE },
  // Crew leads add helpers to their visits (decision 042): the route is any staff member's, the handler a lead's.
  'GET /api/my/jobs/:id/crew': {
    access: 'staff',
    url: '/api/my/jobs/none/crew',
    anonymous: 401,
    crew: 403,
    crewLead: 'ok',
    office: 403,
    owner: 403,
  },
  'PUT /api/my/visits/:id/helpers': {
    access: 'staff',
    url: '/api/my/visits/none/helpers',
    body: { helperIds: [] },
    anonymous: 401,
    crew: 403,
    crewLead: 404,
    office: 403,
    owner: 403,
  },
  'GET /api/my/visits/:id/on-my-way': {
    access: 'staff',
    url: '/api/my/visits/none/on-my-way',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'POST /api/my/visits/:id/on-my-way': {
    access: 'staff',
    url: '/api/my/visits/none/on-my-way',
    body: { minutes: 15 },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'GET /api/my/visits': {
    access: 'staff',
    url: '/api/my/visits?from=2027-01-01T00:00:00Z&to=2027-01-31T00:00:00Z',
    ...STAFF,
  },
  'GET /api/calendar-feeds/company': { access: 'office', ...OFFICE },
  'POST /api/calendar-feeds/company/regenerate': { access: 'office', ...OFFICE },
  'GET /api/my/calendar-feed': { access: 'staff', ...STAFF },
  'POST /api/my/calendar-feed/regenerate': { access: 'staff', ...STAFF },
  'GET /api/feeds/:file': {
    access: 'public',
    url: '/api/feeds/not-a-real-feed-token.ics',
    anonymous: 404,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  // The crew's record of a job (issue 16): a worker's own jobs only (404 for any other), the office's view.
  'GET /api/my/jobs/:id/record': {
    access: 'staff',
    url: '/api/my/jobs/none/record',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/checklist/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/checklist/00000000-0000-4000-8000-000000000000',
    body: { text: 'x', done: false },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'DELETE /api/my/jobs/:id/checklist/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/checklist/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/time/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/time/00000000-0000-4000-8000-000000000000',
    body: { kind: 'hours', workDate: '2027-01-04', hours: 1 },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'DELETE /api/my/jobs/:id/time/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/time/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/materials/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    body: { name: 'Screws', quantity: 1 },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'DELETE /api/my/jobs/:id/materials/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/photos/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/photos/00000000-0000-4000-8000-000000000000',
    body: { stage: 'before', image: 'data:image/png;base64,AAAA' },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'DELETE /api/my/jobs/:id/photos/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/photos/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/notes': {
    access: 'staff',
    url: '/api/my/jobs/none/notes',
    body: { notes: '' },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/client-note': {
    access: 'staff',
    url: '/api/my/jobs/none/client-note',
    body: { note: '' },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'PUT /api/my/jobs/:id/signature': {
    access: 'staff',
    url: '/api/my/jobs/none/signature',
    body: { name: 'A', image: 'data:image/png;base64,AAAA' },
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'POST /api/my/jobs/:id/complete': {
    access: 'staff',
    url: '/api/my/jobs/none/complete',
    anonymous: 401,
    crew: 404,
    crewLead: 404,
    office: 404,
    owner: 404,
  },
  'GET /api/jobs/:id/record': { access: 'office', url: '/api/jobs/none/record', ...OFFICE },
  'PUT /api/jobs/:id/materials/:itemId': {
    access: 'office',
    url: '/api/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    body: { name: 'Screws', quantity: 1 },
    ...OFFICE,
  },
  'DELETE /api/jobs/:id/materials/:itemId': {
    access: 'office',
    url: '/api/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    ...OFFICE,
  },
  'GET /api/job-photos/:photoId': {
    access: 'public',
    url: '/api/job-photos/x',
    anonymous: 401,
    crew: 401,
    crewLead: 401,
    office: 401,
    owner: 401,
  },
  'GET /api/jobs/:id/signature.png': {
    access: 'public',
    url: '/api/jobs/x/signature.png',
    anonymous: 401,
    crew: 401,
    crewLead: 401,
    office: 401,
    owner: 401,
  },
  'GET /api/jobs/:id/report.pdf': {
    access: 'public',
    url: '/api/jobs/x/report.pdf',
    anonymous: 401,
    crew: 401,
    crewLead: 401,
    office: 401,
    owner: 401,
  },
  // Invoices and payments (issue 17): the office's; the PDF by signed address; the client's by signed link.
  'POST /api/jobs/:id/invoice': { access: 'office', url: '/api/jobs/none/invoice', ...OFFICE },
  'GET /api/jobs/:id/invoice': { access: 'office', url: '/api/jobs/none/invoice', ...OFFICE },
  'GET /api/invoices': { access: 'office', ...OFFICE },
  'GET /api/invoices.csv': { access: 'office', ...OFFICE },
  'GET /api/payments.csv': { access: 'office', ...OFFICE },
  // Webhooks (decision 044): the Owner's.
  'GET /api/webhooks': { access: 'owner', ...OWNER },
  'POST /api/webhooks': { access: 'owner', body: {}, ...OWNER },
  'DELETE /api/webhooks/:id': { access: 'owner', url: '/api/webhooks/none', ...OWNER },
  'GET /api/webhooks/:id/deliveries': { access: 'owner', url: '/api/webhooks/none/deliveries', ...OWNER },
  'POST /api/webhooks/:id/deliveries/:deliveryId/send-again': {
    access: 'owner',
    url: '/api/webhooks/none/deliveries/none/send-again',
    ...OWNER,
  },
  // The accountant's files (decision 043).
  'GET /api/accounting/:system/:dataset': {
    access: 'office',
    url: '/api/accounting/xero/invoices.csv?from=2026-01-01&to=2026-12-31',
    ...OFFICE,
  },
  'GET /api/reports': { access: 'office', ...OFFICE },
  // Own your data (issue 18): the audit trail, backups, exports and the clients import are the owner's.
  'GET /api/audit': { access: 'owner', ...OWNER },
  'GET /api/backups': { access: 'owner', ...OWNER },
  'GET /api/backups/download': { access: 'owner', ...OWNER },
  'GET /api/export/:dataset': { access: 'owner', url: '/api/export/clients.csv', ...OWNER },
  'POST /api/clients/import/preview': { access: 'office', body: {}, ...OFFICE },
  'POST /api/clients/import': { access: 'office', body: {}, ...OFFICE },
  'GET /api/invoices/:id': { access: 'office', url: '/api/invoices/none', ...OFFICE },
  'PUT /api/invoices/:id': { access: 'office', url: '/api/invoices/none', body: {}, ...OFFICE },
  'DELETE /api/invoices/:id': { access: 'office', url: '/api/invoices/none', ...OFFICE },
  'POST /api/invoices/:id/send': { access: 'office', url: '/api/invoices/none/send', ...OFFICE },
  'POST /api/invoices/:id/payments': { access: 'office', url: '/api/invoices/none/payments', body: {}, ...OFFICE },
  'POST /api/invoices/:id/void': { access: 'office', url: '/api/invoices/none/void', body: {}, ...OFFICE },
  'GET /api/invoices/:id/pdf': {
    access: 'public',
    url: '/api/invoices/none/pdf',
    anonymous: 401,
    crew: 401,
    crewLead: 401,
    office: 401,
    owner: 401,
  },
  'GET /api/client-invoices/:id': {
    access: 'public',
    url: '/api/client-invoices/none',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'GET /api/client-invoices/:id/pdf': {
    access: 'public',
    url: '/api/client-invoices/none/pdf',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  // The client's own page (decision 036): its signed link is the permission, whoever else is signed in.
  'GET /api/client-page/:id': {
    access: 'public',
    url: '/api/client-page/none?token=x',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-page/link': {
    access: 'public',
    body: { email: 'nobody@home.test' },
    anonymous: 202,
    crew: 202,
    crewLead: 202,
    office: 202,
    owner: 202,
  },
  'POST /api/client-page/:id/fresh-link': {
    access: 'public',
    url: '/api/client-page/none/fresh-link',
    body: { token: 'x' },
    anonymous: 202,
    crew: 202,
    crewLead: 202,
    office: 202,
    owner: 202,
  },
  'POST /api/client-page/:id/visits/:visitId/confirm': {
    access: 'public',
    url: '/api/client-page/none/visits/none/confirm',
    body: { token: 'x' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'GET /api/booking/windows': { access: 'public', ...PUBLIC },
  'GET /api/client-page/:id/visits/:visitId/changes': {
    access: 'public',
    url: '/api/client-page/none/visits/none/changes?token=x',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-page/:id/visits/:visitId/reschedule': {
    access: 'public',
    url: '/api/client-page/none/visits/none/reschedule',
    body: { token: 'x', date: '2030-01-07', start: '08:00' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-page/:id/visits/:visitId/cancel': {
    access: 'public',
    url: '/api/client-page/none/visits/none/cancel',
    body: { token: 'x', reason: 'Away' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'GET /api/clients/:id/their-page': { access: 'office', url: '/api/clients/none/their-page', ...OFFICE },
  'GET /api/client-visits/:id/calendar.ics': {
    access: 'public',
    url: '/api/client-visits/none/calendar.ics?sig=x',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  // Online payments (decision 035): the owner's settings and refunds for admins; the client's Pay by their
  // invoice link (a wrong token is refused whoever calls); Stripe's webhook by its signature alone.
  'GET /api/settings/online-payments': { access: 'owner', ...OWNER },
  'PUT /api/settings/online-payments': { access: 'owner', body: {}, ...OWNER },
  'DELETE /api/settings/online-payments': { access: 'owner', ...OWNER },
  'POST /api/settings/online-payments/test': { access: 'owner', ...OWNER },
  'POST /api/invoices/:id/refunds': { access: 'office', url: '/api/invoices/none/refunds', body: {}, ...OFFICE },
  'GET /api/client-invoices/:id/online-payment': {
    access: 'public',
    url: '/api/client-invoices/none/online-payment',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-invoices/:id/checkout': {
    access: 'public',
    url: '/api/client-invoices/none/checkout?token=nope',
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'POST /api/client-invoices/:id/checkout/return': {
    access: 'public',
    url: '/api/client-invoices/none/checkout/return?token=nope',
    body: { sessionId: 'cs_test_x' },
    anonymous: 403,
    crew: 403,
    crewLead: 403,
    office: 403,
    owner: 403,
  },
  'GET /api/settings/booking': { access: 'owner', ...OWNER },
  'PUT /api/settings/booking': { access: 'owner', body: {}, ...OWNER },
  'GET /api/settings/texts': { access: 'owner', ...OWNER },
  'PUT /api/settings/texts': { access: 'owner', body: {}, ...OWNER },
  'DELETE /api/settings/texts': { access: 'owner', ...OWNER },
  'POST /api/settings/texts/test': { access: 'owner', body: {}, ...OWNER },
  'GET /api/clients/:id/texts': { access: 'office', url: '/api/clients/none/texts', ...OFFICE },
  'POST /api/texts/:id/send-again': {
    access: 'office',
    url: '/api/texts/none/send-again',
    body: { channel: 'text' },
    ...OFFICE,
  },
  // Twilio's callbacks take only its signed form posts: anything else is refused, whoever sends it.
  'POST /api/texts/twilio/status': {
    access: 'public',
    body: { MessageSid: 'SMforged' },
    anonymous: 415,
    crew: 415,
    crewLead: 415,
    office: 415,
    owner: 415,
  },
  'POST /api/texts/twilio/inbound': {
    access: 'public',
    body: { Body: 'STOP' },
    anonymous: 415,
    crew: 415,
    crewLead: 415,
    office: 415,
    owner: 415,
  },
  'POST /api/payments/stripe/webhook': {
    access: 'public',
    body: { id: 'evt_forged' },
    anonymous: 400,
    crew: 400,
    crewLead: 400,
    office: 400,
    owner: 400,
  },
  // Last: signing out ends the session whose token the rows above use.
  'POST /api/logout': { access: 'staff', ...STAFF },
};

describe.each(dbKinds)('authorization matrix (%s)', (kind) => {
  let t: TestApp;
  let tokens: Record<Exclude<Who, 'anonymous'>, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    tokens = {
      crew: (await createUserAndSignIn(t, 'crew')).token,
      crewLead: (await createUserAndSignIn(t, 'crew_lead')).token,
      office: (await createUserAndSignIn(t, 'office')).token,
      owner: (await createUserAndSignIn(t, 'owner')).token,
    };
  });
  afterAll(() => t.close());

  it('lists every /api route, with the access the route declares', () => {
    const declared = Object.fromEntries(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(Object.keys(declared).sort()).toEqual(Object.keys(matrix).sort());
    for (const [route, row] of Object.entries(matrix)) expect(declared[route], route).toBe(row.access);
  });

  for (const [route, row] of Object.entries(matrix)) {
    for (const who of ['anonymous', 'crew', 'crewLead', 'office', 'owner'] as const) {
      it(`${route} as ${who} → ${row[who]}`, async () => {
        const [method, path] = route.split(' ') as [string, string];
        const res = await t.app.inject({
          method: method as 'GET',
          url: row.url ?? path,
          headers: who === 'anonymous' ? {} : bearer(tokens[who]),
          ...(row.body !== undefined ? { payload: row.body as object } : {}),
        });
        if (row[who] === 'ok') expect([401, 403], `${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        else expect(res.statusCode, res.body).toBe(row[who]);
      });
    }
  }
});

/** What an admin whom Settings require to turn on two-step sign-in may still call: their own account, and sign out. */
const BEFORE_TWO_STEP = new Set([
  'GET /api/account/two-step',
  'POST /api/account/two-step/start',
  'POST /api/account/two-step/confirm',
  'POST /api/account/two-step/disable',
  'POST /api/account/two-step/recovery-codes',
  'GET /api/account/sessions',
  'DELETE /api/account/sessions/:id',
  'POST /api/logout',
]);

describe.each(dbKinds)('two-step sign-in required (%s)', (kind) => {
  let t: TestApp;
  let office: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const owner = (await createUserAndSignIn(t, 'owner')).token;
    const start = await t.app.inject({ method: 'POST', url: '/api/account/two-step/start', headers: bearer(owner) });
    const { secret } = start.json<TwoStepEnrolment>();
    const code = await generate({ secret });
    await t.app.inject({
      method: 'POST',
      url: '/api/account/two-step/confirm',
      headers: bearer(owner),
      payload: { code },
    });
    const {
      logoUrl: _l,
      updatedAt: _u,
      ...settings
    } = (await t.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(owner) })).json<SettingsView>();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(owner),
      payload: { ...settings, requireTwoStep: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    office = (await createUserAndSignIn(t, 'owner')).token;
  });
  afterAll(() => t.close());

  // Signing out last: it ends the session the others use.
  const routes = Object.entries(matrix)
    .filter(([, row]) => row.access !== 'public')
    .sort(([a], [b]) => Number(a === 'POST /api/logout') - Number(b === 'POST /api/logout'));
  for (const [route, row] of routes) {
    const open = BEFORE_TWO_STEP.has(route);
    it(`${route} as an admin without it → ${open ? 'answers' : 'TWO_STEP_SETUP_REQUIRED'}`, async () => {
      const [method, path] = route.split(' ') as [string, string];
      const res = await t.app.inject({
        method: method as 'GET',
        url: row.url ?? path,
        headers: bearer(office),
        ...(row.body !== undefined ? { payload: row.body as object } : {}),
      });
      if (open) expect([401, 403], `${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
      else expect(res.json(), res.body).toMatchObject({ statusCode: 403, code: 'TWO_STEP_SETUP_REQUIRED' });
    });
  }
});
