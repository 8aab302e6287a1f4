/**
 * The addresses of the pages with an id in them, as the router matches them (`:name` for the id). The
 * functions in `paths` fill them in, so the router and every link read the one address.
 */
export const patterns = {
  quoteRequestStatusOf: '/quote-request-status/:quoteRequestId',
  clientQuote: '/quote/:quoteId',
  clientInvoice: '/invoice/:invoiceId',
  /** A service plan offered to a client, to read and sign (issue 31). */
  servicePlanOffer: '/service-plan/:offerId',
  /** The client's own page, by a signed link (decision 036; the server fills it in: clients/page-link.ts). */
  clientPage: '/your-page/:clientId',
  admin: {
    quoteRequest: '/admin/quote-requests/:quoteRequestId',
    client: '/admin/clients/:clientId',
    job: '/admin/jobs/:jobId',
    invoice: '/admin/invoices/:invoiceId',
  },
  employee: {
    job: '/employee/jobs/:jobId',
  },
} as const;

/** A pattern with its one `:name` filled in by `id` (encoded). */
const at = (pattern: string) => (id: string) => pattern.replace(/:\w+/, encodeURIComponent(id));

/** Every client route, written once: the router, links, e-mails and the sitemap use these. */
export const paths = {
  home: '/',
  servicesSection: '/#services-section',
  getAQuote: '/get-a-quote',
  getAQuoteSuccess: '/get-a-quote/success',
  contact: '/contact',
  thankYou: '/thank-you',
  login: '/login',
  /**
   * The sign-in page that returns to `next` afterwards; `ended` says the session ran out (an expired
   * or refused token) rather than that nobody was signed in.
   */
  loginFor: (next: string, ended = false) =>
    `/login?${new URLSearchParams({ next, ...(ended ? { session: 'ended' } : {}) }).toString()}`,
  quoteRequestStatus: '/quote-request-status',
  quoteRequestStatusOf: at(patterns.quoteRequestStatusOf),
  quoteAccepted: '/quote/accepted',
  quoteDeclined: '/quote/declined',
  clientQuote: (quoteId: string, token: string) =>
    `${at(patterns.clientQuote)(quoteId)}?token=${encodeURIComponent(token)}`,
  /** A client's invoice, by its signed link. */
  clientInvoice: (invoiceId: string, token: string) =>
    `${at(patterns.clientInvoice)(invoiceId)}?token=${encodeURIComponent(token)}`,
  /** A service plan offered to a client, by its signed link. */
  servicePlanOffer: (offerId: string, token: string) =>
    `${at(patterns.servicePlanOffer)(offerId)}?token=${encodeURIComponent(token)}`,
  unauthorized: '/unauthorized',
  admin: {
    root: '/admin',
    dashboard: '/admin',
    calendar: '/admin/calendar',
    quoteRequests: '/admin/quote-requests',
    quoteRequest: at(patterns.admin.quoteRequest),
    /** A request the office enters for a client who phoned. */
    newQuoteRequest: '/admin/quote-requests/new',
    clients: '/admin/clients',
    client: at(patterns.admin.client),
    jobs: '/admin/jobs',
    job: at(patterns.admin.job),
    invoices: '/admin/invoices',
    reports: '/admin/reports',
    invoice: at(patterns.admin.invoice),
    users: '/admin/users',
    settings: '/admin/settings',
    /** Services and materials with their prices: the quote builder's and the crew's list. */
    priceBook: '/admin/price-book',
    /** The audit trail. */
    activity: '/admin/activity',
    /** Backups, exports and the clients import. */
    data: '/admin/data',
    /** The machinery: mail, reminders, backups, background jobs, database, disk (decision 039). */
    system: '/admin/system',
    /** The signed-in person's own account: two-step sign-in (decision 040). */
    account: '/admin/account',
  },
  media: {
    /** The business's logo; the version changes with it, so it may be cached for good. */
    logo: (version: string) => `/media/logo/${encodeURIComponent(version)}.png`,
  },
  /**
   * The crew's installable app: its service worker controls the crew area only (`scope`, a prefix of
   * every /employee page), never the public site or the office's pages (decision 030).
   */
  crewApp: {
    scope: '/employee',
    worker: '/crew-sw.js',
    manifest: '/crew.webmanifest',
  },
  employee: {
    root: '/employee',
    dashboard: '/employee',
    calendar: '/employee/calendar',
    jobs: '/employee/jobs',
    /** A job's record on the crew's phone: checklist, time, materials, photos, sign-off. */
    job: at(patterns.employee.job),
    schedule: '/employee/schedule',
    /** Their own account: two-step sign-in (decision 040). */
    account: '/employee/account',
  },
} as const;

/** The Quote Builder's element on a request's page: `#quote-builder` opens the page at it. */
export const QUOTE_BUILDER_ID = 'quote-builder';

/** Public pages worth listing for search engines. */
export const publicIndexablePaths = [paths.home, paths.getAQuote, paths.contact, paths.quoteRequestStatus] as const;
