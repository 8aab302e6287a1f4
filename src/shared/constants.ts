/** Business constants of spec section 9: one place, read by server and client. */

export const QUOTE_REQUEST_STATUSES = ['Pending', 'Accepted', 'Quote Sent', 'Declined'] as const;
export type QuoteRequestStatus = (typeof QUOTE_REQUEST_STATUSES)[number];

export const QUOTE_STATUSES = ['Pending', 'Accepted', 'Declined', 'Requested More Info'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const JOB_STATUSES = ['Not Started', 'In Progress', 'Completed', 'Cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const USER_ROLES = ['employee', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** The spec's four skills, offered first; a worker's skills are the business's own words (any text). */
export const WORKER_TAGS = ['Painting', 'Drywall', 'Plumbing', 'Tile'] as const;

export const MAX_UPLOAD_BYTES = 3_145_728;
/** The most photos the server takes with one quote request: the form keeps no more and says so. */
export const MAX_REQUEST_PHOTOS = 10;
export const PAGE_SIZE = 10;
export const PAGINATION_WINDOW = 5;
export const SEARCH_DEBOUNCE_MS = 300;
export const WORKER_SEARCH_DEBOUNCE_MS = 700;
export const REFETCH_INTERVAL_MS = 60_000;
export const STALE_TIME_MS = 300_000;
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;
export const TOAST_AUTO_CLOSE_MS = 5_000;
export const NARROW_BREAKPOINT_PX = 768;
export const HERO_IMAGE_COUNT = 5;
export const HERO_INTERVAL_MS = 7_000;
export const HERO_FADE_MS = 2_000;
/** The spec's 8%: what a new install charges until the owner sets the rate in Settings. */
export const DEFAULT_TAX_RATE_BASIS_POINTS = 800;
/** Where the business works: "today" and the dates on quotes are this zone's. */
export const BUSINESS_TIME_ZONE = 'America/Los_Angeles';
/** Dates a person may enter: anything outside is a typo (or an attack on the date parser). */
export const EARLIEST_DATE = '2000-01-01';
export const LATEST_DATE = '2100-12-31';
export const JWT_STORAGE_KEY = 'jwt';

/** What an invoice is stored as; Partially Paid, Paid and Overdue follow from its payments and due date. */
export const INVOICE_STATES = ['Draft', 'Sent', 'Void'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
/** What an invoice shows. */
export const INVOICE_STATUSES = ['Draft', 'Sent', 'Partially Paid', 'Paid', 'Overdue', 'Void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const PAYMENT_METHODS = ['cash', 'check', 'card in person', 'bank transfer', 'other'] as const;
export type ManualPaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * Whether a line is taxed when nobody said: materials are, repair labor is not (California's rule for
 * repair work). The business's own defaults are in Settings; the server fills them in before storing.
 * (Here rather than in money.ts, which re-exports it: the public pages' first script reads it, not
 * the money rules.)
 */
export const TAX_DEFAULTS = { material: true, labor: false } as const;

/**
 * What an invoice bills: a job's bill ('final'), a deposit asked when its quote was accepted, or a
 * period or visit of repeating work ('plan', issue 31): a job has one live final bill, any number of the others.
 */
export const INVOICE_KINDS = ['final', 'deposit', 'plan'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
