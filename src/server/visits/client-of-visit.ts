import type { DbOrTx } from '../db/client';
import { findJobById } from '../jobs';
import { findQuoteRequestById } from '../quote-requests';
import type { VisitRow } from './repository';

/** `id`: the job's; null for an estimate visit, whose client is its request's (issue 31). */
export type ClientOfJob = {
  id: string | null;
  quoteRequestId: string | null;
  contactEmail: string;
  clientId: string | null;
};

/** Whom a visit's messages go to: its job's client, or its request's for an estimate visit. */
export async function clientOfVisit(
  db: DbOrTx,
  row: Pick<VisitRow, 'jobId' | 'quoteRequestId'>,
): Promise<ClientOfJob | undefined> {
  if (row.jobId) return findJobById(db, row.jobId);
  const request = row.quoteRequestId ? await findQuoteRequestById(db, row.quoteRequestId) : undefined;
  return (
    request && { id: null, quoteRequestId: request.id, contactEmail: request.contactEmail, clientId: request.clientId }
  );
}
