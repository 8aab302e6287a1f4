import type { ClientHistory } from '#shared/schemas/clients';
import { toDollars } from '#shared/money';
import type { Db } from './db/client';
import { clientInvoicesAndBalance } from './invoices';
import { jobsOfClient } from './jobs';
import { quotesOfRequests } from './quotes';
import { requestsOfClient } from './quote-requests';

/**
 * Everything of a client's for their page: their requests, every quote version sent for them, the
 * jobs they became, their invoices and what they owe (`today` where the business is, for Overdue).
 * Composed here, at the app's root, because those features build on clients.
 */
export async function clientHistory(db: Db, clientId: string, today: string): Promise<ClientHistory> {
  const requests = await requestsOfClient(db, clientId);
  const ids = requests.map((r) => r.id);
  const [quotes, jobs, billed] = await Promise.all([
    quotesOfRequests(db, ids),
    jobsOfClient(db, clientId, ids),
    clientInvoicesAndBalance(db, clientId, today),
  ]);
  return {
    requests: requests.map((r) => ({
      _id: r.id,
      quoteNumber: r.quoteNumber,
      status: r.status,
      quoteState: r.quoteStatus,
      address: `${r.street}, ${r.city}, ${r.state} ${r.zip}`,
      createdAt: r.createdAt.toISOString(),
    })),
    quotes: quotes.map((q) => ({
      quoteId: q.quoteNumber,
      quoteRequestId: q.quoteRequestId,
      projectName: q.projectName,
      status: q.status,
      current: q.replacedAt === null,
      total: q.totalCents / 100,
      quoteDate: q.quoteDate.toISOString(),
    })),
    jobs: jobs.map((j) => ({
      _id: j.id,
      status: j.status,
      quoteRequestId: j.quoteRequestId,
      createdAt: j.createdAt.toISOString(),
    })),
    invoices: billed.invoices,
    balance: toDollars(billed.owedCents),
  };
}
