import { defaultBusiness, type SiteConfig } from '../../shared/business';

let cached: SiteConfig | undefined;

/** On the server, which renders pages without a document: the details to render them with. */
export function provideSiteConfig(config: SiteConfig): void {
  cached = config;
}

/** The business details the server writes into the page (configuration), read once. */
export function siteConfig(): SiteConfig {
  if (cached) return cached;
  const fromServer = document.getElementById('site-config')?.textContent;
  const fallback: SiteConfig = {
    businessName: defaultBusiness.name,
    businessEmail: defaultBusiness.email,
    businessPhone: defaultBusiness.phone,
    publicUrl: window.location.origin,
    calendarEmbedUrl: null,
    heroImages: [1, 2, 3, 4, 5].map((n) => `/media/hero/${n}`),
  };
  try {
    cached = fromServer ? { ...fallback, ...(JSON.parse(fromServer) as Partial<SiteConfig>) } : fallback;
  } catch {
    cached = fallback;
  }
  return cached;
}
