import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths, patterns } from '#shared/paths';

// Issue 26.2: a page's address is written once; the router matches `patterns` and links are made by
// `paths`, which fills the same patterns in.
describe('page addresses, written once', () => {
  const id = 'a b/c?d';
  const cases: [string, string, string][] = [
    [patterns.quoteRequestStatusOf, paths.quoteRequestStatusOf(id), 'quoteRequestId'],
    [patterns.clientQuote, paths.clientQuote(id, 'tok').split('?')[0]!, 'quoteId'],
    [patterns.clientInvoice, paths.clientInvoice(id, 'tok').split('?')[0]!, 'invoiceId'],
    [patterns.admin.quoteRequest, paths.admin.quoteRequest(id), 'quoteRequestId'],
    [patterns.admin.client, paths.admin.client(id), 'clientId'],
    [patterns.admin.job, paths.admin.job(id), 'jobId'],
    [patterns.admin.invoice, paths.admin.invoice(id), 'invoiceId'],
    [patterns.employee.job, paths.employee.job(id), 'jobId'],
  ];

  it.each(cases)('the router’s %s matches the link made for an id, and gives that id back', (pattern, link, name) => {
    expect(decodeURIComponent(matchPath(pattern, link)?.params[name] ?? '')).toBe(id);
  });

  it('links carry their token as a query', () => {
    expect(paths.clientQuote('q1', 'a+b')).toBe('/quote/q1?token=a%2Bb');
    expect(paths.clientInvoice('i1', 't')).toBe('/invoice/i1?token=t');
  });
});
