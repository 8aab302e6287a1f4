import { useSyncExternalStore } from 'react';
import { defaultBusiness, type SiteConfig } from '#shared/business';
import { BUSINESS_TIME_ZONE, DEFAULT_TAX_RATE_BASIS_POINTS, TAX_DEFAULTS } from '#shared/constants';

let cached: SiteConfig | undefined;
const listeners = new Set<() => void>();

/** On the server, which renders pages without a document: the details to render them with. */
export function provideSiteConfig(config: SiteConfig): void {
  cached = config;
}

/** After the owner changes the settings: this tab's pages (and the quote builder) use the new values at once. */
export function updateSiteConfig(changes: Partial<SiteConfig>): void {
  cached = { ...siteConfig(), ...changes };
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The site configuration, re-rendering when this tab saves new settings (the staff header). */
export function useSiteConfig(): SiteConfig {
  return useSyncExternalStore(subscribe, siteConfig, siteConfig);
}

/** The business details the server writes into the page (the Settings), read once. */
export function siteConfig(): SiteConfig {
  if (cached) return cached;
  const fromServer = document.getElementById('site-config')?.textContent;
  const fallback: SiteConfig = {
    businessName: defaultBusiness.name,
    businessEmail: defaultBusiness.email,
    businessPhone: defaultBusiness.phone,
    serviceAreaHeadline: defaultBusiness.areaServed,
    logoUrl: null,
    taxRateBasisPoints: DEFAULT_TAX_RATE_BASIS_POINTS,
    materialsTaxable: TAX_DEFAULTS.material,
    laborTaxable: TAX_DEFAULTS.labor,
    quoteValidityDays: 30,
    timeZone: BUSINESS_TIME_ZONE,
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
