import { z } from 'zod';

/** Text messages through the owner's own Twilio account (decision 045). */

/** What a text is about. */
export const TEXT_KINDS = [
  'visit-booked',
  'visit-moved',
  'visit-cancelled',
  'visit-reminder',
  'on-my-way',
  'quote-sent',
  'invoice-sent',
  'test',
  /** Our answer to a client's reply (a visit confirmed by C). */
  'reply',
  /** The office's "Send by text instead" on an e-mail the mail server would not deliver. */
  'mail-failed',
] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

/** What each kind of text is called on the office's screens and in the owner's notice. */
export const TEXT_KIND_LABELS: Record<TextKind, string> = {
  'visit-booked': 'Visit booked',
  'visit-moved': 'Visit moved',
  'visit-cancelled': 'Visit cancelled',
  'visit-reminder': 'Visit reminder',
  'on-my-way': 'On my way',
  'quote-sent': 'Quote sent',
  'invoice-sent': 'Invoice sent',
  test: 'Test text',
  reply: 'Our answer to their reply',
  'mail-failed': 'An e-mail that did not arrive',
};

/**
 * Where a text stands: queued (ours to send), sent (the provider took it), delivered (the carrier says
 * the phone has it), failed (refused by the provider or the carrier: `reason` says why), not sent (we
 * held it back: the number answered STOP, the day's limit, texts turned off), cancelled (a reminder
 * no longer wanted).
 */
export const TEXT_STATES = ['queued', 'sent', 'delivered', 'failed', 'not-sent', 'cancelled'] as const;
export type TextState = (typeof TEXT_STATES)[number];

/** How a client wants to hear from us. */
export const MESSAGE_CHANNELS = ['email', 'text', 'both'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** The "On my way" choices, in minutes. */
export const ON_MY_WAY_MINUTES = [15, 30, 45, 60] as const;

export const DEFAULT_TEXT_DAILY_LIMIT = 6;

export const textSettingsInput = z
  .object({
    accountSid: z
      .string()
      .trim()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'The account SID starts with AC and has 34 characters'),
    /** Empty keeps the saved one. */
    authToken: z
      .string()
      .trim()
      .max(200)
      .refine((v) => v === '' || /^[0-9a-zA-Z]{32}$/.test(v), {
        message: 'The auth token has 32 letters and digits',
      })
      .default(''),
    /** The sending number as the owner types it; '' when a messaging service sends. */
    fromNumber: z.string().trim().max(40).default(''),
    messagingServiceSid: z
      .string()
      .trim()
      .refine((v) => v === '' || /^MG[0-9a-fA-F]{32}$/.test(v), {
        message: 'A messaging service SID starts with MG and has 34 characters',
      })
      .default(''),
    dailyLimit: z.coerce
      .number({ error: 'Enter how many texts one number may get in a day' })
      .int('Enter a whole number')
      .min(1, 'At least 1 text a day')
      .max(50, 'At most 50 texts a day'),
  })
  .refine((v) => v.fromNumber !== '' || v.messagingServiceSid !== '', {
    message: 'Enter the number texts come from, or a messaging service SID',
    path: ['fromNumber'],
  });
export type TextSettingsInput = z.input<typeof textSettingsInput>;

export const textSettingsView = z.object({
  /** An account is saved and this install can read its token. */
  enabled: z.boolean(),
  accountSid: z.string(),
  tokenSaved: z.boolean(),
  /** Saved by another install's key (a database restored elsewhere): paste the token again. */
  tokenUnreadable: z.boolean(),
  fromNumber: z.string(),
  messagingServiceSid: z.string(),
  dailyLimit: z.number(),
  /** Where Twilio posts delivery reports and replies (set per message; the replies one on the number). */
  statusCallbackUrl: z.string(),
  inboundUrl: z.string(),
});
export type TextSettingsView = z.infer<typeof textSettingsView>;

export const testTextInput = z.object({
  to: z.string({ error: 'Enter the mobile number to text' }).trim().min(1, 'Enter the mobile number to text').max(40),
});

export const testTextResult = z.object({ ok: z.literal(true), message: z.string() });

/** One row of the delivery ledger, as the office sees it. */
export const textLedgerItem = z.object({
  _id: z.string(),
  kind: z.enum(TEXT_KINDS),
  to: z.string(),
  body: z.string(),
  state: z.enum(TEXT_STATES),
  reason: z.string().nullable(),
  /** The office sent it again already (once per text). */
  resent: z.boolean(),
  createdAt: z.string(),
  /** When it was sent, delivered, or last changed state. */
  stateAt: z.string(),
});
export type TextLedgerItem = z.infer<typeof textLedgerItem>;

/** A client's texts and whether they can be texted now. */
export const clientTexts = z.object({
  /** Texts are set up in Settings. */
  textsOn: z.boolean(),
  /** A text can go to them now (texts on, a mobile, they take texts, no STOP). */
  textable: z.boolean(),
  /** The client's mobile in E.164 ('' when none). */
  mobile: z.string(),
  /** When their number answered STOP (null: it did not, or answered START since). */
  stoppedAt: z.string().nullable(),
  texts: z.array(textLedgerItem),
});
export type ClientTexts = z.infer<typeof clientTexts>;

export const onMyWayInput = z.object({
  minutes: z
    .number({ error: 'Choose 15, 30, 45 or 60 minutes' })
    .refine((m) => (ON_MY_WAY_MINUTES as readonly number[]).includes(m), 'Choose 15, 30, 45 or 60 minutes'),
});

/** A visit's "On my way": whether it can go, and when it went. */
export const onMyWayView = z.object({
  /** Texts are on, the client takes texts and has a mobile that did not answer STOP. */
  available: z.boolean(),
  /** Why not, in words for the crew ("Texts are off", "No mobile number on file", …). */
  why: z.string().nullable(),
  sentAt: z.string().nullable(),
  state: z.enum(TEXT_STATES).nullable(),
  body: z.string().nullable(),
});
export type OnMyWayView = z.infer<typeof onMyWayView>;

/** "Send again" on a text that failed or was held back: by text, or by e-mail instead. */
export const sendTextAgainInput = z.object({
  channel: z.enum(['text', 'email'], { error: 'Choose text or e-mail' }),
});
export const sendTextAgainAnswer = z.object({ sent: z.enum(['text', 'email']) });

/** GET /api/clients/:id/texts: only the texts about this request, or this job (their pages). */
export const clientTextsQuery = z.object({
  quoteRequestId: z.string().max(64).optional(),
  jobId: z.string().max(64).optional(),
});
