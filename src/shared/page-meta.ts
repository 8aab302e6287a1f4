import { paths, patterns } from './paths';

export interface PageMeta {
  title: string;
  description: string;
  /** Staff and one-off pages stay out of search results. */
  index: boolean;
  /** The page's lazily loaded module (under src/web), whose stylesheets the server links in the page it sends. */
  module?: string;
  /** The lazily loaded layout around it (the back office's and the crew's frame), loaded with it. */
  layout?: string;
  /**
   * A client's own page (their quote, invoice, request's status from an e-mailed link): the server
   * renders it for each request with the data the page reads from the API, so it paints as soon as
   * the public pages do (decision 021). Pages with `index` are rendered once instead.
   */
  withData?: true;
  /**
   * A page whole as the server renders it, with nothing a visitor fills in: the app does not take it
   * over (no React on the phone for it), and the entry runs only its small scripts (the hero's
   * cross-fade; main.tsx, decision 050). Its links lead to pages the server renders.
   */
  withoutApp?: true;
  /**
   * A form the server renders whole, whose fields work as the browser's own: the app takes it over
   * when the visitor first reaches for the page (a touch, a key, the pointer, a scroll), not while it
   * is painted and read. Its chunks are fetched once it is painted; the buttons that need the app
   * are disabled until then (main.tsx, decision 051).
   */
  appOnFirstUse?: true;
  /** The crew's pages: linked to the crew app's manifest, so a phone can install them (decision 030). */
  crewApp?: true;
}

/** The app's own module (under src/web), loaded by the entry script once the page is painted: every page links its stylesheets. */
export const appModule = 'app/start.tsx';

const staff: PageMeta = { title: 'Staff', description: 'Staff back office.', index: false };
const staffLayout = 'app/layouts/staff-layout.tsx';

/**
 * The back office's and the crew's pages with their modules (the router's, router.tsx; a unit test
 * holds the two alike): a first load asks for the frame's and the page's chunks with the app's, not
 * after the app has run and the router has matched the path (two more round trips, a phone's second
 * on a weak signal). More particular patterns first: "new" before a request's id.
 */
const staffPages: [pattern: string, module: string][] = [
  [paths.admin.root, 'features/dashboard/pages/dashboard-page.tsx'],
  [paths.admin.newQuoteRequest, 'features/quote-requests/pages/new-request-page.tsx'],
  [paths.admin.quoteRequests, 'features/quote-requests/pages/admin-list-page.tsx'],
  [patterns.admin.quoteRequest, 'app/pages/quote-request-page.tsx'],
  [paths.admin.clients, 'features/clients/pages/clients-page.tsx'],
  [patterns.admin.client, 'features/clients/pages/client-page.tsx'],
  [paths.admin.calendar, 'features/visits/pages/calendar-page.tsx'],
  [paths.admin.jobs, 'features/jobs/pages/jobs-page.tsx'],
  [patterns.admin.job, 'app/pages/job-page.tsx'],
  [paths.admin.invoices, 'features/invoices/pages/invoices-page.tsx'],
  [patterns.admin.invoice, 'features/invoices/pages/invoice-page.tsx'],
  [paths.admin.reports, 'features/reports/pages/reports-page.tsx'],
  [paths.admin.priceBook, 'features/price-book/pages/price-book-page.tsx'],
  [paths.admin.users, 'features/users/pages/users-page.tsx'],
  [paths.admin.settings, 'features/settings/pages/settings-page.tsx'],
  [paths.admin.activity, 'features/audit/pages/activity-page.tsx'],
  [paths.admin.data, 'features/your-data/pages/your-data-page.tsx'],
  [paths.admin.system, 'features/system/pages/system-page.tsx'],
  [paths.admin.account, 'features/auth/pages/account-page.tsx'],
  [paths.employee.root, 'app/pages/employee-home-page.tsx'],
  [paths.employee.jobs, 'features/employee/pages/employee-jobs-page.tsx'],
  [patterns.employee.job, 'app/pages/crew-job-page.tsx'],
  [paths.employee.schedule, 'features/employee/pages/schedule-page.tsx'],
  [paths.employee.account, 'features/auth/pages/account-page.tsx'],
  [paths.employee.calendar, 'features/visits/pages/calendar-page.tsx'],
];

/**
 * Every client route pattern with its title and description: the server writes them into the page
 * it sends (for search engines and link previews), the client into document.title.
 */
