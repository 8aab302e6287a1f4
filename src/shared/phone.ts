/** A phone number's digits, without a leading US "1": "+1 (916) 555-0142" → "9165550142". */
export function phoneDigitsOf(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** The fewest digits a phone number has (a local US number): fewer cannot find a client by phone. */
export const MIN_PHONE_DIGITS = 7;

/** Whether a client can be reached and matched: by an e-mail, or by a phone number when there is none. */
export const isReachable = (contact: { email: string; phone: string }) =>
  contact.email.trim() !== '' || phoneDigitsOf(contact.phone).length >= MIN_PHONE_DIGITS;

export const EMAIL_OR_PHONE_REQUIRED = 'Give an e-mail or a phone number';

/** An E.164 number as people read it here: "+19165550142" → "(916) 555-0142"; others as stored. */
export function formatMobile(e164: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : e164;
}
