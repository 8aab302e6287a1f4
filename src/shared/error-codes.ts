// Plain values without zod: the public pages' first script reads them (api-client), and zod is not
// part of what a visitor loads before the page can be used (issue 34). The schema is in schemas/errors.ts.

/**
 * The stable codes error bodies carry beside their message: clients (our web app included) branch
 * on these, never on the wording, which may change. Listed in the OpenAPI document.
 */
export const ERROR_CODES = [
  // Generic, by status
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'REQUEST_INCOMPLETE',
  'REQUEST_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  // Specific
  'USERNAME_TAKEN',
  'WEAK_PASSWORD',
  'TWO_STEP_REQUIRED',
  /** Settings require two-step sign-in for this role and the account has not turned it on yet. */
  'TWO_STEP_SETUP_REQUIRED',
  'TWO_STEP_INVALID',
  'LAST_OWNER',
  'OWN_ACCOUNT',
  'INVALID_IMAGE',
  'IMAGE_TOO_LARGE',
  'FILES_TOO_LARGE',
  'REQUEST_NOT_PENDING',
  'QUOTE_ALREADY_SENT',
  'QUOTE_ALREADY_ANSWERED',
  'LINK_EXPIRED',
  'LINK_INVALID',
  'INVALID_STATUS_CHANGE',
  'QUOTE_REPLACED',
  'QUOTE_EXPIRED',
  'QUOTE_NOT_REVISABLE',
  'NO_QUESTION',
  'MAIL_NOT_RETRYABLE',
  'VISIT_CONFLICT',
  'VISIT_CANCELLED',
  'VISIT_APPROVED',
  'VISIT_OVER',
  'FEED_INVALID',
  'JOB_CLOSED',
  'RECORD_LIMIT',
  'DAY_FULL',
  'ITEM_FROM_QUOTE',
  'INVOICE_NOT_DRAFT',
  'INVOICE_EXISTS',
  'INVOICE_NOT_PAYABLE',
  'OVERPAYMENT',
  // Online payment: the provider declined or refused (decision 035; its message says which)
  'PAYMENT_FAILED',
  'JOB_NOT_COMPLETED',
  'UNPRICED_MATERIALS',
  'BACKUP_NOT_EMBEDDED',
  'IMPORT_FILE_INVALID',
  // An open job is at the service address the office tried to remove (decision 037)
  'ADDRESS_IN_USE',
  // A client moving their visit (decision 046): someone took the window first (fresh ones come with it),
  // or changes are closed for this visit (too late, moved too often, or the business does not allow them)
  'WINDOW_TAKEN',
  'CHANGE_CLOSED',
  // Booking an estimate visit online (issue 31): the owner has it off, or the place is outside the area
  'BOOKING_OFF',
  'OUTSIDE_AREA',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The code that goes with a status when nothing more specific applies. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 408:
      return 'REQUEST_TIMEOUT';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
  }
}
