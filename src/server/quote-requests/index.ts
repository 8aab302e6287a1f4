// The quote-requests feature's public entry.
export {
  findQuoteRequestById,
  requestKeptCounts,
  requestsAwaitingQuote,
  requestNames,
  requestWindowCounts,
  requestsOfClient,
  setQuoteStatus,
  transitionQuoteRequest,
  type QuoteRequestRow,
} from './repository';
export { QuoteStatusCache, requestStatusCache } from './status-cache';
export { requestPhotos } from './image-links';
export { publicQuoteRequestRoutes } from './routes';
export { staffQuoteRequestRoutes } from './staff-routes';
