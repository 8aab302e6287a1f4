import { INVOICE_STATUSES } from '#shared/constants';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import { howToPay } from '#shared/how-to-pay';
import {
  clientInvoiceView,
  invoiceDraftInput,
  invoiceStatusOf,
  invoiceView,
  paymentInput,
  voidInput,
  invoiceList,
  jobInvoices,
} from '#shared/schemas/invoices';
import { pageQuery, totalPagesOf } from '#shared/schemas/paging';
import { errorBody, notFound } from '../lib/http-errors';
import { checkClientInvoiceLink, checkStaffPdfLink } from './links';
import { invoiceKey } from './emails';
import { documentLimit } from '../plugins/rate-limit';
import {
  findInvoice,
  invoiceBatches,
  listInvoices,
  liveInvoiceOfJob,
  paymentBatches,
  planInvoicesOfJob,
} from './repository';
import { csvChunks, sendCsv } from '../lib/csv';
import { accountingRoutes } from './accounting-routes';
import { downloadCompression } from '../lib/downloads';
import { todayIn } from '#shared/dates';
import {
  createInvoiceForJob,
  deleteDraft,
  invoiceSource,
  invoiceSummaryOf,
  invoiceView as viewOf,
  recordPayment,
  sendInvoice,
  updateDraft,
  voidInvoice,
} from './service';

const idParams = z.object({ id: z.string().max(64) });
const failures = { 400: errorResponse, 404: errorResponse, 409: errorResponse };

