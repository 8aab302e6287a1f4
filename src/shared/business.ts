/** What the site shows about the business; the server fills it from the Settings (and configuration). */
export interface SiteConfig {
  businessName: string;
  businessEmail: string;
  businessPhone: string;
  /** The line "Proudly Serving …". */
  serviceAreaHeadline: string;
  /** The logo's address, or null to show the name alone. */
  logoUrl: string | null;
  /** What new quotes are priced at (800 = 8%): the quote builder's preview. */
  taxRateBasisPoints: number;
  /** Whether a new material / labor line is taxed unless switched (the builder and the invoice draft). */
  materialsTaxable: boolean;
  laborTaxable: boolean;
  /** A new quote's default validity (days): the builder's valid-until date. */
  quoteValidityDays: number;
  /** The business's time zone: what "today" means on its pages. */
  timeZone: string;
  publicUrl: string;
  calendarEmbedUrl: string | null;
  /** Base URLs of the hero photos: `${base}-${width}.webp`. */
  heroImages: string[];
  /**
   * Today where the business is when the server wrote the page, and the instant (ms since 1970) that
   * day ends there: until then the browser takes its date from here instead of asking Intl for the
   * time zone, which costs tens of milliseconds the first time on a phone (web/lib/site-config.ts).
   */
  today?: { date: string; endsAt: number };
}

export const defaultBusiness = {
  name: 'Sac Handyman Services',
  email: 'hello@sachandyman.example',
  phone: '(916) 555-0142',
  tagline: 'Your best choice for residential and commercial repairs, installs and pressure washing.',
  areaServed: 'Sacramento and Surrounding Counties',
  /** The places the first install serves, as search engines read them. */
  places: ['Sacramento', 'Sacramento County', 'Placer County', 'Yolo County', 'El Dorado County'],
} as const;
