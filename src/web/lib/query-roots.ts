/**
 * The first element of every server-state query key, one per kind of record. Features own their
 * keys below these roots; a change in one feature refreshes another's views by its root alone
 * (sending a quote refreshes the request lists), without importing that feature.
 */
export const queryRoots = {
  quoteRequests: ['quote-requests'],
  quotes: ['quotes'],
  jobs: ['jobs'],
  users: ['users'],
  dashboard: ['dashboard'],
  settings: ['settings'],
  clients: ['clients'],
  visits: ['visits'],
  invoices: ['invoices'],
  priceBook: ['price-book'],
  quoteTemplates: ['quote-templates'],
  servicePlans: ['service-plans'],
} as const;