/** Invoices and payments for the office (admins), the PDF by signed address, and the client's link. */
export async function invoiceRoutes(app: FastifyInstance) {
  await app.register(accountingRoutes);
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.documents.register('invoice', invoiceSource(app));
  const tags = ['invoices'];
  const office = { access: 'office' as const };
  const zone = async () => (await app.settings.current()).timeZone;

  async function view(id: string) {
    const row = await findInvoice(app.db, id);
    if (!row) throw notFound('Invoice not found');
    return viewOf(app, app.db, row, await zone());
  }

  r.post(
    '/jobs/:id/invoice',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Drafted an invoice' } },
      schema: {
        tags,
        summary: 'A draft invoice for a completed job: its sold lines, the crew’s extra materials and time',
        params: idParams,
        response: { 201: invoiceView, ...failures },
      },
    },
    async (request, reply) => reply.code(201).send(await view(await createInvoiceForJob(app, request.params.id))),
  );

  r.get(
    '/jobs/:id/invoice',
    {
      config: office,
      schema: {
        tags,
        summary:
          'The job’s invoice and its deposit invoice (not void), each or null, and its repeating visits’ invoices',
        params: idParams,
        response: { 200: jobInvoices },
      },
    },
    async (request) => {
      const timeZone = await zone();
      const [row, deposit, recurring] = await Promise.all([
        liveInvoiceOfJob(app.db, request.params.id),
        liveInvoiceOfJob(app.db, request.params.id, 'deposit'),
        planInvoicesOfJob(app.db, request.params.id, 24),
      ]);
      const today = todayIn(timeZone);
      return {
        invoice: row ? await viewOf(app, app.db, row, timeZone) : null,
        deposit: deposit ? await viewOf(app, app.db, deposit, timeZone) : null,
        recurring: recurring.map((r) => invoiceSummaryOf(r, today)),
      };
    },
  );

  r.get(
    '/invoices',
    {
      config: office,
      schema: {
        tags,
        summary: 'Invoices, newest first, by page; searched by number, client or e-mail, filtered by status',
        querystring: pageQuery.extend({ status: z.enum(INVOICE_STATUSES).optional() }),
        response: { 200: invoiceList },
      },
    },
    async (request) => {
      const { page, limit, search, status } = request.query;
      const timeZone = await zone();
      const filter = { search, status, today: todayIn(timeZone) };
      const { rows, total } = await listInvoices(app.db, { page, limit, ...filter });
      return {
        invoices: rows.map((invoice) => invoiceSummaryOf(invoice, filter.today)),
        total,
        totalPages: totalPagesOf(total, limit),
      };
    },
  );

  r.get(
    '/invoices/:id',
    {
      config: office,
      schema: { tags, summary: 'One invoice', params: idParams, response: { 200: invoiceView, 404: errorResponse } },
    },
    async (request) => view(request.params.id),
  );

  r.put(
    '/invoices/:id',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Changed a draft invoice' } },
      schema: {
        tags,
        summary: 'Change a draft’s lines, days to pay and notes',
        params: idParams,
        body: invoiceDraftInput,
        response: { 200: invoiceView, ...failures },
      },
    },
    async (request) => {
      await updateDraft(app, request.params.id, request.body);
      return view(request.params.id);
    },
  );

  r.delete(
    '/invoices/:id',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Deleted a draft invoice' } },
      schema: { tags, summary: 'Delete a draft', params: idParams, response: { 204: z.null(), ...failures } },
    },
    async (request, reply) => {
      await deleteDraft(app, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/invoices/:id/send',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Sent an invoice' } },
      schema: {
        tags,
        summary: 'Number a draft (INV-year-0001) and e-mail it to the client with its PDF and link',
        params: idParams,
        response: { 200: invoiceView, ...failures },
      },
    },
    async (request) => {
      await sendInvoice(app, request.params.id);
      return view(request.params.id);
    },
  );

  r.post(
    '/invoices/:id/payments',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Recorded a payment' } },
      schema: {
        tags,
        summary: 'Record a payment (never more than the balance); the client gets a receipt',
        params: idParams,
        body: paymentInput,
        response: { 201: invoiceView, ...failures },
      },
    },
    async (request, reply) => {
      await recordPayment(app, request.params.id, request.body, request.user!.id);
      return reply.code(201).send(await view(request.params.id));
    },
  );

  r.post(
    '/invoices/:id/void',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Voided an invoice' } },
      schema: {
        tags,
        summary: 'Void a sent invoice with a reason (it keeps its number)',
        params: idParams,
        body: voidInput,
        response: { 200: invoiceView, ...failures },
      },
    },
    async (request) => {
      await voidInvoice(app, request.params.id, request.body.reason);
      return view(request.params.id);
    },
  );

  // Downloads for a spreadsheet (each cell safe to open: see lib/csv.ts).
  const cents = (value: number | string) => Number(value) / 100;

  r.get(
    '/invoices.csv',
    {
      config: { ...office, audit: { kind: 'data', action: 'Exported invoices (CSV)' } },
      compress: downloadCompression,
      schema: { tags, summary: 'Every invoice as CSV', produces: ['text/csv'] },
    },
    async (_request, reply) => {
      const today = todayIn(await zone());
      return sendCsv(
        reply,
        'invoices.csv',
        csvChunks(invoiceBatches(app.db), [
          { header: 'Number', value: (r) => r.invoice.number ?? 'Draft' },
          {
            header: 'Status',
            value: (r) =>
              invoiceStatusOf(
                r.invoice.state,
                r.invoice.totalCents - r.invoice.creditCents,
                r.invoice.paidCents,
                r.invoice.dueDate,
                today,
              ),
          },
          { header: 'Client', value: (r) => r.invoice.clientName },
          { header: 'E-mail', value: (r) => r.invoice.clientEmail },
          { header: 'Address', value: (r) => r.invoice.address },
          { header: 'Issued', value: (r) => r.invoice.issueDate },
          { header: 'Due', value: (r) => r.invoice.dueDate },
          { header: 'Subtotal', value: (r) => cents(r.invoice.subtotalCents) },
          { header: 'Tax', value: (r) => cents(r.invoice.taxCents) },
          { header: 'Total', value: (r) => cents(r.invoice.totalCents) },
          { header: 'Deposit credited', value: (r) => cents(r.invoice.creditCents) },
          { header: 'Paid', value: (r) => cents(r.invoice.paidCents) },
          {
            header: 'Balance',
            value: (r) => cents(r.invoice.totalCents - r.invoice.creditCents - r.invoice.paidCents),
          },
          { header: 'Void reason', value: (r) => r.invoice.voidReason },
        ]),
      );
    },
  );

  r.get(
    '/payments.csv',
    {
      config: { ...office, audit: { kind: 'data', action: 'Exported payments (CSV)' } },
      compress: downloadCompression,
      schema: { tags, summary: 'Every payment as CSV', produces: ['text/csv'] },
    },
    async (_request, reply) =>
      sendCsv(
        reply,
        'payments.csv',
        csvChunks(paymentBatches(app.db), [
          { header: 'Paid on', value: (r) => r.payment.paidOn },
          { header: 'Invoice', value: (r) => r.number },
          { header: 'Client', value: (r) => r.clientName },
          { header: 'Method', value: (r) => r.payment.method },
          { header: 'Reference', value: (r) => r.payment.reference },
          { header: 'Amount', value: (r) => cents(r.payment.amountCents) },
          { header: 'Note', value: (r) => r.payment.note },
        ]),
      ),
  );

  /** The stored PDF, as e-mailed (drawn again in the worker only after the invoice changed). */
  async function sendPdf(reply: FastifyReply, id: string) {
    const document = await app.documents.current(invoiceKey(id));
    if (!document) throw notFound('A draft has no PDF yet');
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${document.filename}"`)
      .header('cache-control', 'private, no-store')
      .send(document.bytes);
  }

  r.get(
    '/invoices/:id/pdf',
    {
      config: { access: 'public', ...documentLimit },
      schema: {
        tags,
        summary: 'An invoice’s PDF (signed address)',
        params: idParams,
        querystring: z.object({ sig: z.string().max(2000).optional() }),
      },
    },
    async (request, reply) => {
      if (!(await checkStaffPdfLink(app, request.params.id, request.query.sig)))
        return reply.code(401).send(errorBody(401, 'This link is missing, wrong or expired', 'LINK_INVALID'));
      return sendPdf(reply, request.params.id);
    },
  );

  // The client's side, reached from the e-mailed link.
  const tokenQuery = z.object({ token: z.string().max(2000).optional() });
  async function authorized(id: string, token: string | undefined) {
    await checkClientInvoiceLink(app, id, token);
    const invoice = await view(id);
    if (!invoice.number) throw notFound('Invoice not found');
    return invoice;
  }

  r.get(
    '/client-invoices/:id',
    {
      config: { access: 'public' },
      schema: {
        tags: ['client invoices'],
        summary: 'The client’s invoice by its signed link',
        params: idParams,
        querystring: tokenQuery,
        response: { 200: clientInvoiceView, 403: errorResponse, 404: errorResponse, 410: errorResponse },
      },
    },
    async (request) => {
      const invoice = await authorized(request.params.id, request.query.token);
      const token = encodeURIComponent(request.query.token ?? '');
      // The response schema keeps only the fields the client's page shows, and strips the rest.
      const shown = clientInvoiceView.omit({ howToPay: true }).parse(invoice);
      return {
        ...shown,
        pdfUrl: `/api/client-invoices/${request.params.id}/pdf?token=${token}`,
        howToPay: howToPay(await app.settings.current(), shown),
      };
    },
  );

  r.get(
    '/client-invoices/:id/pdf',
    {
      config: { access: 'public', ...documentLimit },
      schema: {
        tags: ['client invoices'],
        summary: 'The client’s invoice as a PDF, by its signed link',
        params: idParams,
        querystring: tokenQuery,
      },
    },
    async (request, reply) => {
      await authorized(request.params.id, request.query.token);
      return sendPdf(reply, request.params.id);
    },
  );
}
