import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { mailOutbox, payments } from '../../src/server/db/schema';
import { newId } from '../../src/server/db/ids';
import { QUICKBOOKS_INVOICE_COLUMNS, XERO_INVOICE_COLUMNS } from '#shared/accounting';
import { todayIn } from '#shared/dates';
import { toCents } from '#shared/money';
import { acceptedJob as acceptedJobFor, createQuoteRequest } from '../helpers/factories';
import { pdfText } from '../helpers/pdf';
import { waitFor, type TestSmtpServer } from '../helpers/smtp';
import { createMailingTestAppWithAdmin, type TestApp } from '../helpers/test-app';
import { dbKinds } from '../helpers/test-db';

const today = () => todayIn('America/Los_Angeles');

/**
 * Issue 24, items 1, 2 and 6: lines taxed or not, a deposit split the same way, and a final invoice that
 * always takes the whole deposit invoice off, so the client is never asked for more than the sold total.
 * A hinge kit of $78.94 (taxed) and 12 hours of labor at $65 (not taxed, California's default).
 */
describe.each(dbKinds)('sales tax per line and deposits credited once (%s)', (kind) => {
  let t: TestApp & { smtp: TestSmtpServer; admin: Record<string, string> };
  let smtp: TestSmtpServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createMailingTestAppWithAdmin(kind);
    ({ smtp, admin } = t);
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
  const ok = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await send(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };

  const acceptedJob = (depositPercent: number) => acceptedJobFor(t, admin, depositPercent);

  it('taxes the materials only, splits the deposit the same way, and nets the unpaid deposit on the final invoice', async () => {
    const before = await ok('GET', '/api/dashboard');
    const funnelBefore = (await ok('GET', '/api/reports')).funnel;
    const { quote, jobId, email } = await acceptedJob(25);
    // 78.94 + 780.00 = 858.94; tax 8% on the $78.94 of materials only = 6.32; total 865.26.
    expect(quote).toMatchObject({ totalCostBeforeTax: 858.94, taxableBeforeTax: 78.94, taxCost: 6.32 });
    expect(quote.totalCostAfterTax).toBe(865.26);
    expect(quote.materials[0].taxable).toBe(true);
    expect(quote.labor[0].taxable).toBe(false);
    // 25% of each part: $19.74 taxed (+ $1.58) and $195.00 not taxed.
    expect(quote.deposit).toEqual({ kind: 'percent', value: 25, due: 216.32 });

    const quoteMail = await waitFor(() => smtp.to(email).find((m) => m.parsed.subject?.startsWith('Your quote QT')), {
      what: 'quote e-mail',
    });
    expect(quoteMail.parsed.text).toMatch(/Tax 8% on \$78\.94:\s+\$6\.32/);
    expect(await pdfText(quoteMail.parsed.attachments[0]!.content)).toContain('Tax 8% on $78.94');

    let both = await ok('GET', `/api/jobs/${jobId}/invoice`);
    const deposit = both.deposit;
    expect(deposit).toMatchObject({ kind: 'deposit', status: 'Sent', subtotal: 214.74, taxable: 19.74, tax: 1.58 });
    expect(deposit.total).toBe(216.32);
    expect(deposit.lines.map((l: { amount: number; taxable: boolean }) => [l.amount, l.taxable])).toEqual([
      [19.74, true],
      [195, false],
    ]);

    // The deposit is not paid when the job is invoiced: the final invoice takes it off all the same.
    const draft = await ok('POST', `/api/jobs/${jobId}/invoice`);
    expect(draft).toMatchObject({
      total: 865.26,
      taxable: 78.94,
      tax: 6.32,
      credit: 216.32,
      creditedNumber: deposit.number,
      creditedDeposit: { _id: deposit._id, number: deposit.number, total: 216.32, balance: 216.32 },
      balance: 648.94,
    });
    const sent = await ok('POST', `/api/invoices/${draft._id}/send`);
    expect(sent).toMatchObject({ credit: 216.32, balance: 648.94 });
    const finalMail = await waitFor(
      () => smtp.to(email).find((m) => m.parsed.subject?.startsWith(`Invoice ${sent.number}`)),
      { what: 'final invoice e-mail' },
    );
    const pdf = await pdfText(finalMail.parsed.attachments[0]!.content);
    expect(pdf).toContain(`Less deposit ${deposit.number}`);
    expect(pdf).toContain('Tax 8% on $78.94');
    expect(pdf).toContain('$648.94');
    // Outstanding: both invoices' balances, which together are the sold total, not more.
    const owed = await ok('GET', '/api/dashboard');
    expect(toCents(owed.outstanding) - toCents(before.outstanding)).toBe(toCents(865.26));

    // The deposit paid afterwards: its own balance and reminders follow; the final balance stands.
    await ok('POST', `/api/invoices/${deposit._id}/payments`, { method: 'check', paidOn: today(), amount: 216.32 });
    const depositRow = (await ok('GET', `/api/invoices/${deposit._id}`)) as { status: string };
    expect(depositRow.status).toBe('Paid');
    both = await ok('GET', `/api/jobs/${jobId}/invoice`);
    expect(both.invoice).toMatchObject({ balance: 648.94, creditedDeposit: { balance: 0 } });
    const [depositInvoice] = await t.database.db.query.invoices.findMany({
      where: (i, { eq: is }) => is(i.id, deposit._id),
    });
    const reminders = await t.database.db
      .select({ cancelledAt: mailOutbox.cancelledAt })
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, depositInvoice!.reminderMailIds));
    expect(reminders.length).toBeGreaterThan(0);
    expect(reminders.every((r) => r.cancelledAt !== null)).toBe(true);

    // Reports: a paid deposit alone does not make the request "paid in full".
    expect((await ok('GET', '/api/reports')).funnel.paid).toBe(funnelBefore.paid);
    await ok('POST', `/api/invoices/${draft._id}/payments`, { method: 'cash', paidOn: today(), amount: 648.94 });
    expect((await ok('GET', '/api/reports')).funnel.paid).toBe(funnelBefore.paid + 1);
    const after = await ok('GET', '/api/dashboard');
    expect(toCents(after.outstanding)).toBe(toCents(before.outstanding));
  });

  // Issue 33 (decision 043): the accountant's files, parsed by their documented columns, carry the
  // same money as the invoices: the deposit, the final bill less the deposit, tax per invoice, a refund.
  it('exports invoices, payments and customers for QuickBooks Online and Xero, to the cent', async () => {
    const { jobId, name } = await acceptedJob(25);
    const { deposit } = await ok('GET', `/api/jobs/${jobId}/invoice`);
    const bill = await ok('POST', `/api/invoices/${(await ok('POST', `/api/jobs/${jobId}/invoice`))._id}/send`);
    await ok('POST', `/api/invoices/${deposit._id}/payments`, {
      method: 'check',
      paidOn: today(),
      amount: 216.32,
      reference: '1042',
    });
    const paid = await ok('POST', `/api/invoices/${bill._id}/payments`, {
      method: 'cash',
      paidOn: today(),
      amount: 648.94,
    });
    // A refund of $25 on the bill's payment (as a card refund is stored: a negative amount).
    await t.database.db.insert(payments).values({
      id: newId(),
      invoiceId: bill._id,
      method: 'cash',
      refundOf: paid.payments?.[0]?._id ?? null,
      paidOn: today(),
      amountCents: -2500,
    });
    // Another job of the same client, invoiced then voided: left out.
    const other = await acceptedJob(25);
    const otherDeposit = (await ok('GET', `/api/jobs/${other.jobId}/invoice`)).deposit;
    await ok('POST', `/api/invoices/${otherDeposit._id}/void`, { reason: 'Sent twice' });

    const file = async (system: string, dataset: string) => {
      const res = await send('GET', `/api/accounting/${system}/${dataset}?from=${today()}&to=${today()}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${system}-${dataset.replace('.csv', '')}-${today()}-to-${today()}.csv"`,
      );
      const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
      return {
        header: res.body
          .replace(/^\uFEFF/, '')
          .split('\r\n')[0]!
          .split(/\r?\n/)[0]!,
        rows,
      };
    };
    const cents = (v: string) => toCents(Number(v));
    const [y, m, d] = today().split('-');
    const usToday = `${m}/${d}/${y}`;

    const xero = await file('xero', 'invoices.csv');
    expect(xero.header).toBe(XERO_INVOICE_COLUMNS.join(','));
    const xeroOf = (number: string) => xero.rows.filter((r) => r.InvoiceNumber === number);
    const gross = (rows: Record<string, string>[]) =>
      rows.reduce((sum, r) => sum + Math.round(cents(r.UnitAmount!) * Number(r.Quantity)) + cents(r.TaxAmount!), 0);
    const taxOf = (rows: Record<string, string>[]) => rows.reduce((sum, r) => sum + cents(r.TaxAmount!), 0);
    expect(gross(xeroOf(deposit.number))).toBe(21632);
    expect(taxOf(xeroOf(deposit.number))).toBe(158);
    expect(gross(xeroOf(bill.number))).toBe(64894);
    expect(taxOf(xeroOf(bill.number))).toBe(632 - 158);
    expect(
      xeroOf(bill.number).filter((r) => r.Description!.startsWith(`Less deposit ${deposit.number}: `)),
    ).toHaveLength(2);
    expect(xeroOf(bill.number)[0]).toMatchObject({
      InvoiceDate: usToday,
      AccountCode: '200',
      Currency: 'USD',
      ContactName: name,
    });
    expect(xeroOf(otherDeposit.number)).toEqual([]);

    const quickbooks = await file('quickbooks', 'invoices.csv');
    expect(quickbooks.header).toBe(QUICKBOOKS_INVOICE_COLUMNS.join(','));
    const qbOf = (number: string) => quickbooks.rows.filter((r) => r['Invoice number'] === number);
    expect(qbOf(bill.number).reduce((sum, r) => sum + cents(r['Item Amount']!), 0)).toBe(64894 - (632 - 158));
    expect(qbOf(bill.number)[0]!.Memo).toBe('Sales tax 4.74');
    expect(qbOf(bill.number).map((r) => r['Item tax code'])).toContain('NON');
    expect(qbOf(otherDeposit.number)).toEqual([]);

    const money = await file('xero', 'payments.csv');
    expect(money.header).toBe('Date,Amount,Payee,Description,Reference');
    const mine = money.rows.filter((r) => [deposit.number, bill.number].includes(r.Reference));
    expect(mine.map((r) => [r.Reference, r.Amount])).toEqual([
      [deposit.number, '216.32'],
      [bill.number, '648.94'],
      [bill.number, '-25'],
    ]);
    expect(mine[2]!.Description).toBe(`Refund on ${bill.number} (cash)`);
    const bank = await file('quickbooks', 'payments.csv');
    expect(bank.header).toBe('Date,Description,Amount');
    expect(bank.rows.find((r) => r.Description!.includes(`Payment for ${deposit.number} (check 1042)`))).toMatchObject({
      Date: usToday,
      Amount: '216.32',
    });

    // The client once, though two invoices name them.
    const contacts = await file('xero', 'customers.csv');
    expect(contacts.rows.filter((r) => r.ContactName === name)).toHaveLength(1);
    expect((await file('quickbooks', 'customers.csv')).header).toBe('Name,Company,Email,Street');

    // A range backwards or over a year is refused.
    const backwards = await send('GET', `/api/accounting/xero/invoices.csv?from=2026-12-01&to=2026-11-01`);
    expect(backwards.json()).toMatchObject({
      statusCode: 400,
      message: 'to: The end date must be on or after the start date',
    });
    expect((await send('GET', `/api/accounting/xero/invoices.csv?from=2025-01-01&to=2026-06-01`)).statusCode).toBe(400);
    expect((await send('GET', `/api/accounting/sage/invoices.csv?from=2026-01-01&to=2026-01-02`)).statusCode).toBe(400);
  });

  it('keeps a credited deposit from being voided under a sent bill; a draft bill lets it go', async () => {
    const { jobId } = await acceptedJob(50);
    const { deposit } = await ok('GET', `/api/jobs/${jobId}/invoice`);
    const draft = await ok('POST', `/api/jobs/${jobId}/invoice`);
    expect(draft.credit).toBe(deposit.total);
    // A draft that takes the deposit off no longer does once the deposit is void.
    await ok('POST', `/api/invoices/${deposit._id}/void`, { reason: 'Asked by mistake' });
    const redrawn = await ok('GET', `/api/invoices/${draft._id}`);
    expect(redrawn).toMatchObject({ credit: 0, creditedNumber: null, balance: redrawn.total });

    const other = await acceptedJob(50);
    const otherDeposit = (await ok('GET', `/api/jobs/${other.jobId}/invoice`)).deposit;
    const bill = await ok('POST', `/api/jobs/${other.jobId}/invoice`);
    await ok('POST', `/api/invoices/${bill._id}/send`);
    const refused = await send('POST', `/api/invoices/${otherDeposit._id}/void`, { reason: 'Changed my mind' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`Invoice ${(await ok('GET', `/api/invoices/${bill._id}`)).number}`);
  });

  it('sends a bill and voids its deposit at once without both happening: the deposit is taken off only while it stands', async () => {
    for (let round = 0; round < 3; round++) {
      const { jobId } = await acceptedJob(40);
      const { deposit } = await ok('GET', `/api/jobs/${jobId}/invoice`);
      const draft = await ok('POST', `/api/jobs/${jobId}/invoice`);
      const [sent, voided] = await Promise.all([
        send('POST', `/api/invoices/${draft._id}/send`),
        send('POST', `/api/invoices/${deposit._id}/void`, { reason: 'Asked twice' }),
      ]);
      const bill = await ok('GET', `/api/invoices/${draft._id}`);
      const depositNow = await ok('GET', `/api/invoices/${deposit._id}`);
      expect(sent.statusCode, sent.body).toBe(200);
      if (voided.statusCode === 200) {
        // The void came first: the bill was sent without the deposit.
        expect(depositNow.status).toBe('Void');
        expect(bill).toMatchObject({ credit: 0, creditedNumber: null, balance: bill.total });
      } else {
        // The bill came first: the deposit it takes off stays, and its void is refused.
        expect(voided.statusCode, voided.body).toBe(409);
        expect(depositNow.status).toBe('Sent');
        expect(bill).toMatchObject({ credit: deposit.total, creditedNumber: deposit.number });
      }
    }
  });

  it('takes the Settings’ defaults for new lines, and a switch per line over them', async () => {
    const settings = await ok('GET', '/api/settings');
    expect(settings).toMatchObject({ materialsTaxable: true, laborTaxable: false });
    const { logoUrl: _logo, updatedAt: _at, ...values } = settings;
    await ok('PUT', '/api/settings', { ...values, laborTaxable: true, materialsTaxable: false });
    try {
      const request = await createQuoteRequest(t);
      await ok('PUT', `/api/quoterequest/markAccepted/${request._id}`);
      const draft = await ok('POST', '/api/quotes/createNew', {
        quoteRequestId: request._id,
        clientName: 'A',
        projectName: 'B',
        materials: [
          { name: 'Paint', unitPrice: 10, quantity: 1 },
          { name: 'Primer', unitPrice: 20, quantity: 1, taxable: true },
        ],
        labor: [{ hourlyRate: 100, hours: 1 }],
      });
      expect(draft.materials.map((m: { taxable: boolean }) => m.taxable)).toEqual([false, true]);
      expect(draft.labor[0].taxable).toBe(true);
      expect(draft).toMatchObject({ totalCostBeforeTax: 130, taxableBeforeTax: 120, taxCost: 9.6 });
    } finally {
      await ok('PUT', '/api/settings', values);
    }
  });

  it('never asks for more than the sold total, in any order of deposit payment, final invoice and payments', async () => {
    type Step = { kind: 'payDeposit' | 'createFinal' | 'sendFinal' | 'payFinal'; share: number };
    const step = fc.record({
      kind: fc.constantFrom<Step['kind']>('payDeposit', 'createFinal', 'sendFinal', 'payFinal'),
      share: fc.integer({ min: 1, max: 100 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.array(step, { minLength: 2, maxLength: 7 }),
        async (percent, steps) => {
          const before = toCents((await ok('GET', '/api/dashboard')).outstanding);
          const { quote, jobId } = await acceptedJob(percent);
          const sold = toCents(quote.totalCostAfterTax);
          for (const s of steps) {
            const { deposit, invoice } = await ok('GET', `/api/jobs/${jobId}/invoice`);
            const payOn = (target: { _id: string; balance: number }) =>
              target.balance > 0
                ? ok('POST', `/api/invoices/${target._id}/payments`, {
                    method: 'cash',
                    paidOn: today(),
                    amount: Math.max(0.01, Math.floor(target.balance * s.share) / 100),
                  })
                : undefined;
            if (s.kind === 'payDeposit') await payOn(deposit);
            if (s.kind === 'createFinal' && !invoice) await ok('POST', `/api/jobs/${jobId}/invoice`);
            if (s.kind === 'sendFinal' && invoice?.status === 'Draft')
              await ok('POST', `/api/invoices/${invoice._id}/send`);
            if (s.kind === 'payFinal' && invoice && invoice.status !== 'Draft') await payOn(invoice);

            const now = await ok('GET', `/api/jobs/${jobId}/invoice`);
            const sentInvoices = [now.deposit, now.invoice].filter((i) => i && i.status !== 'Draft');
            // What the client is asked for: what they paid and what is still due, on every invoice sent.
            const asked = sentInvoices.reduce((sum, i) => sum + toCents(i.paid) + toCents(i.balance), 0);
            expect(asked).toBeLessThanOrEqual(sold);
            if (now.invoice && now.invoice.status !== 'Draft') expect(asked).toBe(sold);
            const balances = sentInvoices.reduce((sum, i) => sum + toCents(i.balance), 0);
            expect(toCents((await ok('GET', '/api/dashboard')).outstanding) - before).toBe(balances);
          }
        },
      ),
      { numRuns: kind === 'pglite' ? 8 : 4 },
    );
  });
});
