/**
 * The seam between the product and whoever carries texts (decision 045): Twilio today, behind one
 * interface, so another provider is one new file.
 */

export interface OutgoingText {
  /** E.164. */
  to: string;
  body: string;
  /** Where the provider posts the text's delivery reports. */
  statusCallback: string;
}

export interface SentText {
  /** The provider's id for the text (SM…). */
  sid: string;
}

export class TextProviderError extends Error {
  constructor(
    message: string,
    /** refused: the provider will never send it (a bad number, a number that answered STOP); unavailable: try again later. */
    readonly kind: 'refused' | 'unavailable',
    /** The provider's own code (Twilio's 21610: the number answered STOP). */
    readonly code?: number,
    /**
     * No answer came (a timeout, a connection cut): the provider may have taken the text all the same,
     * so it is looked for before it is sent again (`findSent`).
     */
    readonly unanswered = false,
  ) {
    super(message);
    this.name = 'TextProviderError';
  }
}

export interface TextProvider {
  send(text: OutgoingText): Promise<SentText>;
  /** Whether a callback's signature is the provider's, over the address it posted to and its fields. */
  verify(signature: string | undefined, url: string, params: Record<string, string>): boolean;
  /** "Send a test text" reads the account first: a harmless call that proves the SID and token. */
  test(): Promise<void>;
  /**
   * A text with these words the provider took for this number since `since` (null: none): what a send
   * that got no answer left behind. The provider's messages API has no idempotency key.
   */
  findSent(text: { to: string; body: string }, since: Date): Promise<SentText | null>;
}
