import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobNumberOf } from '#shared/schemas/jobs';
import { auditLog, jobs, quoteRequests } from '../../src/server/db/schema';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { bearer, createMailingTestAppWithAdmin, createUserAndSignIn, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

// Issue 28.5's rest (decision 037): the company and billing address on the client's documents, the PO
// number in the invoice draft, and service addresses renamed, corrected and removed.

describe.each(dbKinds)('commercial clients on their documents, and their service addresses (%s)', (kind) => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    const mailing = await createMailingTestAppWithAdmin(kind);
    t = mailing;
    smtp = mailing.smtp;
    admin = mailing.admin;
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  /** A company client with a billing address and a second property; a request at that property. */
  async function commercialClient(tag: string) {
    const email = `ap-${tag}-${Date.now()}@acme.test`;
    const contact = { name: 'Pat Ortiz', email, phone: '916-555-0142' };
    const first = await call('POST', '/api/quoterequest/create', {
      contactPerson: contact,
      address: { street: '100 Main St', city: 'Sacramento', state: 'CA', zip: '95814' },
      notes: 'Front door closer',
      images: [],
    });
    expect(first.statusCode, first.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(quoteRequests)
      .where(eq(quoteRequests.id, first.json().quoteRequest._id));
    const clientId = row!.clientId!;
    const changed = await call('PUT', `/api/clients/${clientId}`, {
      name: 'Pat Ortiz',
      phone: '916-555-0142',
      notes: '',
      companyName: 'Acme Storage LLC',
      billingAddress: { street: 'PO Box 77', city: 'Sacramento', state: 'CA', zip: '95812' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const added = await call('POST', `/api/clients/${clientId}/addresses`, {
      label: 'Warehouse',
      street: '2200 Industrial Blvd',
      city: 'West Sacramento',
      state: 'CA',
      zip: '95691',
    });
    expect(added.statusCode, added.body).toBe(201);
    const warehouse = (added.json().addresses as { _id: string; label: string }[]).find((a) => a.label)!;
    const entered = await call('POST', '/api/quoterequest/staff-entry', {
      contactPerson: contact,
      address: { street: 'x', city: 'x', state: 'CA', zip: '00000' },
      notes: 'Dock door spring',
      images: [],
      clientId,
      serviceAddressId: warehouse._id,
    });
    expect(entered.statusCode, entered.body).toBe(201);
    return { email, clientId, warehouseId: warehouse._id, requestId: entered.json().quoteRequest._id as string };
  }

  /** Sends the request's quote, accepts it by the client's link; the job's id. */
  async function soldJob(email: string, requestId: string, poNumber = 'PO-4471') {
    const sent = await call('POST', '/api/quotes/sendQuote', {
      quoteRequestId: requestId,
      clientName: 'Pat Ortiz',
      projectName: 'Dock door',
      materials: [{ name: 'Door spring', unitPrice: 120, quantity: 1 }],
      labor: [{ description: 'Replace the spring', hourlyRate: 90, hours: 2 }],
      poNumber,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Your quote ${sent.json().quoteId}`)),
      { what: 'quote e-mail' },
    );
    const token = new URL(
      /http:\/\/handyman\.test\/quote\/QT\d{8}\?token=[\w.-]+/.exec(mail.parsed.text!)![0],
    ).searchParams.get('token')!;
    const accepted = await call(
      'POST',
      `/api/client-quotes/${sent.json().quoteId}/answer`,
      { action: 'accept', token, signatureName: 'Pat Ortiz' },
      {},
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.quoteRequestId, requestId));
    return { jobId: job!.id, quote: sent.json(), mail, token };
  }

  it("prints the company and the billing address on the quote's page, e-mail and PDF, the property beside them", async () => {
    const { email, requestId } = await commercialClient('quote');
    // The office's request page names the company.
    expect((await call('GET', `/api/quoterequest/${requestId}`)).json()).toMatchObject({
      companyName: 'Acme Storage LLC',
      billingAddress: 'PO Box 77, Sacramento, CA 95812',
    });
    const { quote, mail, token, jobId } = await soldJob(email, requestId);
    // … and the job's.
    expect((await call('GET', `/api/jobs/${jobId}`)).json().companyName).toBe('Acme Storage LLC');
    expect(quote).toMatchObject({
      companyName: 'Acme Storage LLC',
      billingAddress: 'PO Box 77, Sacramento, CA 95812',
      serviceAddress: '2200 Industrial Blvd, West Sacramento, CA 95691',
    });
    for (const line of [
      'Company: Acme Storage LLC',
      'Billing address: PO Box 77, Sacramento, CA 95812',
      'Service address: 2200 Industrial Blvd, West Sacramento, CA 95691',
    ]) {
      expect(await pdfText(mail.parsed.attachments[0]!.content)).toContain(line);
    }
    expect(mail.parsed.text).toContain('Acme Storage LLC');
    expect(mail.parsed.text).toContain('PO Box 77, Sacramento, CA 95812');
    const page = await call(
      'GET',
      `/api/client-quotes/${quote.quoteId}?token=${encodeURIComponent(token)}`,
      undefined,
      {},
    );
    expect(page.json()).toMatchObject({
      companyName: 'Acme Storage LLC',
      billingAddress: 'PO Box 77, Sacramento, CA 95812',
      serviceAddress: '2200 Industrial Blvd, West Sacramento, CA 95691',
    });
  });

  it("keeps the quote's PO in the invoice draft, edits it trimmed and bounded, and bills the company as it stands when sent", async () => {
    const { email, clientId, requestId } = await commercialClient('invoice');
    const { jobId } = await soldJob(email, requestId, 'PO-4471');
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' })).statusCode).toBe(200);
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' })).statusCode).toBe(200);
    const drafted = await call('POST', `/api/jobs/${jobId}/invoice`);
    expect(drafted.statusCode, drafted.body).toBe(201);
    const draft = drafted.json();
    expect(draft).toMatchObject({ poNumber: 'PO-4471', companyName: 'Acme Storage LLC' });
    const body = {
      lines: draft.lines.map((l: { description: string; quantity: number; unitPrice: number; taxable: boolean }) => ({
        description: l.description,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        taxable: l.taxable,
      })),
      dueDays: 30,
      notes: '',
    };
    const tooLong = await call('PUT', `/api/invoices/${draft._id}`, { ...body, poNumber: 'P'.repeat(41) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('PO number must be at most 40 characters');
    const saved = await call('PUT', `/api/invoices/${draft._id}`, { ...body, poNumber: '  PO-9001-B  ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('GET', `/api/invoices/${draft._id}`)).json().poNumber).toBe('PO-9001-B');
    // Left out, unchanged (an older caller); emptied, gone.
    expect((await call('PUT', `/api/invoices/${draft._id}`, body)).statusCode).toBe(200);
    expect((await call('GET', `/api/invoices/${draft._id}`)).json().poNumber).toBe('PO-9001-B');

    // The company renamed before sending: the invoice goes out with the new name.
    expect(
      (
        await call('PUT', `/api/clients/${clientId}`, {
          name: 'Pat Ortiz',
          phone: '916-555-0142',
          notes: '',
          companyName: 'Acme Storage Group',
        })
      ).statusCode,
    ).toBe(200);
    const send = await call('POST', `/api/invoices/${draft._id}/send`);
    expect(send.statusCode, send.body).toBe(200);
    const mail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.includes('Invoice INV-')), {
      what: 'invoice e-mail',
    });
    expect(mail.parsed.text).toContain('PO-9001-B');
    expect(mail.parsed.text).toContain('Acme Storage Group, Pat Ortiz, PO Box 77, Sacramento, CA 95812');
    const pdf = await pdfText(mail.parsed.attachments[0]!.content);
    expect(pdf).toContain('PO No.: PO-9001-B');
    expect(pdf).toContain('Bill to: Acme Storage Group');
    expect(pdf).toContain('Pat Ortiz');
    expect(pdf).toContain('PO Box 77, Sacramento, CA 95812');
    expect(pdf).toContain('Service address: 2200 Industrial Blvd, West Sacramento, CA 95691');
    const link = new URL(/https?:\/\/\S+\/invoice\/\S+/.exec(mail.parsed.text!)![0]);
    const client = await call(
      'GET',
      `/api/client-invoices/${draft._id}?token=${encodeURIComponent(link.searchParams.get('token')!)}`,
      undefined,
      {},
    );
    expect(client.json()).toMatchObject({
      companyName: 'Acme Storage Group',
      billingAddress: 'PO Box 77, Sacramento, CA 95812',
      poNumber: 'PO-9001-B',
    });
    // Sent, it keeps what it was sent with: the PO no longer changes.
    expect((await call('PUT', `/api/invoices/${draft._id}`, { ...body, poNumber: 'X' })).statusCode).toBe(409);
  });

  it('renames and corrects a service address (open jobs follow, requests keep theirs) and removes it once no open job is there', async () => {
    const { email, clientId, warehouseId, requestId } = await commercialClient('addresses');
    const { jobId } = await soldJob(email, requestId);
    const url = `/api/clients/${clientId}/addresses/${warehouseId}`;
    const corrected = {
      label: 'North warehouse',
      street: '2202 Industrial Blvd',
      city: 'West Sacramento',
      state: 'CA',
      zip: '95691',
    };

    // Staff only: the crew may not; a stranger's or a missing address is not found; the same place twice is refused.
    const crew = bearer((await createUserAndSignIn(t, 'employee')).token);
    expect((await call('PUT', url, corrected, crew)).statusCode).toBe(403);
    expect((await call('DELETE', url, undefined, crew)).statusCode).toBe(403);
    expect((await call('PUT', url, corrected, {})).statusCode).toBe(401);
    expect((await call('PUT', `/api/clients/${clientId}/addresses/nope`, corrected)).statusCode).toBe(404);
    const otherClient = await commercialClient('other');
    expect(
      (await call('PUT', `/api/clients/${otherClient.clientId}/addresses/${warehouseId}`, corrected)).statusCode,
    ).toBe(404);
    const taken = await call('PUT', url, { ...corrected, street: '100 MAIN ST', zip: '95814' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('already has a service address at 100 MAIN ST');
    expect((await call('PUT', url, { ...corrected, street: ' ' })).statusCode).toBe(400);

    const changed = await call('PUT', url, corrected);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().addresses).toContainEqual({ _id: warehouseId, ...corrected });
    // The open job goes to the corrected address; the request keeps the one it was sent with.
    expect((await call('GET', `/api/jobs/${jobId}`)).json().address).toMatchObject({ street: '2202 Industrial Blvd' });
    const [request] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, requestId));
    expect(request!.street).toBe('2200 Industrial Blvd');
    // Found by the new street.
    const found = (await call('GET', '/api/clients?search=2202%20industrial')).json();
    expect(found.clients.map((c: { _id: string }) => c._id)).toContain(clientId);

    // Not while the job is open there: the message names it.
    const refused = await call('DELETE', url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ADDRESS_IN_USE',
      message: `This address cannot be removed while job ${jobNumberOf(jobId)} (Not Started) is open at it: move it to another address first`,
    });
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'In Progress' })).statusCode).toBe(200);
    expect((await call('PATCH', `/api/jobs/${jobId}/status`, { status: 'Completed' })).statusCode).toBe(200);

    const removed = await call('DELETE', url);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().addresses.map((a: { _id: string }) => a._id)).not.toContain(warehouseId);
    expect((await call('DELETE', url)).statusCode).toBe(404);
    // The request and the finished job keep their address; only the link to the removed one is gone.
    const [requestAfter] = await t.database.db.select().from(quoteRequests).where(eq(quoteRequests.id, requestId));
    expect(requestAfter).toMatchObject({ street: '2200 Industrial Blvd', serviceAddressId: null });
    const jobAfter = (await call('GET', `/api/jobs/${jobId}`)).json();
    expect(jobAfter).toMatchObject({ serviceAddressId: null, address: { street: '2202 Industrial Blvd' } });
    const history = (await call('GET', `/api/clients/${clientId}`)).json().history;
    expect(history.requests.map((r: { address: string }) => r.address)).toContain(
      '2200 Industrial Blvd, West Sacramento, CA 95691',
    );

    // In the trail as client edits, with the address changed.
    const trail = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.kind, 'clients'), eq(auditLog.target, clientId)));
    expect(trail.map((e) => e.action)).toEqual(
      expect.arrayContaining(['Changed a service address', 'Removed a service address']),
    );
    const change = trail.find((e) => e.action === 'Changed a service address')!;
    expect(change.details).toMatchObject({ changes: { street: '2202 Industrial Blvd' } });
    expect(trail.filter((e) => e.action === 'Refused: Changed a service address').length).toBe(1);
  });
});
