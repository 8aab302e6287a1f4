import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsView } from '#shared/schemas/settings';
import { createQuoteRequest, insertJob, sampleQuoteLines } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithCrew, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const ADDRESS = '1820 J Street, Sacramento, CA 95811';

/**
 * Issue 28, item 13: every PDF a client receives (quote, invoice, job report) carries the business's
 * address, and its license number when Settings have one.
 */
describe.each(dbKinds)('the business on its PDFs (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  let crew: { id: string; auth: Record<string, string> };
  beforeAll(async () => {
    const office = await createMailingTestAppWithCrew(kind);
    ({ smtp, admin, crew } = office);
    t = office;
  });
  afterAll(() => t.close());

  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, headers = admin, payload?: object) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const putSettings = async (changes: Record<string, unknown>) => {
    const { logoUrl: _l, updatedAt: _u, ...current } = (await ok('GET', '/api/settings')) as SettingsView;
    return ok('PUT', '/api/settings', admin, { ...current, ...changes });
  };
  const pdfMail = async (to: string, subject: string) => {
    const mail = await waitFor(() => smtp.to(to).find((m) => m.parsed.subject?.startsWith(subject)), { what: subject });
    const pdf = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf')!;
    return pdfText(pdf.content);
  };
  const quotePdf = async () => {
    const email = `pdf${randomUUID().slice(0, 8)}@home.test`;
    const request = await createQuoteRequest(t, { email });
    await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`);
    await ok('POST', '/api/quotes/sendQuote', admin, { ...sampleQuoteLines, quoteRequestId: request._id });
    return pdfMail(email, 'Your quote QT');
  };

  it('prints the address and the license number on the quote, the job report and the invoice', async () => {
    const saved = await putSettings({ businessAddress: ADDRESS, licenseNumber: ' CSLB 1045872 ' });
    expect(saved).toMatchObject({ businessAddress: ADDRESS, licenseNumber: 'CSLB 1045872' });

    const quote = await quotePdf();
    expect(quote).toContain(ADDRESS);
    expect(quote).toContain('License no. CSLB 1045872');

    // A job the crew completes: its report goes to the client; then the office sends the invoice.
    const request = await createQuoteRequest(t);
    const email = `job${randomUUID().slice(0, 8)}@home.test`;
    const jobId = await insertJob(t, { withQuote: true, quoteRequestId: request._id, email, status: 'In Progress' });
    await ok('POST', `/api/jobs/${jobId}/assign`, admin, { workers: [{ _id: crew.id }] });
    await ok('POST', `/api/my/jobs/${jobId}/complete`, crew.auth);
    const report = await pdfMail(email, 'Your job report');
    expect(report).toContain(ADDRESS);
    expect(report).toContain('License no. CSLB 1045872');

    const draft = await ok('POST', `/api/jobs/${jobId}/invoice`);
    const sent = await ok('POST', `/api/invoices/${draft._id}/send`);
    const invoice = await pdfMail(email, `Invoice ${sent.number}`);
    expect(invoice).toContain(ADDRESS);
    expect(invoice).toContain('License no. CSLB 1045872');
  });

  it('prints no license line when Settings have none, and refuses one too long', async () => {
    await putSettings({ businessAddress: ADDRESS, licenseNumber: '' });
    const quote = await quotePdf();
    expect(quote).toContain(ADDRESS);
    expect(quote).not.toContain('License');

    const { logoUrl: _l, updatedAt: _u, ...current } = (await ok('GET', '/api/settings')) as SettingsView;
    const long = await t.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: admin,
      payload: { ...current, licenseNumber: 'x'.repeat(41) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('licenseNumber: License number must be at most 40 characters');
  });
});
