// The quotes feature's public entry.
export { quotesOfRequests, soldQuoteView, requestIdOfQuote, requestsOfQuoteNumbers, type QuoteRow } from './repository';
export { quoteRoutes } from './routes';
export { clientQuoteRoutes } from './client-routes';
export { clientQuoteLink } from './links';
export type { OnQuoteAccepted } from './service';
