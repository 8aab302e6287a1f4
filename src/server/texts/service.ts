import type { FastifyInstance } from 'fastify';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { ClientTexts, TextKind, TextSettingsInput, TextSettingsView, TextState } from '#shared/schemas/texts';
import { DEFAULT_TEXT_DAILY_LIMIT } from '#shared/schemas/texts';
import { plainForText } from '#shared/sms';
import { clientOf, clientPagePath } from '../clients';
import { newId } from '../db/ids';
import { isUniqueViolation } from '../lib/db-errors';
import { badRequest, conflict, HttpError, notFound } from '../lib/http-errors';
import { mobileOrRefuse, toE164 } from '../lib/phone';
import { clientReach, enqueueText, maskPageLink, optedOut, textsOn, withoutPageLink, type TextAbout } from './outbox';
import { visits } from '../db/schema';
import { composeEmail, enqueueMail, toClient } from '../mail';
import { TextProviderError, type TextProvider } from './provider';
import { TWILIO_UNSUBSCRIBED } from './relay';
import { textAccounts, textInbound, textLinks, textMessages, textOptOuts } from './tables';
import { twilioProvider } from './twilio';

const AUTH_TOKEN = 'texts-auth-token';
export const STATUS_CALLBACK_PATH = '/api/texts/twilio/status';
export const INBOUND_PATH = '/api/texts/twilio/inbound';

async function readAccount(app: FastifyInstance) {
  const [row] = await app.db.select().from(textAccounts).where(eq(textAccounts.id, 1));
  return row ?? null;
}

/** The owner's provider, or null when texts are off or the token cannot be read on this install. */
export async function currentTextProvider(app: FastifyInstance): Promise<TextProvider | null> {
  const account = await readAccount(app);
  const authToken = account ? app.tokens.unseal(AUTH_TOKEN, account.authTokenSealed) : null;
  if (!account || !authToken) return null;
  return twilioProvider({
    accountSid: account.accountSid,
    authToken,
    fromNumber: account.fromNumber,
    messagingServiceSid: account.messagingServiceSid,
    apiUrl: app.config.TEXTS_API_URL,
    timeoutMs: app.config.TEXTS_TIMEOUT_MS,
  });
}

/** The relay's view of the account: the provider and the day's limit, or why there is none. */
export async function textAccountNow(
  app: FastifyInstance,
): Promise<{ provider: TextProvider; dailyLimit: number } | 'off' | 'unreadable'> {
  const account = await readAccount(app);
  if (!account) return 'off';
  const provider = await currentTextProvider(app);
  return provider ? { provider, dailyLimit: account.dailyLimit } : 'unreadable';
}

/** The kinds of text whose words matter enough to e-mail when they cannot be texted. */
const WORTH_AN_EMAIL = new Set<TextKind>([
  'visit-booked',
  'visit-moved',
  'visit-cancelled',
  'visit-reminder',
  'on-my-way',
  'quote-sent',
  'invoice-sent',
]);

/** The words of a text, by e-mail, to its client (the page link is in every e-mail to a client already). */
async function emailTheWords(app: FastifyInstance, client: { name: string; email: string }, body: string) {
  const business = await app.settings.current();
  const words = withoutPageLink(body);
  const { html, text } = composeEmail({
    business,
    heading: `A message from ${business.name}`,
    blocks: [
      { kind: 'paragraph', text: `Hi ${client.name},` },
      { kind: 'paragraph', text: words },
    ],
  });
  await enqueueMail(app.db, toClient({ to: client.email, subject: `A message from ${business.name}`, html, text }));
}

/**
 * A text that ended failed or not sent, for a client who takes texts alone (they got no e-mail of it):
 * its words by e-mail instead, so the message still reaches them. Others had the e-mail already.
 */
