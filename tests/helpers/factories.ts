import { eq } from 'drizzle-orm';
import { jobs, quotes } from '../../src/server/db/schema';
import { insertJob as insertJobRow } from '../../src/server/jobs/repository';
import { insertQuote, newQuoteNumber } from '../../src/server/quotes/repository';
import type { JobStatus } from '#shared/constants';
import { waitFor, type TestSmtpServer } from './smtp';
import type { TestApp } from './test-app';

let n = 0;

/**
 * A quote's lines as the builder sends them: 69.98 + 18.50 + 227.50 = 315.98 before tax, every line
 * taxed (8%: 25.28, total 341.26). The labor line says so: left out, labor takes the Settings' default
 * (not taxed); `tests/api/tax-and-deposits.test.ts` covers that.
 */
export const sampleQuoteLines = {
  clientName: 'Dana Whitfield',
  projectName: 'Fence gate and faucet',
  materials: [
    { name: 'Gate hinge kit', unitPrice: 34.99, quantity: 2 },
    { name: 'Faucet cartridge', unitPrice: 18.5, quantity: 1 },
  ],
  labor: [{ hourlyRate: 65, hours: 3.5, taxable: true }],
};

export function quoteRequestBody(overrides: { name?: string; email?: string } = {}) {
  n++;
  return {
    contactPerson: {
      name: overrides.name ?? `Client ${n}`,
      email: overrides.email ?? `client${n}@home.test`,
      phone: '916-555-0100',
    },
    address: { street: `${n} Main St`, city: 'Sacramento', state: 'CA', zip: '95814' },
    notes: `Job number ${n}`,
  };
}

/** A quote request created through the public API, as a visitor would. */
export async function createQuoteRequest(
  t: TestApp,
  overrides: Parameters<typeof quoteRequestBody>[0] & { images?: string[] } = {},
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/quoterequest/create',
    payload: { ...quoteRequestBody(overrides), images: overrides.images ?? [] },
  });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.json().quoteRequest as { _id: string; quoteNumber: string };
}

/** A job (optionally with an accepted quote of known lines), stored through the app's repositories. */
export async function insertJob(
  t: TestApp,
  fields: { name?: string; email?: string; status?: JobStatus; withQuote?: boolean; quoteRequestId?: string } = {},
) {
  n++;
  const db = t.database.db;
  let quoteId: string | null = null;
  if (fields.withQuote && fields.quoteRequestId) {
    const quote = await insertQuote(
      db,
      {
        quoteRequestId: fields.quoteRequestId,
        clientName: 'C',
        projectName: 'Fence',
        materials: [{ name: 'Paint', unitPrice: 34.99, quantity: 2, optional: false }],
        labor: [{ description: 'Rehang the gate', hourlyRate: 65, hours: 3.5, optional: false, taxable: true }],
      },
      {
        quoteNumber: newQuoteNumber(),
        version: 1,
        validUntil: '2099-12-31',
        taxRateBasisPoints: 800,
        taxDefaults: { material: true, labor: false },
        billTo: { companyName: '', billingAddress: '', serviceAddress: '' },
      },
    );
    await db.update(quotes).set({ status: 'Accepted' }).where(eq(quotes.id, quote.id));
    quoteId = quote.id;
  }
  return insertJobRow(db, {
    quoteId,
    quoteRequestId: fields.quoteRequestId ?? null,
    contactName: fields.name ?? `Job Client ${n}`,
    contactEmail: fields.email ?? `job${n}@home.test`,
    contactPhone: '916-555-0111',
    street: `${n} Oak Ave`,
    city: 'Davis',
    state: 'CA',
    zip: '95616',
    notes: 'Replace the fence gate',
    status: fields.status ?? 'Not Started',
  });
}

/**
 * The whole way to a job, through the API as people do it: a request, a quote with a 25% deposit sent
 * by the office, the client's yes from the link in their e-mail (the deposit invoice is e-mailed too).
 */
export async function soldJobWithDeposit(
  t: TestApp,
  smtp: TestSmtpServer,
  admin: Record<string, string>,
  client: { email: string; name: string },
) {
  const call = async (method: 'PUT' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
    const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.body}`);
  };
  const request = await createQuoteRequest(t, client);
  await call('PUT', `/api/quoterequest/markAccepted/${request._id}`, admin);
  await call('POST', '/api/quotes/sendQuote', admin, {
    ...sampleQuoteLines,
    quoteRequestId: request._id,
    deposit: { kind: 'percent', value: 25 },
  });
  const mail = await waitFor(() => smtp.to(client.email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
    what: 'quote e-mail',
  });
  const link = new URL(/http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text!)![0]);
  const quoteId = link.pathname.split('/').pop()!;
  await call(
    'POST',
    `/api/client-quotes/${quoteId}/answer`,
    {},
    { action: 'accept', token: link.searchParams.get('token'), signatureName: client.name },
  );
  const [quote] = await t.database.db.select().from(quotes).where(eq(quotes.quoteNumber, quoteId));
  const [job] = await t.database.db.select().from(jobs).where(eq(jobs.quoteId, quote!.id));
  return { quote: quote!, jobId: job!.id };
}

/**
 * A quote with a deposit (2 hinge kits at $39.47, taxed; 12 hours at $65), sent by the office and
 * accepted by its client through the signed link, and its job completed: the whole way a yes goes.
 */
export async function acceptedJob(t: TestApp, office: Record<string, string>, depositPercent: number) {
  const ok = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url, headers: office, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const tag = Math.random().toString(36).slice(2, 10);
  const email = `tax${tag}@home.test`;
  const name = `Terry Taxes ${tag}`;
  const request = await createQuoteRequest(t, { email, name });
  await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`);
  const quote = await ok('POST', '/api/quotes/sendQuote', {
    quoteRequestId: request._id,
    clientName: name,
    projectName: 'Gate and fence',
    materials: [{ name: 'Gate hinge kit', unitPrice: 39.47, quantity: 2 }],
    labor: [{ description: 'Rebuild the fence', hourlyRate: 65, hours: 12 }],
    deposit: { kind: 'percent', value: depositPercent },
  });
  const token = await t.app.tokens.signScoped('client-quote', quote.quoteId, 3600);
  const accepted = await t.app.inject({
    method: 'POST',
    url: `/api/client-quotes/${quote.quoteId}/answer`,
    payload: { action: 'accept', token, signatureName: name },
  });
  if (accepted.statusCode !== 200) throw new Error(`accept: ${accepted.body}`);
  const { jobs: found } = await ok('GET', `/api/jobs?page=1&limit=5&search=${encodeURIComponent(name)}`);
  const jobId = found[0]._id as string;
  await ok('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' });
  await ok('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' });
  return { quote, jobId, email, request, name };
}
