import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '#shared/schemas/errors';
import {
  clientTexts,
  sendTextAgainAnswer,
  sendTextAgainInput,
  testTextInput,
  testTextResult,
  clientTextsQuery,
  textSettingsInput,
  textSettingsView,
} from '#shared/schemas/texts';
import {
  type ConfirmVisit,
  clientTexts as clientTextsOf,
  INBOUND_PATH,
  pageOfCode,
  receiveInbound,
  receiveStatus,
  saveTextSettings,
  sendTextAgain,
  sendTestText,
  STATUS_CALLBACK_PATH,
  textSettingsView as viewOf,
  turnOffTexts,
} from './service';

/** A Twilio callback's form fields, as strings (repeated fields keep their last value). */
function formFields(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : '').entries());
}

/** How many signed posts from Twilio one address may make in a minute. */
export const CALLBACKS_PER_MINUTE = 1200;

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const signatureOf = (headers: Record<string, string | string[] | undefined>) => {
  const value = headers['x-twilio-signature'];
  return typeof value === 'string' ? value : undefined;
};

export interface TextRoutesOptions {
  /** A client's C confirms their visit: given by the app, since visits build on texts. */
  confirmVisit: ConfirmVisit;
}

/** Text messages through the owner's own Twilio account (decision 045). */
export async function textRoutes(app: FastifyInstance, options: TextRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const owner = { access: 'owner' as const };
  const tags = ['text messages'];

  r.get(
    '/settings/texts',
    {
      config: owner,
      schema: {
        tags,
        summary: 'Whether texts are set up (the auth token is never shown)',
        response: { 200: textSettingsView },
      },
    },
    () => viewOf(app),
  );

  r.put(
    '/settings/texts',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Changed text messages' } },
      schema: {
        tags,
        summary: 'Save the Twilio account (the auth token sealed; never shown again), the sender and the daily limit',
        body: textSettingsInput,
        response: { 200: textSettingsView, 400: errorResponse },
      },
    },
    (request) => saveTextSettings(app, request.body),
  );

  r.delete(
    '/settings/texts',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Turned text messages off' } },
      schema: { tags, summary: 'Forget the account: clients are e-mailed only', response: { 200: textSettingsView } },
    },
    () => turnOffTexts(app),
  );

  r.post(
    '/settings/texts/test',
    {
      config: { ...owner, audit: { kind: 'settings', action: 'Sent a test text' } },
      schema: {
        tags,
        summary: 'Send a test text to a number (the account is read first)',
        body: testTextInput,
        response: { 200: testTextResult, 400: errorResponse, 409: errorResponse, 503: errorResponse },
      },
    },
    (request) => sendTestText(app, request.body.to),
  );

  r.get(
    '/clients/:id/texts',
    {
      config: { access: 'office' as const },
      schema: {
        tags,
        summary:
          "A client's texts with where each stands, and whether they can be texted now; only those about a request or a job when asked",
        params: z.object({ id: z.string().max(64) }),
        querystring: clientTextsQuery,
        response: { 200: clientTexts, 404: errorResponse },
      },
    },
    (request) => clientTextsOf(app, request.params.id, request.query),
  );

  r.post(
    '/texts/:id/send-again',
    {
      config: { access: 'office' as const, audit: { kind: 'clients', action: 'Sent a text again' } },
      schema: {
        tags,
        summary: 'Send a text that failed or was not sent again: by text, or by e-mail instead',
        params: z.object({ id: z.string().max(64) }),
        body: sendTextAgainInput,
        response: { 201: sendTextAgainAnswer, 404: errorResponse, 409: errorResponse },
      },
    },
    async (request, reply) => reply.code(201).send(await sendTextAgain(app, request.params.id, request.body.channel)),
  );

  // Twilio's callbacks: form posts, verified by their signature over our own address and the fields.
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, body),
    );
    // Twilio posts about three reports per text, and replies come in bursts: a bound, not a form's.
    const callback = { access: 'public' as const, rateLimit: { max: CALLBACKS_PER_MINUTE, timeWindow: 60_000 } };
    hook.withTypeProvider<ZodTypeProvider>().post(
      STATUS_CALLBACK_PATH.replace('/api', ''),
      {
        config: callback,
        schema: {
          tags,
          summary: "Twilio's delivery report for a text (signed with the account's token)",
          response: { 200: z.object({ ok: z.literal(true) }), 403: errorResponse },
        },
      },
      (request) => {
        const at = request.url.indexOf('?');
        return receiveStatus(
          app,
          signatureOf(request.headers),
          formFields(request.body),
          at < 0 ? '' : request.url.slice(at),
        );
      },
    );
    hook.post(
      INBOUND_PATH.replace('/api', ''),
      {
        config: callback,
        schema: { tags, summary: 'A text a client sent us (STOP and START are honoured, C confirms a visit; signed)' },
      },
      async (request, reply) => {
        const answer = await receiveInbound(
          app,
          signatureOf(request.headers),
          formFields(request.body),
          options.confirmVisit,
        );
        // Twilio itself answers STOP and START with the carrier's words; C is answered with ours.
        const message = answer ? `<Message>${escapeXml(answer)}</Message>` : '';
        return reply
          .type('text/xml; charset=utf-8')
          .send(`<?xml version="1.0" encoding="UTF-8"?><Response>${message}</Response>`);
      },
    );
  });
}

/** `/p/<code>`: a text's short link to the client's own page (outside /api, like the site's pages). */
export async function textLinkRoutes(app: FastifyInstance) {
  // A client opens links from several texts: the status page's limit, not a form's.
  const limit = { rateLimit: { max: app.config.STATUS_RATE_LIMIT_MAX, timeWindow: 60_000 } };
  app.get<{ Params: { code: string } }>('/p/:code', { config: limit }, async (request, reply) => {
    const code = request.params.code;
    const target = /^[A-Za-z0-9]{6,20}$/.test(code) ? await pageOfCode(app, code) : null;
    if (!target) return reply.code(404).type('text/plain; charset=utf-8').send('This link is not valid.');
    return reply.header('cache-control', 'no-store').redirect(target, 303);
  });
}
