// Every table, for drizzle-kit (migrations) and the relational queries. Each feature declares and alone
// writes its own tables in its tables.ts (decision 010); other features may read them through here.
export * from '../users/tables';
export * from '../auth/tables';
export * from '../clients/tables';
export * from '../quote-requests/tables';
export * from '../quotes/tables';
export * from '../jobs/tables';
export * from '../settings/tables';
export * from '../contact/tables';
export * from '../mail/tables';
export * from '../activity/tables';
export * from '../visits/tables';
export * from '../job-records/tables';
export * from '../invoices/tables';
export * from '../audit/tables';
export * from '../documents/tables';
export * from '../figures/tables';
export * from '../price-book/tables';
export * from '../payments/tables';
export * from '../system/tables';
export * from '../webhooks/tables';
export * from '../texts/tables';
export * from '../booking/tables';
