import { paths, patterns } from './paths';

export interface PageMeta {
  title: string;
  description: string;
  /** Staff and one-off pages stay out of search results. */
  index: boolean;
  /** The page's lazily loaded module (under src/web), whose stylesheets the server links in the page it sends. */
  module?: string;
  /**
   * A client's own page (their quote, invoice, request's status from an e-mailed link): the server
   * renders it for each request with the data the page reads from the API, so it paints as soon as
   * the public pages do (decision 021). Pages with `index` are rendered once instead.
   */
  withData?: true;
  /** The crew's pages: linked to the crew app's manifest, so a phone can install them (decision 030). */
  crewApp?: true;
}

/** The app's own module (under src/web), loaded by the entry script once the page is painted: every page links its stylesheets. */
export const appModule = 'app/start.tsx';

const staff: PageMeta = { title: 'Staff', description: 'Staff back office.', index: false };

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
    paths.unauthorized,
    { title: 'Unauthorized', description: 'You do not have permission to view this page.', index: false },
  ],
  [`${paths.admin.root}/*`, staff],
  [`${paths.employee.root}/*`, { ...staff, crewApp: true }],
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
