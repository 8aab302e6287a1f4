/** Links to a phone's dialer and to a map, made the same way on every screen. */

/** "tel:" with the digits (and a leading +) of a phone number as people write it. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export interface PostalAddress {
  street: string;
  city: string;
  state: string;
  zip: string;
}

export const addressLine = (a: PostalAddress) => `${a.street}, ${a.city}, ${a.state} ${a.zip}`;

/** The address on a map (opens the phone's maps app or Google Maps in the browser). */
export function mapHref(address: PostalAddress): string {
  return `https://maps.google.com/?q=${encodeURIComponent(addressLine(address))}`;
}
