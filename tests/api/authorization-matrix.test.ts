import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '#shared/schemas/settings';
import type { TwoStepEnrolment } from '#shared/schemas/two-step';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** What the guard lets through: `ok` means any answer but 401/403 (the route's own checks decide). */
type Expect = number | 'ok';

interface Row {
  access: 'public' | 'staff' | 'admin';
  /** A concrete URL for routes with parameters. */
  url?: string;
  body?: unknown;
  anonymous: Expect;
  employee: Expect;
  admin: Expect;
}

const PUBLIC: Pick<Row, 'anonymous' | 'employee' | 'admin'> = { anonymous: 'ok', employee: 'ok', admin: 'ok' };
const STAFF: Pick<Row, 'anonymous' | 'employee' | 'admin'> = { anonymous: 401, employee: 'ok', admin: 'ok' };
const ADMIN: Pick<Row, 'anonymous' | 'employee' | 'admin'> = { anonymous: 401, employee: 403, admin: 'ok' };

/**
 * Every /api route × anonymous, employee, admin. A route missing here fails the first test, so a
 * new route cannot be added without saying who may call it.
 */
export const matrix: Record<string, Row> = {
  'GET /api/health': { access: 'public', ...PUBLIC },
  'GET /api/system': { access: 'admin', ...ADMIN },
  'POST /api/login': {
    access: 'public',
    body: { username: 'nobody', password: 'wrong' },
    anonymous: 401,
    employee: 401,
    admin: 401,
  },
  'GET /api/login/user-role': { access: 'public', anonymous: 401, employee: 200, admin: 200 },
  'POST /api/quoterequest/create': { access: 'public', body: {}, anonymous: 400, employee: 400, admin: 400 },
  'GET /api/quoterequest/status/:quoteNumber': {
    access: 'public',
    url: '/api/quoterequest/status/Q000000000',
    anonymous: 404,
    employee: 404,
    admin: 404,
  },
  'GET /api/quoterequest/status/:quoteNumber/timeline': {
    access: 'public',
    url: '/api/quoterequest/status/Q000000000/timeline',
    anonymous: 404,
    employee: 404,
    admin: 404,
  },
  'POST /api/contact': { access: 'public', body: {}, anonymous: 400, employee: 400, admin: 400 },
  'GET /api/quoterequest/images/:imageId': {
    access: 'public',
    url: '/api/quoterequest/images/x',
    anonymous: 401,
    employee: 401,
    admin: 401,
  },
  'GET /api/quoterequest/all': { access: 'admin', ...ADMIN },
  'GET /api/quoterequest/byStatus': { access: 'admin', url: '/api/quoterequest/byStatus?status=Pending', ...ADMIN },
  'GET /api/quoterequest/:id': { access: 'admin', url: '/api/quoterequest/none', ...ADMIN },
  'PUT /api/quoterequest/markAccepted/:id': { access: 'admin', url: '/api/quoterequest/markAccepted/none', ...ADMIN },
  'POST /api/quoterequest/markDeclined': {
    access: 'admin',
    body: { quoteRequestId: 'none', reasonForDecline: 'x' },
    ...ADMIN,
  },
  'GET /api/dashboard': { access: 'admin', ...ADMIN },
  'GET /api/dashboard/today': { access: 'admin', ...ADMIN },
  'GET /api/settings': { access: 'admin', ...ADMIN },
  'PUT /api/settings': { access: 'admin', body: {}, ...ADMIN },
  'PUT /api/settings/logo': { access: 'admin', body: {}, ...ADMIN },
  'DELETE /api/settings/logo': { access: 'admin', ...ADMIN },
  'GET /api/price-book': { access: 'admin', ...ADMIN },
  'POST /api/price-book': { access: 'admin', body: {}, ...ADMIN },
  'PUT /api/price-book/:id': { access: 'admin', url: '/api/price-book/x', body: {}, ...ADMIN },
  'DELETE /api/price-book/:id': { access: 'admin', url: '/api/price-book/x', ...ADMIN },
  'GET /api/users': { access: 'admin', ...ADMIN },
  'GET /api/users/search-employees': { access: 'admin', url: '/api/users/search-employees?fullName=a', ...ADMIN },
  'POST /api/users/adduser': { access: 'admin', body: {}, ...ADMIN },
  'POST /api/users/updateuser': { access: 'admin', body: {}, ...ADMIN },
  'DELETE /api/users/:id': { access: 'admin', url: '/api/users/none', ...ADMIN },
  'POST /api/users/:id/end-sessions': { access: 'admin', url: '/api/users/none/end-sessions', ...ADMIN },
  'POST /api/users/:id/calendar-feed/reset': {
    access: 'admin',
    url: '/api/users/none/calendar-feed/reset',
    ...ADMIN,
  },
  'GET /api/jobs': { access: 'admin', ...ADMIN },
  'GET /api/jobs/:id': { access: 'admin', url: '/api/jobs/none', ...ADMIN },
  'GET /api/jobs/by-quote-request/:quoteRequestId': {
    access: 'admin',
    url: '/api/jobs/by-quote-request/none',
    ...ADMIN,
  },
  'POST /api/jobs/:id/assign': { access: 'admin', url: '/api/jobs/none/assign', body: { workers: [] }, ...ADMIN },
  'PATCH /api/jobs/:id/status': {
    access: 'admin',
    url: '/api/jobs/none/status',
    body: { status: 'Completed' },
    ...ADMIN,
  },
  'GET /api/my/jobs': { access: 'staff', ...STAFF },
  'GET /api/account/two-step': { access: 'staff', ...STAFF },
  'POST /api/account/two-step/start': { access: 'staff', ...STAFF },
  'POST /api/account/two-step/confirm': { access: 'staff', body: { code: '000000' }, ...STAFF },
  'POST /api/account/two-step/disable': { access: 'staff', body: { password: 'x', code: '000000' }, ...STAFF },
  'POST /api/account/two-step/recovery-codes': { access: 'staff', body: { code: '000000' }, ...STAFF },
  'GET /api/account/sessions': { access: 'staff', ...STAFF },
  'GET /api/account/api-keys': { access: 'admin', ...ADMIN },
  'POST /api/account/api-keys': { access: 'admin', body: { name: 'Matrix', scope: 'read' }, ...ADMIN },
  'DELETE /api/account/api-keys/:id': { access: 'admin', url: '/api/account/api-keys/none', ...ADMIN },
  'DELETE /api/account/sessions/:id': { access: 'staff', url: '/api/account/sessions/none', ...STAFF },
  'GET /api/users/:id/sessions': { access: 'admin', url: '/api/users/none/sessions', ...ADMIN },
  'DELETE /api/users/:id/sessions/:sessionId': { access: 'admin', url: '/api/users/none/sessions/none', ...ADMIN },
  'PATCH /api/my/jobs/:id/status': {
    access: 'staff',
    url: '/api/my/jobs/none/status',
    body: { status: 'Completed' },
    ...STAFF,
  },
  'GET /api/my/schedule': { access: 'staff', ...STAFF },
  'PUT /api/my/schedule': { access: 'staff', body: { schedule: [] }, ...STAFF },
  'POST /api/quotes/createNew': { access: 'admin', body: {}, ...ADMIN },
  'POST /api/quotes/sendQuote': { access: 'admin', body: {}, ...ADMIN },
  'POST /api/quotes/preview': { access: 'admin', body: {}, ...ADMIN },
  'GET /api/quote-templates': { access: 'admin', ...ADMIN },
  'GET /api/quote-templates/:id': { access: 'admin', url: '/api/quote-templates/x', ...ADMIN },
  'POST /api/quote-templates': { access: 'admin', body: {}, ...ADMIN },
  'PATCH /api/quote-templates/:id': { access: 'admin', url: '/api/quote-templates/x', body: {}, ...ADMIN },
  'DELETE /api/quote-templates/:id': { access: 'admin', url: '/api/quote-templates/x', ...ADMIN },
  'GET /api/quotes/by-quote-request/:quoteRequestId': {
    access: 'admin',
    url: '/api/quotes/by-quote-request/none',
    ...ADMIN,
  },
  'GET /api/quotes/:quoteId': { access: 'admin', url: '/api/quotes/QT00000000', ...ADMIN },
  'GET /api/client-quotes/:quoteId': {
    access: 'public',
    url: '/api/client-quotes/QT00000000?token=x',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'GET /api/client-quotes/:quoteId/pdf': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/pdf?token=x',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/client-quotes/:quoteId/answer': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/answer',
    body: { action: 'accept', token: 'x', signatureName: 'Dana Whitfield' },
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/client-quotes/:quoteId/opened': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/opened',
    body: { token: 'x' },
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/client-quotes/:quoteId/request-update': {
    access: 'public',
    url: '/api/client-quotes/QT00000000/request-update',
    body: { token: 'x' },
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/quotes/revise': { access: 'admin', body: {}, ...ADMIN },
  'POST /api/quotes/:quoteId/reply': { access: 'admin', url: '/api/quotes/QT00000000/reply', body: {}, ...ADMIN },
  'GET /api/quoterequest/:id/timeline': { access: 'admin', url: '/api/quoterequest/none/timeline', ...ADMIN },
  'POST /api/quoterequest/staff-entry': { access: 'admin', body: {}, ...ADMIN },
  'POST /api/mail/:id/send-again': { access: 'admin', url: '/api/mail/none/send-again', ...ADMIN },
  'GET /api/clients': { access: 'admin', ...ADMIN },
  'GET /api/clients/:id': { access: 'admin', url: '/api/clients/none', ...ADMIN },
  'PUT /api/clients/:id': { access: 'admin', url: '/api/clients/none', body: {}, ...ADMIN },
  'POST /api/clients/:id/addresses': { access: 'admin', url: '/api/clients/none/addresses', body: {}, ...ADMIN },
  'PUT /api/clients/:id/addresses/:addressId': {
    access: 'admin',
    url: '/api/clients/none/addresses/none',
    body: {},
    ...ADMIN,
  },
  'DELETE /api/clients/:id/addresses/:addressId': {
    access: 'admin',
    url: '/api/clients/none/addresses/none',
    ...ADMIN,
  },
  'PATCH /api/jobs/:id/address': { access: 'admin', url: '/api/jobs/none/address', body: {}, ...ADMIN },
  'GET /api/visits': {
    access: 'admin',
    url: '/api/visits?from=2027-01-01T00:00:00Z&to=2027-01-31T00:00:00Z',
    ...ADMIN,
  },
  'GET /api/jobs/:id/visits': { access: 'admin', url: '/api/jobs/none/visits', ...ADMIN },
  'POST /api/jobs/:id/visits': { access: 'admin', url: '/api/jobs/none/visits', body: {}, ...ADMIN },
  'PATCH /api/visits/:id': { access: 'admin', url: '/api/visits/none', body: {}, ...ADMIN },
  'POST /api/visits/:id/cancel': { access: 'admin', url: '/api/visits/none/cancel', body: {}, ...ADMIN },
  'POST /api/jobs/:id/undo-cancel': { access: 'admin', url: '/api/jobs/none/undo-cancel', ...ADMIN },
  'GET /api/my/visits': {
    access: 'staff',
    url: '/api/my/visits?from=2027-01-01T00:00:00Z&to=2027-01-31T00:00:00Z',
    ...STAFF,
  },
  'GET /api/calendar-feeds/company': { access: 'admin', ...ADMIN },
  'POST /api/calendar-feeds/company/regenerate': { access: 'admin', ...ADMIN },
  'GET /api/my/calendar-feed': { access: 'staff', ...STAFF },
  'POST /api/my/calendar-feed/regenerate': { access: 'staff', ...STAFF },
  'GET /api/feeds/:file': {
    access: 'public',
    url: '/api/feeds/not-a-real-feed-token.ics',
    anonymous: 404,
    employee: 404,
    admin: 404,
  },
  // The crew's record of a job (issue 16): a worker's own jobs only (404 for any other), the office's view.
  'GET /api/my/jobs/:id/record': {
    access: 'staff',
    url: '/api/my/jobs/none/record',
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/checklist/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/checklist/00000000-0000-4000-8000-000000000000',
    body: { text: 'x', done: false },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'DELETE /api/my/jobs/:id/checklist/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/checklist/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/time/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/time/00000000-0000-4000-8000-000000000000',
    body: { kind: 'hours', workDate: '2027-01-04', hours: 1 },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'DELETE /api/my/jobs/:id/time/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/time/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/materials/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    body: { name: 'Screws', quantity: 1 },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'DELETE /api/my/jobs/:id/materials/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/photos/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/photos/00000000-0000-4000-8000-000000000000',
    body: { stage: 'before', image: 'data:image/png;base64,AAAA' },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'DELETE /api/my/jobs/:id/photos/:itemId': {
    access: 'staff',
    url: '/api/my/jobs/none/photos/00000000-0000-4000-8000-000000000000',
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/notes': {
    access: 'staff',
    url: '/api/my/jobs/none/notes',
    body: { notes: '' },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/client-note': {
    access: 'staff',
    url: '/api/my/jobs/none/client-note',
    body: { note: '' },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'PUT /api/my/jobs/:id/signature': {
    access: 'staff',
    url: '/api/my/jobs/none/signature',
    body: { name: 'A', image: 'data:image/png;base64,AAAA' },
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'POST /api/my/jobs/:id/complete': {
    access: 'staff',
    url: '/api/my/jobs/none/complete',
    anonymous: 401,
    employee: 404,
    admin: 404,
  },
  'GET /api/jobs/:id/record': { access: 'admin', url: '/api/jobs/none/record', ...ADMIN },
  'PUT /api/jobs/:id/materials/:itemId': {
    access: 'admin',
    url: '/api/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    body: { name: 'Screws', quantity: 1 },
    ...ADMIN,
  },
  'DELETE /api/jobs/:id/materials/:itemId': {
    access: 'admin',
    url: '/api/jobs/none/materials/00000000-0000-4000-8000-000000000000',
    ...ADMIN,
  },
  'GET /api/job-photos/:photoId': {
    access: 'public',
    url: '/api/job-photos/x',
    anonymous: 401,
    employee: 401,
    admin: 401,
  },
  'GET /api/jobs/:id/signature.png': {
    access: 'public',
    url: '/api/jobs/x/signature.png',
    anonymous: 401,
    employee: 401,
    admin: 401,
  },
  'GET /api/jobs/:id/report.pdf': {
    access: 'public',
    url: '/api/jobs/x/report.pdf',
    anonymous: 401,
    employee: 401,
    admin: 401,
  },
  // Invoices and payments (issue 17): the office's; the PDF by signed address; the client's by signed link.
  'POST /api/jobs/:id/invoice': { access: 'admin', url: '/api/jobs/none/invoice', ...ADMIN },
  'GET /api/jobs/:id/invoice': { access: 'admin', url: '/api/jobs/none/invoice', ...ADMIN },
  'GET /api/invoices': { access: 'admin', ...ADMIN },
  'GET /api/invoices.csv': { access: 'admin', ...ADMIN },
  'GET /api/payments.csv': { access: 'admin', ...ADMIN },
  'GET /api/reports': { access: 'admin', ...ADMIN },
  // Own your data (issue 18): the audit trail, backups, exports and the clients import are the owner's.
  'GET /api/audit': { access: 'admin', ...ADMIN },
  'GET /api/backups': { access: 'admin', ...ADMIN },
  'GET /api/backups/download': { access: 'admin', ...ADMIN },
  'GET /api/export/:dataset': { access: 'admin', url: '/api/export/clients.csv', ...ADMIN },
  'POST /api/clients/import/preview': { access: 'admin', body: {}, ...ADMIN },
  'POST /api/clients/import': { access: 'admin', body: {}, ...ADMIN },
  'GET /api/invoices/:id': { access: 'admin', url: '/api/invoices/none', ...ADMIN },
  'PUT /api/invoices/:id': { access: 'admin', url: '/api/invoices/none', body: {}, ...ADMIN },
  'DELETE /api/invoices/:id': { access: 'admin', url: '/api/invoices/none', ...ADMIN },
  'POST /api/invoices/:id/send': { access: 'admin', url: '/api/invoices/none/send', ...ADMIN },
  'POST /api/invoices/:id/payments': { access: 'admin', url: '/api/invoices/none/payments', body: {}, ...ADMIN },
  'POST /api/invoices/:id/void': { access: 'admin', url: '/api/invoices/none/void', body: {}, ...ADMIN },
  'GET /api/invoices/:id/pdf': {
    access: 'public',
    url: '/api/invoices/none/pdf',
    anonymous: 401,
    employee: 401,
    admin: 401,
  },
  'GET /api/client-invoices/:id': {
    access: 'public',
    url: '/api/client-invoices/none',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'GET /api/client-invoices/:id/pdf': {
    access: 'public',
    url: '/api/client-invoices/none/pdf',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  // The client's own page (decision 036): its signed link is the permission, whoever else is signed in.
  'GET /api/client-page/:id': {
    access: 'public',
    url: '/api/client-page/none?token=x',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/client-page/link': {
    access: 'public',
    body: { email: 'nobody@home.test' },
    anonymous: 202,
    employee: 202,
    admin: 202,
  },
  'POST /api/client-page/:id/fresh-link': {
    access: 'public',
    url: '/api/client-page/none/fresh-link',
    body: { token: 'x' },
    anonymous: 202,
    employee: 202,
    admin: 202,
  },
  'GET /api/clients/:id/their-page': { access: 'admin', url: '/api/clients/none/their-page', ...ADMIN },
  'GET /api/client-visits/:id/calendar.ics': {
    access: 'public',
    url: '/api/client-visits/none/calendar.ics?sig=x',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  // Online payments (decision 035): the owner's settings and refunds for admins; the client's Pay by their
  // invoice link (a wrong token is refused whoever calls); Stripe's webhook by its signature alone.
  'GET /api/settings/online-payments': { access: 'admin', ...ADMIN },
  'PUT /api/settings/online-payments': { access: 'admin', body: {}, ...ADMIN },
  'DELETE /api/settings/online-payments': { access: 'admin', ...ADMIN },
  'POST /api/settings/online-payments/test': { access: 'admin', ...ADMIN },
  'POST /api/invoices/:id/refunds': { access: 'admin', url: '/api/invoices/none/refunds', body: {}, ...ADMIN },
  'GET /api/client-invoices/:id/online-payment': {
    access: 'public',
    url: '/api/client-invoices/none/online-payment',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/client-invoices/:id/checkout': {
    access: 'public',
    url: '/api/client-invoices/none/checkout?token=nope',
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/client-invoices/:id/checkout/return': {
    access: 'public',
    url: '/api/client-invoices/none/checkout/return?token=nope',
    body: { sessionId: 'cs_test_x' },
    anonymous: 403,
    employee: 403,
    admin: 403,
  },
  'POST /api/payments/stripe/webhook': {
    access: 'public',
    body: { id: 'evt_forged' },
    anonymous: 400,
    employee: 400,
    admin: 400,
  },
  // Last: signing out ends the session whose token the rows above use.
  'POST /api/logout': { access: 'staff', ...STAFF },
};

describe.each(dbKinds)('authorization matrix (%s)', (kind) => {
  let t: TestApp;
  let tokens: { employee: string; admin: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    tokens = {
      employee: (await createUserAndSignIn(t, 'employee')).token,
      admin: (await createUserAndSignIn(t, 'admin')).token,
    };
  });
  afterAll(() => t.close());

  it('lists every /api route, with the access the route declares', () => {
    const declared = Object.fromEntries(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(Object.keys(declared).sort()).toEqual(Object.keys(matrix).sort());
    for (const [route, row] of Object.entries(matrix)) expect(declared[route], route).toBe(row.access);
  });

  for (const [route, row] of Object.entries(matrix)) {
    for (const who of ['anonymous', 'employee', 'admin'] as const) {
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
    const owner = (await createUserAndSignIn(t, 'admin')).token;
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
    office = (await createUserAndSignIn(t, 'admin')).token;
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
