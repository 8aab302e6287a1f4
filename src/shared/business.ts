/** What the site shows about the business; the server fills it from BUSINESS_* configuration. */
export interface SiteConfig {
  businessName: string;
  businessEmail: string;
  businessPhone: string;
  publicUrl: string;
  calendarEmbedUrl: string | null;
  /** Base URLs of the hero photos: `${base}-${width}.webp`. */
  heroImages: string[];
}

export const defaultBusiness = {
  name: 'Sac Handyman Services',
  email: 'hello@sachandyman.example',
  phone: '(916) 555-0142',
  tagline: 'Your best choice for residential and commercial repairs, installs and pressure washing.',
  areaServed: 'Sacramento and Surrounding Counties',
} as const;
