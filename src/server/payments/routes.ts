import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toCents, toDollars } from '#shared/money';
import { errorResponse } from '#shared/schemas/errors';
import {
  checkoutReturn,
  checkoutStart,
  clientOnlinePayment,
  connectionTest,
  onlinePaymentsInput,
  onlinePaymentsView,
} from '#shared/schemas/payments';
import { refundInput } from '#shared/schemas/invoices';
import { checkClientInvoiceLink } from '../invoices';
import { documentLimit, publicFormLimit } from '../plugins/rate-limit';
import {
  clientReturnUrls,
  onlinePaymentsView as viewOf,
  onlineState,
  providerFailure,
  receiveWebhook,
  refundPayment,
  saveOnlinePayments,
  settleCheckout,
  startInvoiceCheckout,
  testConnection,
  turnOffOnlinePayments,
} from './service';

const idParams = z.object({ id: z.string().max(64) });
const tokenQuery = z.object({ token: z.string().max(2000).optional() });
const failures = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 410: errorResponse };
const providerFailures = { 402: errorResponse, 503: errorResponse };

/** Paying online with the owner's own Stripe account (decision 035). */
export async function paymentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const owner = { access: 'owner' as const };
  const office = { access: 'office' as const };
  const tags = ['online payments'];

  r.get(
    '/settings/online-payments',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Whether clients can pay online (the key is never shown)',
        response: { 200: onlinePaymentsView },
      },
    },
    () => viewOf(app),
  );

  r.put(
    '/settings/online-payments',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Changed online payments' } },
      schema: {
        tags,
        summary: 'Save the restricted key (sealed; never shown again), the webhook secret and what is paid online',
        body: onlinePaymentsInput,
        response: { 200: onlinePaymentsView, 400: errorResponse },
      },
    },
    (request) => saveOnlinePayments(app, request.body),
  );

  r.delete(
    '/settings/online-payments',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Turned online payments off' } },
      schema: { tags, summary: 'Forget the key: clients pay as before', response: { 200: onlinePaymentsView } },
    },
    () => turnOffOnlinePayments(app),
  );

  r.post(
    '/settings/online-payments/test',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Tested the online payments connection' } },
      schema: {
        tags,
        summary: 'Test the connection: a harmless read with the saved key',
        response: { 200: connectionTest, 409: errorResponse, ...providerFailures },
      },
    },
    () => testConnection(app),
  );

  r.post(
    '/invoices/:id/refunds',
    {
      config: { ...office, audit: { kind: 'invoices', action: 'Refunded a payment' } },
      schema: {
        tags,
        summary: 'Refund a payment whole or in part (through Stripe when paid online); recorded as a negative payment',
        params: idParams,
        body: refundInput,
        response: { 201: z.object({ paymentId: z.string() }), ...failures, ...providerFailures },
      },
    },
    async (request, reply) => {
      const { paymentId, amount, note } = request.body;
      const id = await refundPayment(
        app,
        request.params.id,
        { paymentId, amountCents: toCents(amount), note: note ?? '' },
        request.user!.id,
      );
      return reply.code(201).send({ paymentId: id });
    },
  );

  // The client's side, by their invoice link (and, later, their own page through startInvoiceCheckout).
  r.get(
    '/client-invoices/:id/online-payment',
    {
      config: { access: 'public', ...documentLimit },
      schema: {
        tags,
        summary: 'Whether the client can pay this invoice online now, and what is processing',
        params: idParams,
        querystring: tokenQuery,
        response: { 200: clientOnlinePayment, ...failures },
      },
    },
    async (request) => {
      await checkClientInvoiceLink(app, request.params.id, request.query.token);
      const state = await onlineState(app, request.params.id);
      return { available: state.available, processing: toDollars(state.processingCents) };
    },
  );

  r.post(
    '/client-invoices/:id/checkout',
    {
      config: { access: 'public', ...publicFormLimit(app.config) },
      schema: {
        tags,
        summary: 'Pay: a hosted checkout for the balance; answers where to send the client',
        params: idParams,
        querystring: tokenQuery,
        response: { 200: checkoutStart, ...failures, ...providerFailures },
      },
    },
    async (request) => {
      await checkClientInvoiceLink(app, request.params.id, request.query.token);
      const started = await startInvoiceCheckout(
        app,
        request.params.id,
        await clientReturnUrls(app, request.params.id),
      );
      return { url: started.url, amount: toDollars(started.amountCents) };
    },
  );

  r.post(
    '/client-invoices/:id/checkout/return',
    {
      config: { access: 'public', ...documentLimit },
      schema: {
        tags,
        summary: 'Back from the hosted page: the server asks the provider before it says "Paid"',
        params: idParams,
        querystring: tokenQuery,
        body: z.object({ sessionId: z.string().max(200) }),
        response: { 200: checkoutReturn, ...failures, ...providerFailures },
      },
    },
    async (request) => {
      await checkClientInvoiceLink(app, request.params.id, request.query.token);
      const { state, checkout } = await settleCheckout(app, request.body.sessionId).catch(providerFailure);
      // A session of another invoice says nothing here.
      if (checkout && checkout.invoiceId !== request.params.id) return { state: 'unknown' as const };
      return { state };
    },
  );

  // Stripe's webhook: the raw body is kept for the signature (a parser for this route alone).
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    hook.withTypeProvider<ZodTypeProvider>().post(
      '/payments/stripe/webhook',
      {
        config: { access: 'public' },
        schema: {
          tags,
          summary: 'Stripe’s events, verified by their signature (5 minutes’ tolerance; a replayed event is ignored)',
          response: { 200: z.object({ received: z.literal(true), replayed: z.boolean() }), 400: errorResponse },
        },
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        return receiveWebhook(app, request.body as Buffer, typeof signature === 'string' ? signature : undefined);
      },
    );
  });
}
