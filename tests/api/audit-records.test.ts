import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '#shared/schemas/audit';
import { jobNumberOf } from '#shared/schemas/jobs';
import { createQuoteRequest, insertJob } from '../helpers/factories';
import { bearer, createTestApp, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

/** Issue 28, item 12: each Activity entry names the invoice, job or request it touched, and says when it is gone. */
describe.each(dbKinds)('the records Activity names (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = bearer((await createUserAndSignIn(t, 'admin')).token);
  });
  afterAll(() => t.close());

  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.statusCode === 204 ? null : res.json();
  };
  const trail = async () => (await ok('GET', '/api/audit?page=1&limit=50')).entries as AuditEntry[];

  it('names a request, a job and an invoice by their numbers and clients; a deleted draft stays named, unlinked', async () => {
    const request = await createQuoteRequest(t, { name: 'Dana Whitfield' });
    await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const jobId = await insertJob(t, { name: 'Robin Banks', status: 'Completed' });
    const draft = await ok('POST', `/api/jobs/${jobId}/invoice`);
    const sent = await ok('POST', `/api/invoices/${draft._id}/send`);
    const other = await insertJob(t, { name: 'Gone Draft', status: 'Completed' });
    const dropped = await ok('POST', `/api/jobs/${other}/invoice`);
    await ok('DELETE', `/api/invoices/${dropped._id}`);

    const entries = await trail();
    const of = (action: string) => entries.find((e) => e.action === action)?.record;
    expect(entries.find((e) => e.target === request._id)?.record).toEqual({
      kind: 'request',
      id: request._id,
      label: `Request ${request.quoteNumber} · Dana Whitfield`,
      exists: true,
    });
    expect(entries.find((e) => e.target === jobId)?.record).toEqual({
      kind: 'job',
      id: jobId,
      label: `Job ${jobNumberOf(jobId)} · Robin Banks`,
      exists: true,
    });
    expect(entries.find((e) => e.target === draft._id)?.record).toEqual({
      kind: 'invoice',
      id: draft._id,
      label: `Invoice ${sent.number}`,
      exists: true,
    });
    expect(entries.find((e) => e.target === dropped._id)?.record).toEqual({
      kind: 'invoice',
      id: dropped._id,
      label: 'An invoice since deleted',
      exists: false,
    });
    // A sign-in or a settings change touches none of them.
    expect(of('Signed in') ?? null).toBeNull();
  });

  it('records a quote when it is sent, not the drafts the builder asks for on the way', async () => {
    const request = await createQuoteRequest(t, { name: 'Quinn Drafts' });
    await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    const quote = {
      quoteRequestId: request._id,
      clientName: 'Quinn Drafts',
      projectName: 'Gate latch',
      materials: [{ name: 'Latch', unitPrice: 24.5, quantity: 1 }],
      labor: [],
    };
    const draft = await ok('POST', '/api/quotes/createNew', quote);
    await ok('POST', '/api/quotes/preview', quote);
    const before = (await trail()).filter((e) => e.target === request._id || e.kind === 'quotes');
    expect(before.map((e) => e.action)).not.toContain('Created a quote');
    await ok('POST', '/api/quotes/sendQuote', { ...quote, quote: { quoteId: draft.quoteId } });
    const sent = (await trail()).filter((e) => e.action === 'Sent a quote');
    expect(sent).toHaveLength(1);
    expect((await trail()).map((e) => e.action)).not.toContain('Created a quote');
  });
});
