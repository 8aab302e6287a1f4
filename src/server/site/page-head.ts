import type { SiteConfig } from '#shared/business';
import { defaultBusiness } from '#shared/business';
import { appModule, documentTitle, metaForPath, notFoundMeta } from '#shared/page-meta';
import { paths } from '#shared/paths';
import type { Config } from '../config';
import type { BusinessSettings } from '../lib/business';
import { escapeHtml } from '../lib/html';
import { heroSources } from './hero-images';

/** JSON inside <script>: "<" escaped so no value can close the element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function siteConfigOf(config: Config, business: BusinessSettings): SiteConfig {
  return {
    businessName: business.name,
    businessEmail: business.email,
    businessPhone: business.phone,
    serviceAreaHeadline: business.serviceAreaHeadline,
    logoUrl: business.logoVersion ? paths.media.logo(business.logoVersion) : null,
    taxRateBasisPoints: business.taxRateBasisPoints,
    materialsTaxable: business.materialsTaxable,
    laborTaxable: business.laborTaxable,
    quoteValidityDays: business.quoteValidityDays,
    timeZone: business.timeZone,
    publicUrl: config.PUBLIC_URL,
    calendarEmbedUrl: config.CALENDAR_EMBED_URL ?? null,
    heroImages: heroSources(config.HERO_IMAGES_DIR).map((_, i) => `/media/hero/${i + 1}`),
  };
}

/** A place served as schema.org names it: a ZIP code, a county, or a city. */
function placeOf(name: string) {
  if (/^\d{5}$/.test(name)) return { '@type': 'PostalCodeSpecification', postalCodeBegin: name, postalCodeEnd: name };
  return { '@type': /\bcounty\b/i.test(name) ? 'AdministrativeArea' : 'City', name };
}

export function localBusinessJsonLd(config: Config, business: BusinessSettings) {
  return {
    '@context': 'https://schema.org',
    '@type': 'HomeAndConstructionBusiness',
    name: business.name,
    description: defaultBusiness.tagline,
    url: config.PUBLIC_URL,
    telephone: business.phone,
    email: business.email,
    image: `${config.PUBLIC_URL}/media/hero/1-1280.jpg`,
    ...(business.logoVersion ? { logo: `${config.PUBLIC_URL}${paths.media.logo(business.logoVersion)}` } : {}),
    ...(business.address ? { address: { '@type': 'PostalAddress', streetAddress: business.address } } : {}),
    areaServed: business.serviceArea.map(placeOf),
  };
}

/**
 * The <head> tags of one page: title, description, canonical link, Open Graph, robots, the
 * business's JSON-LD, and the site configuration the client reads; the links to the page's
 * stylesheets and chunks. Also says whether the path is a page at all (404 otherwise).
 */
export function renderPageHead(
  config: Config,
  business: BusinessSettings,
  pathname: string,
  stylesFor: (module: string) => string[] = () => [],
): { head: string; assets: string; status: 200 | 404 } {
  const site = siteConfigOf(config, business);
  const found = metaForPath(pathname);
  const meta = found ?? notFoundMeta;
  const title = documentTitle(meta.title, business.name);
  const url = `${config.PUBLIC_URL}${pathname === '/' ? '/' : pathname.replace(/\/$/, '')}`;
  const image = `${config.PUBLIC_URL}/media/hero/1-1280.jpg`;
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    meta.index ? `<link rel="canonical" href="${escapeHtml(url)}">` : '<meta name="robots" content="noindex">',
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${escapeHtml(business.name)}">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    `<meta property="og:image" content="${escapeHtml(image)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<script type="application/ld+json">${scriptJson(localBusinessJsonLd(config, business))}</script>`,
    `<script type="application/json" id="site-config">${scriptJson(site)}</script>`,
  ];
  if (meta.crewApp) tags.push(`<link rel="manifest" href="${paths.crewApp.manifest}">`);
  if (pathname === '/') {
    // The first hero image is the largest thing on the home page: fetch it with the HTML.
    tags.push(
      `<link rel="preload" as="image" type="image/webp" fetchpriority="high" imagesrcset="/media/hero/1-640.webp 640w, /media/hero/1-1280.webp 1280w, /media/hero/1-1920.webp 1920w" imagesizes="100vw">`,
    );
  }
  // The stylesheets of the app's and the page's chunks: the page the server rendered needs them
  // before it is first painted. They go after the entry's stylesheet (at the end of <head>), where
  // loading the chunks would have put them. The chunks themselves are not preloaded: they are
  // fetched once the page is painted (main.tsx), so they do not compete with what the paint needs.
  const styles = new Set([appModule, ...(meta.module ? [meta.module] : [])].flatMap(stylesFor));
  const assets = [...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`);
  return { head: tags.join('\n    '), assets: assets.join('\n    '), status: found ? 200 : 404 };
}
