import twilio from 'twilio';
import { TextProviderError, type OutgoingText, type TextProvider } from './provider';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  fromNumber: string;
  messagingServiceSid: string;
  /** Tests only: where Twilio's API answers (an in-process fake on 127.0.0.1). */
  apiUrl?: string | undefined;
  timeoutMs?: number;
}

const TWILIO_API = /^https:\/\/api\.twilio\.com/;

/**
 * The official client's own request client, sending to `apiUrl` instead of api.twilio.com: the
 * client still builds every request (the path, the form, the account's basic auth) as it does in
 * production; only the host differs.
 */
class RedirectedClient extends twilio.RequestClient {
  constructor(
    private readonly apiUrl: string,
    timeoutMs: number,
  ) {
    super({ timeout: timeoutMs, autoRetry: false });
  }

  override request<TData>(opts: Parameters<twilio.RequestClient['request']>[0] & { data?: TData }) {
    return super.request({ ...opts, uri: opts.uri.replace(TWILIO_API, this.apiUrl.replace(/\/+$/, '')) });
  }
}

/** Twilio's answers as ours: a refusal it will repeat (4xx) or "try again later". */
function asProviderError(error: unknown): never {
  const status = (error as { status?: number }).status;
  const code = (error as { code?: number }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429)
    throw new TextProviderError(code ? `${message} (Twilio ${code})` : message, 'refused', code);
  throw new TextProviderError(
    typeof status === 'number'
      ? `Twilio answered ${status}: try again in a moment`
      : `Twilio did not answer: ${message}`,
    'unavailable',
    code,
    typeof status !== 'number',
  );
}

/** The owner's own Twilio account, through the official `twilio` client. */
export function twilioProvider(options: TwilioOptions): TextProvider {
  const timeout = options.timeoutMs ?? 15_000;
  const client = twilio(options.accountSid, options.authToken, {
    timeout,
    autoRetry: false,
    ...(options.apiUrl ? { httpClient: new RedirectedClient(options.apiUrl, timeout) } : {}),
  });
  return {
    async send(text: OutgoingText) {
      try {
        const message = await client.messages.create({
          to: text.to,
          body: text.body,
          statusCallback: text.statusCallback,
          ...(options.messagingServiceSid
            ? { messagingServiceSid: options.messagingServiceSid }
            : { from: options.fromNumber }),
        });
        return { sid: message.sid };
      } catch (error) {
        return asProviderError(error);
      }
    },
    verify(signature, url, params) {
      return Boolean(signature) && twilio.validateRequest(options.authToken, signature ?? '', url, params);
    },
    async findSent({ to, body }, since) {
      try {
        // The newest first; a client's number is sent a few texts a day, so one page holds them.
        const recent = await client.messages.list({ to, limit: 50 });
        const taken = recent.find(
          (m) => m.direction !== 'inbound' && m.body === body && m.dateCreated.getTime() >= since.getTime(),
        );
        return taken ? { sid: taken.sid } : null;
      } catch (error) {
        return asProviderError(error);
      }
    },
    async test() {
      try {
        await client.api.v2010.accounts(options.accountSid).fetch();
      } catch (error) {
        asProviderError(error);
      }
    },
  };
}
