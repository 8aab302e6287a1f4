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
  quoteRequestStatusOf: (quoteRequestId: string) => `/quote-request-status/${encodeURIComponent(quoteRequestId)}`,
  quoteAccepted: '/quote/accepted',
  quoteDeclined: '/quote/declined',
  clientQuote: (quoteId: string, token: string) =>
    `/quote/${encodeURIComponent(quoteId)}?token=${encodeURIComponent(token)}`,
  /** A client's invoice, by its signed link. */
  clientInvoice: (invoiceId: string, token: string) =>
    `/invoice/${encodeURIComponent(invoiceId)}?token=${encodeURIComponent(token)}`,
  unauthorized: '/unauthorized',
  admin: {
    root: '/admin',
    dashboard: '/admin',
    calendar: '/admin/calendar',
    quoteRequests: '/admin/quote-requests',
    quoteRequest: (id: string) => `/admin/quote-requests/${encodeURIComponent(id)}`,
    /** A request the office enters for a client who phoned. */
    newQuoteRequest: '/admin/quote-requests/new',
    clients: '/admin/clients',
    client: (id: string) => `/admin/clients/${encodeURIComponent(id)}`,
    jobs: '/admin/jobs',
    job: (id: string) => `/admin/jobs/${encodeURIComponent(id)}`,
    invoices: '/admin/invoices',
    reports: '/admin/reports',
    invoice: (id: string) => `/admin/invoices/${encodeURIComponent(id)}`,
    users: '/admin/users',
    settings: '/admin/settings',
    /** The audit trail. */
    activity: '/admin/activity',
    /** Backups, exports and the clients import. */
    data: '/admin/data',
  },
  media: {
    /** The business's logo; the version changes with it, so it may be cached for good. */
    logo: (version: string) => `/media/logo/${encodeURIComponent(version)}.png`,
  },
  employee: {
    root: '/employee',
    dashboard: '/employee',
    calendar: '/employee/calendar',
    jobs: '/employee/jobs',
    /** A job's record on the crew's phone: checklist, time, materials, photos, sign-off. */
    job: (id: string) => `/employee/jobs/${encodeURIComponent(id)}`,
    schedule: '/employee/schedule',
  },
} as const;

/** Public pages worth listing for search engines. */
export const publicIndexablePaths = [paths.home, paths.getAQuote, paths.contact, paths.quoteRequestStatus] as const;