export const routeMeta: [pattern: string, meta: PageMeta][] = [
  [
    paths.home,
    {
      title: '',
      description:
        'Handyman services in Sacramento and surrounding counties: residential and commercial repairs, installs, painting, drywall, tile, plumbing and electrical fixtures, and pressure washing. Send photos and get a fast, free quote.',
      index: true,
      withoutApp: true,
    },
  ],
  [
    paths.getAQuote,
    {
      title: 'Get a Quote',
      description:
        'Tell us about your repair or install, add photos, and get a fast, free estimate from a qualified local handyman.',
      index: true,
      module: 'features/quote-requests/pages/get-a-quote-page.tsx',
      appOnFirstUse: true,
    },
  ],
  [paths.getAQuoteSuccess, { title: 'Quote Request Sent', description: 'Your quote request was sent.', index: false }],
  [
    paths.contact,
    {
      title: 'Contact',
      description: 'Questions about a repair or a quote? Send us a message and we will be in touch soon.',
      index: true,
      module: 'features/contact/pages/contact-page.tsx',
      appOnFirstUse: true,
    },
  ],
  [paths.thankYou, { title: 'Thank You', description: 'Thanks for contacting us.', index: false }],
  [paths.login, { title: 'Admin Sign In', description: 'Staff sign-in.', index: false }],
  [
    paths.quoteRequestStatus,
    {
      title: 'Quote Request Status',
      description: 'Check the status of your quote request with your quote number.',
      index: true,
      module: 'features/quote-requests/pages/status-lookup-page.tsx',
      appOnFirstUse: true,
    },
  ],
  [
    patterns.quoteRequestStatusOf,
    {
      title: 'Quote Request Status',
      description: 'The status of your quote request.',
      index: false,
      module: 'features/quote-requests/pages/status-page.tsx',
      withData: true,
    },
  ],
  [paths.quoteAccepted, { title: 'Quote Accepted', description: 'You accepted the quote.', index: false }],
  [paths.quoteDeclined, { title: 'Quote Declined', description: 'You declined the quote.', index: false }],
  [
    patterns.clientQuote,
    {
      title: 'Your Quote',
      description: 'Your quote.',
      index: false,
      module: 'features/quotes/pages/client-quote-page.tsx',
      withData: true,
    },
  ],
  [
    patterns.clientInvoice,
    {
      title: 'Your Invoice',
      description: 'Your invoice.',
      index: false,
      module: 'features/invoices/pages/client-invoice-page.tsx',
      withData: true,
    },
  ],
  [
    patterns.clientPage,
    {
      title: 'Your page',
      description: 'Your page.',
      index: false,
      module: 'features/clients/pages/client-own-page.tsx',
      withData: true,
    },
  ],
  [
    patterns.servicePlanOffer,
    {
      title: 'Your Service Plan',
      description: 'A service plan to read and sign.',
      index: false,
      module: 'features/clients/pages/service-plan-offer-page.tsx',
    },
  ],
  [
    paths.unauthorized,
    { title: 'Unauthorized', description: 'You do not have permission to view this page.', index: false },
  ],
  ...staffPages.map(([pattern, module]): [string, PageMeta] => [
    pattern,
    { ...staff, layout: staffLayout, module, ...(pattern.startsWith(paths.employee.root) ? { crewApp: true } : {}) },
  ]),
  [`${paths.admin.root}/*`, { ...staff, layout: staffLayout }],
  [`${paths.employee.root}/*`, { ...staff, layout: staffLayout, crewApp: true }],
];

export const notFoundMeta: PageMeta = {
  title: 'Page Not Found',
  description: 'The page you are looking for does not exist.',
  index: false,
};

function toRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) =>
      segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  // "/admin/*" also matches "/admin" itself; routes match regardless of case, as the client's do.
  return new RegExp(`^${source.replace(/\/\.\*$/, '(?:/.*)?')}/?$`, 'i');
}

/** Compiled on first use, not when the module loads: the browser, which only needs `documentTitle`, leaves the table out. */
let compiled: { re: RegExp; pattern: string; meta: PageMeta }[] | undefined;

/** The route pattern a path belongs to and its meta, or undefined for a path no route serves (a 404). */
export function routeForPath(pathname: string): { pattern: string; meta: PageMeta } | undefined {
  compiled ??= routeMeta.map(([pattern, meta]) => ({ re: toRegExp(pattern), pattern, meta }));
  return compiled.find(({ re }) => re.test(pathname));
}

/** The meta of the route a path belongs to, or undefined for a path no route serves (a 404). */
export function metaForPath(pathname: string): PageMeta | undefined {
  return routeForPath(pathname)?.meta;
}

/** A page's document title, the same whether the server or the browser sets it. */
export function documentTitle(title: string | undefined, businessName: string): string {
  return title ? `${title} | ${businessName}` : `${businessName} — Handyman in Sacramento`;
}
