import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { badRequest } from './http-errors';

/** Numbers are read as US numbers unless written with a country code (+44 …). */
const DEFAULT_COUNTRY = 'US';

/**
 * A phone number as typed ("(916) 555-0100", "916.555.0100", "+1 916 555 0100") in E.164
 * ("+19165550100"), or null when it is not a number a text can reach (too short, a 555-01xx fiction
 * is fine, letters are not). The one place numbers are read for texting (decision 045).
 */
export function toE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), DEFAULT_COUNTRY);
  if (!parsed || !parsed.isValid()) return null;
  return parsed.number;
}

/** A number as typed, in E.164, or a 400 naming the field. */
export function mobileOrRefuse(field: string, input: string): string {
  const number = toE164(input);
  if (!number) throw badRequest(`${field}: enter a mobile number such as (916) 555-0142`, 'VALIDATION_FAILED');
  return number;
}
