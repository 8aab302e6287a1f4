// The quotes feature's public entry.
export {
  isExpired as isQuoteExpired,
  quotesOfRequests,
  soldQuoteView,
  requestIdOfQuote,
  requestsOfQuoteNumbers,
  type QuoteRow,
} from './repository';
export { quoteRoutes } from './routes';
export { clientQuoteRoutes } from './client-routes';
export { clientQuoteLink, clientQuotePaths } from './links';
export type { OnQuoteAccepted } from './service';