export async function emailInsteadOfText(
  app: FastifyInstance,
  row: { clientId: string | null; kind: TextKind; body: string },
) {
  if (!row.clientId || !WORTH_AN_EMAIL.has(row.kind)) return;
  const client = await clientOf(app.db, row.clientId);
  if (!client?.email || client.messageChannel !== 'text') return;
  await emailTheWords(app, client, row.body);
}

/**
 * "Send by text instead" on an e-mail the mail server would not deliver (issue 30: a message that failed
 * on one channel is offered on the other): a short text that the e-mail did not arrive, with the link
 * to the client's page, where what it said is shown. Only to a client who takes texts; once per e-mail.
 */
export async function textInsteadOfMail(
  app: FastifyInstance,
  input: { clientId: string; quoteRequestId: string; mail: { id: string; subject: string } },
) {
  const business = await app.settings.current();
  const subject = input.mail.subject.length > 60 ? `${input.mail.subject.slice(0, 57)}...` : input.mail.subject;
  let created: string | null;
  try {
    created = await app.db.transaction((tx) =>
      enqueueText(tx, business, {
        clientId: input.clientId,
        kind: 'mail-failed',
        body: `${business.name}: our e-mail "${subject}" did not reach you. Details:`,
        pageLink: true,
        mailId: input.mail.id,
        about: { quoteRequestId: input.quoteRequestId },
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This e-mail was already sent by text');
    throw error;
  }
  if (!created) throw conflict((await clientReach(app.db, input.clientId)).why ?? 'This client cannot be texted');
}

/** What Settings → Text messages shows: never the token, only that one is saved. */
export async function textSettingsView(app: FastifyInstance): Promise<TextSettingsView> {
  const account = await readAccount(app);
  const readable = account ? app.tokens.unseal(AUTH_TOKEN, account.authTokenSealed) !== null : false;
  return {
    enabled: readable,
    accountSid: account?.accountSid ?? '',
    tokenSaved: Boolean(account),
    tokenUnreadable: Boolean(account) && !readable,
    fromNumber: account?.fromNumber ?? '',
    messagingServiceSid: account?.messagingServiceSid ?? '',
    dailyLimit: account?.dailyLimit ?? DEFAULT_TEXT_DAILY_LIMIT,
    statusCallbackUrl: `${app.config.PUBLIC_URL}${STATUS_CALLBACK_PATH}`,
    inboundUrl: `${app.config.PUBLIC_URL}${INBOUND_PATH}`,
  };
}

export async function saveTextSettings(app: FastifyInstance, input: TextSettingsInput & { dailyLimit: number }) {
  const fromNumber = input.fromNumber ? mobileOrRefuse('fromNumber', input.fromNumber) : '';
  const values = {
    accountSid: input.accountSid ?? '',
    fromNumber,
    messagingServiceSid: input.messagingServiceSid ?? '',
    dailyLimit: input.dailyLimit,
    updatedAt: new Date(),
  };
  const token = input.authToken ? app.tokens.seal(AUTH_TOKEN, input.authToken) : null;
  const existing = await readAccount(app);
  if (!existing && !token) throw badRequest('authToken: paste the auth token from Twilio', 'VALIDATION_FAILED');
  await app.db
    .insert(textAccounts)
    .values({ id: 1, ...values, authTokenSealed: token ?? existing!.authTokenSealed })
    .onConflictDoUpdate({ target: textAccounts.id, set: { ...values, ...(token ? { authTokenSealed: token } : {}) } });
  return textSettingsView(app);
}

export async function turnOffTexts(app: FastifyInstance) {
  await app.db.delete(textAccounts).where(eq(textAccounts.id, 1));
  return textSettingsView(app);
}

/** The provider's refusal as an answer the owner can act on. */
function providerFailure(error: unknown): never {
  if (error instanceof TextProviderError) {
    if (error.kind === 'unavailable') throw new HttpError(503, 'Twilio did not answer: try again in a moment');
    throw conflict(`Twilio refused: ${error.message}`);
  }
  throw error;
}

/**
 * "Send a test text": the account is read (the SID and token work), then one text goes to the number
 * typed, recorded in the ledger like any other.
 */
export async function sendTestText(app: FastifyInstance, to: string) {
  const number = mobileOrRefuse('to', to);
  const provider = await currentTextProvider(app);
  if (!provider) throw conflict('Save the Twilio account first');
  if (await optedOut(app.db, number))
    throw conflict('This number replied STOP: it gets no texts until it replies START');
  await provider.test().catch(providerFailure);
  const business = await app.settings.current();
  const body = `${business.name}: this is a test text. Texts to clients are on.`;
  const id = newId();
  await app.db.insert(textMessages).values({ id, kind: 'test', toNumber: number, body });
  try {
    const sent = await provider.send({
      to: number,
      body,
      statusCallback: `${app.config.PUBLIC_URL}${STATUS_CALLBACK_PATH}`,
    });
    await app.db
      .update(textMessages)
      .set({ state: 'sent', providerSid: sent.sid, sentAt: new Date(), attempts: 1, stateAt: new Date() })
      .where(eq(textMessages.id, id));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await app.db
      .update(textMessages)
      .set({ state: 'failed', reason: reason.slice(0, 500), attempts: 1, stateAt: new Date() })
      .where(eq(textMessages.id, id));
    providerFailure(error);
  }
  return { ok: true as const, message: `Twilio took the test text to ${number}` };
}

/** A provider's callback, refused unless signed with the account's token over the address it was posted to. */
async function verifiedCallback(
  app: FastifyInstance,
  path: string,
  signature: string | undefined,
  params: Record<string, string>,
): Promise<void> {
  const provider = await currentTextProvider(app);
  // The address is ours (PUBLIC_URL), never the Host header a caller sets.
  if (!provider || !provider.verify(signature, `${app.config.PUBLIC_URL}${path}`, params))
    throw new HttpError(403, 'The signature does not match');
}

/** What a state may become: a later report never takes a text back (delivered stays delivered). */
const BEFORE: Record<'sent' | 'delivered' | 'failed', TextState[]> = {
  sent: ['queued', 'sent'],
  delivered: ['queued', 'sent'],
  failed: ['queued', 'sent'],
};

/** Twilio's delivery report for one text (MessageSid, MessageStatus, ErrorCode). */
export async function receiveStatus(
  app: FastifyInstance,
  signature: string | undefined,
  params: Record<string, string>,
  /** The address's query as posted (`t=<our id>`, set by the relay; signed with the rest). */
  query: string,
) {
  await verifiedCallback(app, `${STATUS_CALLBACK_PATH}${query}`, signature, params);
  const ours = new URLSearchParams(query.replace(/^\?/, '')).get('t');
  const sid = params.MessageSid ?? '';
  const status = params.MessageStatus ?? '';
  const errorCode = params.ErrorCode ? Number(params.ErrorCode) : null;
  const state =
    status === 'delivered' ? 'delivered' : status === 'failed' || status === 'undelivered' ? 'failed' : 'sent';
  const [row] = await app.db
    .update(textMessages)
    .set({
      state,
      stateAt: sql`now()`,
      providerSid: sid,
      ...(state === 'delivered' ? { deliveredAt: sql`now()`, reason: null } : {}),
      ...(state === 'failed'
        ? { reason: `The carrier reported it ${status}${errorCode ? ` (Twilio ${errorCode})` : ''}` }
        : {}),
    })
    .where(
      and(
        // By the provider's id, or by ours when the report comes before the send's answer was recorded.
        ours
          ? and(eq(textMessages.id, ours), or(isNull(textMessages.providerSid), eq(textMessages.providerSid, sid)))
          : eq(textMessages.providerSid, sid),
        inArray(textMessages.state, BEFORE[state]),
      ),
    )
    .returning({ to: textMessages.toNumber });
  if (row && errorCode === TWILIO_UNSUBSCRIBED)
    await app.db.insert(textOptOuts).values({ number: row.to }).onConflictDoNothing();
  return { ok: true as const };
}

/** The words carriers and Twilio treat as "stop texting me", and as "texts again". */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES']);

const CONFIRM_WORDS = new Set(['C', 'CONFIRM', 'CONFIRMED']);

/** Confirms a visit for its client (given by the app: visits build on texts); its window, or null. */
export type ConfirmVisit = (visitId: string, clientId: string, remindedAt: Date) => Promise<string | null>;

/**
 * A text a client sent us: STOP and START are honoured (Twilio answers them itself); C confirms the
 * visit of the last reminder we texted that number, and is answered (the answer is in the ledger).
 * Returns the answer's words, or null for none.
 */
export async function receiveInbound(
  app: FastifyInstance,
  signature: string | undefined,
  params: Record<string, string>,
  confirmVisit: ConfirmVisit,
): Promise<string | null> {
  await verifiedCallback(app, INBOUND_PATH, signature, params);
  // A post replayed (the same message) does nothing the second time; Twilio names every message.
  const messageSid = (params.MessageSid ?? '').slice(0, 64);
  if (!messageSid) return null;
  const [fresh] = await app.db.insert(textInbound).values({ messageSid }).onConflictDoNothing().returning();
  if (!fresh) return null;
  const from = toE164(params.From ?? '');
  const word =
    (params.Body ?? '')
      .trim()
      .split(/\s+/)[0]
      ?.toUpperCase()
      .replace(/[.!]+$/, '') ?? '';
  if (!from) return null;
  if (STOP_WORDS.has(word)) {
    await app.db.insert(textOptOuts).values({ number: from }).onConflictDoNothing();
    app.log.info('a client replied STOP: no more texts to that number');
    return null;
  }
  if (START_WORDS.has(word)) {
    await app.db.delete(textOptOuts).where(eq(textOptOuts.number, from));
    return null;
  }
  if (!CONFIRM_WORDS.has(word)) return null;
  const business = await app.settings.current();
  const [reminder] = await app.db
    .select({
      visitId: textMessages.visitId,
      clientId: textMessages.clientId,
      sentAt: textMessages.sentAt,
      quoteRequestId: textMessages.quoteRequestId,
      jobId: textMessages.jobId,
    })
    .from(textMessages)
    .where(
      and(
        eq(textMessages.toNumber, from),
        eq(textMessages.kind, 'visit-reminder'),
        inArray(textMessages.state, ['sent', 'delivered']),
      ),
    )
    .orderBy(desc(textMessages.sentAt))
    .limit(1);
  // A number we never reminded gets no answer (each answer is a text the owner pays for).
  if (!reminder) return null;
  const when =
    reminder.visitId && reminder.clientId && reminder.sentAt
      ? await confirmVisit(reminder.visitId, reminder.clientId, reminder.sentAt)
      : null;
  const body = plainForText(
    when
      ? `${business.name}: thank you, your visit on ${when} is confirmed.`
      : `${business.name}: we could not find a visit to confirm. Please call us at ${business.phone}.`,
  );
  await app.db.insert(textMessages).values({
    id: newId(),
    clientId: reminder.clientId,
    visitId: when ? reminder.visitId : null,
    // Listed with the reminder it answers, on the job's and the request's pages.
    quoteRequestId: reminder.quoteRequestId,
    jobId: reminder.jobId,
    kind: 'reply',
    toNumber: from,
    body,
    state: 'sent',
    sentAt: new Date(),
  });
  return body;
}

/**
 * A client's texts, newest first, and whether they can be texted now: the office's client page, and
 * the request's or the job's page with `about` (only the texts about that request or job).
 */
export async function clientTexts(app: FastifyInstance, clientId: string, about: TextAbout = {}): Promise<ClientTexts> {
  const client = await clientOf(app.db, clientId);
  if (!client) throw notFound('Client not found');
  const [rows, on, stopped] = await Promise.all([
    app.db
      .select()
      .from(textMessages)
      .where(
        and(
          eq(textMessages.clientId, clientId),
          about.quoteRequestId ? eq(textMessages.quoteRequestId, about.quoteRequestId) : undefined,
          about.jobId ? eq(textMessages.jobId, about.jobId) : undefined,
        ),
      )
      .orderBy(desc(textMessages.createdAt), desc(textMessages.id))
      .limit(100),
    textsOn(app.db),
    client.mobile ? optedOut(app.db, client.mobile) : null,
  ]);
  return {
    textsOn: on,
    textable: Boolean((await clientReach(app.db, clientId)).text),
    mobile: client.mobile,
    stoppedAt: stopped?.toISOString() ?? null,
    texts: rows.map((r) => ({
      _id: r.id,
      kind: r.kind,
      to: r.toNumber,
      body: maskPageLink(r.body),
      state: r.state,
      reason: r.reason,
      resent: r.resentAt !== null,
      createdAt: r.createdAt.toISOString(),
      stateAt: r.stateAt.toISOString(),
    })),
  };
}

/** Where a text's short link goes: the client's page, signed for them alone (null: no such code). */
export async function pageOfCode(app: FastifyInstance, code: string): Promise<string | null> {
  const [row] = await app.db.select().from(textLinks).where(eq(textLinks.code, code));
  return row ? clientPagePath(app, row.clientId) : null;
}

/**
 * "Send again" on a text that failed or was held back (decision 045): by text (a new row in the ledger,
 * the same words, sent as any other: STOP and the day's limit still hold), or by e-mail to the
 * client's address (the other channel).
 */
export async function sendTextAgain(app: FastifyInstance, id: string, channel: 'text' | 'email') {
  const [row] = await app.db.select().from(textMessages).where(eq(textMessages.id, id));
  if (!row || !row.clientId) throw notFound('Text not found');
  if (row.state !== 'failed' && row.state !== 'not-sent')
    throw conflict('Only a text that failed or was not sent can be sent again');
  if (row.kind === 'on-my-way') throw conflict('“On my way” is for the moment: it is not sent again');
  // A text about a visit that has begun, moved since or been cancelled would say something untrue now.
  if (row.visitId) {
    const [visit] = await app.db
      .select({ startsAt: visits.startsAt, cancelledAt: visits.cancelledAt, timeSetAt: visits.timeSetAt })
      .from(visits)
      .where(eq(visits.id, row.visitId));
    if (
      !visit || visit.cancelledAt
        ? row.kind !== 'visit-cancelled'
        : visit.startsAt <= new Date() || visit.timeSetAt > row.createdAt
    )
      throw conflict('The visit has changed since: this text is no longer true');
  }
  // Once per text, however many clicks.
  const [claimed] = await app.db
    .update(textMessages)
    .set({ resentAt: new Date() })
    .where(and(eq(textMessages.id, id), isNull(textMessages.resentAt)))
    .returning({ id: textMessages.id });
  if (!claimed) throw conflict('This text was already sent again');
  const clientId = row.clientId;
  try {
    if (channel === 'email') {
      const client = await clientOf(app.db, clientId);
      if (!client?.email) throw conflict('This client has no e-mail on file');
      await emailTheWords(app, client, row.body);
      return { sent: 'email' as const };
    }
    const business = await app.settings.current();
    const created = await app.db.transaction(async (tx) =>
      enqueueText(tx, business, {
        clientId,
        kind: row.kind,
        body: withoutPageLink(row.body),
        pageLink: row.pageLink,
        ...(row.visitId ? { visitId: row.visitId } : {}),
        about: { quoteRequestId: row.quoteRequestId, jobId: row.jobId },
      }),
    );
    if (!created) throw conflict((await clientReach(app.db, clientId)).why ?? 'This client cannot be texted');
    return { sent: 'text' as const };
  } catch (error) {
    // Not sent after all: it may be sent again.
    await app.db.update(textMessages).set({ resentAt: null }).where(eq(textMessages.id, id));
    throw error;
  }
}
