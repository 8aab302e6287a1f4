import { jobNumberOf } from '#shared/schemas/jobs';
import { quoteNumberOf } from '#shared/schemas/quote-request';
import type { AuditEntry, AuditRecord } from '#shared/schemas/audit';
import type { DbOrTx } from '../db/client';
import { invoiceNames } from '../invoices';
import { jobNames } from '../jobs';
import { requestNames } from '../quote-requests';
import { requestsOfQuoteNumbers } from '../quotes';

type Touched = { kind: 'invoice' | 'job' | 'request' | 'quote'; id: string };

/** Which record an entry's route and target name: an invoice, a job, a request, or a quote (of a request). */
function touched(entry: AuditEntry): Touched | null {
  const path = entry.route.replace(/^\w+ /, '');
  const id = entry.target;
  if (id && path.startsWith('/api/invoices/:id')) return { kind: 'invoice', id };
  if (id && /^\/api\/(my\/)?jobs\/:id/.test(path)) return { kind: 'job', id };
  if (id && /^\/api\/quoterequest\/.*:id/.test(path)) return { kind: 'request', id };
  if (id && path.startsWith('/api/quotes/:quoteId')) return { kind: 'quote', id };
  // Sending or revising a quote names its request in what was sent.
  const requestId = entry.details.quoteRequestId;
  if (path.startsWith('/api/quotes/') && typeof requestId === 'string') return { kind: 'request', id: requestId };
  return null;
}

const idsOf = (all: (Touched | null)[], kind: Touched['kind']) => [
  ...new Set(all.filter((t): t is Touched => t?.kind === kind).map((t) => t.id)),
];

/**
 * Each entry with the record it touched, named as people say it ("Invoice INV-2026-0042", "Job J… ·
 * Dana Whitfield") and whether it still exists: four reads for the whole page, each by the feature
 * that owns the records.
 */
export async function withRecords(db: DbOrTx, entries: AuditEntry[]): Promise<AuditEntry[]> {
  const all = entries.map(touched);
  const [invoices, jobs, quoteRequests] = await Promise.all([
    invoiceNames(db, idsOf(all, 'invoice')),
    jobNames(db, idsOf(all, 'job')),
    requestsOfQuoteNumbers(db, idsOf(all, 'quote')),
  ]);
  const requests = await requestNames(db, [...new Set([...idsOf(all, 'request'), ...quoteRequests.values()])]);

  const recordOf = (t: Touched | null): AuditRecord | null => {
    if (!t) return null;
    if (t.kind === 'invoice') {
      const invoice = invoices.get(t.id);
      if (!invoice) return { kind: 'invoice', id: t.id, label: 'An invoice since deleted', exists: false };
      const label = invoice.number ? `Invoice ${invoice.number}` : `Draft invoice · ${invoice.name}`;
      return { kind: 'invoice', id: t.id, label, exists: true };
    }
    if (t.kind === 'job') {
      const name = jobs.get(t.id);
      const label = `Job ${jobNumberOf(t.id)}`;
      return name === undefined
        ? { kind: 'job', id: t.id, label: `${label} (deleted)`, exists: false }
        : { kind: 'job', id: t.id, label: `${label} · ${name}`, exists: true };
    }
    const requestId = t.kind === 'quote' ? quoteRequests.get(t.id) : t.id;
    const request = requestId ? requests.get(requestId) : undefined;
    if (t.kind === 'quote')
      return request && requestId
        ? { kind: 'request', id: requestId, label: `Quote ${t.id} · ${request.name}`, exists: true }
        : null;
    return request
      ? { kind: 'request', id: t.id, label: `Request ${request.quoteNumber} · ${request.name}`, exists: true }
      : { kind: 'request', id: t.id, label: `Request ${quoteNumberOf(t.id)} (deleted)`, exists: false };
  };
  return entries.map((entry, i) => ({ ...entry, record: recordOf(all[i]!) }));
}
