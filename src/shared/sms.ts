/**
 * Text-message length (decision 045). A text in the GSM-7 alphabet carries 160 characters in one
 * segment (153 per segment when split); one character outside it (a curly quote, an emoji) turns the
 * whole text into UCS-2: 70 (67 when split). Carriers bill per segment, and a split text can arrive
 * out of order, so what we write stays in GSM-7 and short.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Each of these takes two of the 160 (an escape and the character). */
const GSM_EXTENDED = '^{}\\[~]|€\f';

const basic = new Set(GSM_BASIC);
const extended = new Set(GSM_EXTENDED);

/** Look-alikes that would force UCS-2, as their GSM-7 cousins. */
const PLAIN: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2033': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00a0': ' ',
  '\u202f': ' ',
  '\u2009': ' ',
  '\u2022': '-',
  '\u00b7': '-',
};

/** The text with typographic quotes, dashes and spaces made plain, so it stays in GSM-7 where it can. */
export function plainForText(text: string): string {
  let out = '';
  for (const ch of text) out += PLAIN[ch] ?? ch;
  return out;
}

export interface SmsLength {
  encoding: 'GSM-7' | 'UCS-2';
  /** Units used: GSM-7 septets (an extended character counts two), or UTF-16 code units. */
  units: number;
  segments: number;
}

/** How a text will travel: its encoding and how many segments it takes. */
export function smsLength(text: string): SmsLength {
  let septets = 0;
  for (const ch of text) {
    if (basic.has(ch)) septets += 1;
    else if (extended.has(ch)) septets += 2;
    else {
      const units = text.length;
      return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: 'GSM-7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}
