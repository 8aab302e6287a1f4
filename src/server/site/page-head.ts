import type { SiteConfig } from '#shared/business';
import { defaultBusiness } from '#shared/business';
import { appModule, documentTitle, metaForPath, notFoundMeta } from '#shared/page-meta';
import { addDays, todayIn, zonedTimeToUtc } from '#shared/dates';
import { paths } from '#shared/paths';
import type { Config } from '../config';
import type { BusinessSettings } from '../lib/business';
import { escapeHtml } from '../lib/html';
import { heroSources } from './hero-images';

/** JSON inside <script>: "<" escaped so no value can close the element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function siteConfigOf(config: Config, business: BusinessSettings, now = new Date()): SiteConfig {
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
    today: businessDay(business.timeZone, now),
  };
}

/** Today in a time zone and the instant it ends there (the next midnight, whatever the clocks do). */
export function businessDay(timeZone: string, now: Date): { date: string; endsAt: number } {
  const date = todayIn(timeZone, now);
  return { date, endsAt: zonedTimeToUtc(addDays(date, 1), '00:00', timeZone).getTime() };
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
/** What a module needs loaded: its chunk's and every imported chunk's scripts and stylesheets. */
export interface ChunkAssets {
  scripts: string[];
  styles: string[];
}

export function renderPageHead(
  config: Config,
  business: BusinessSettings,
  pathname: string,
  assetsFor: (module: string) => ChunkAssets = () => ({ scripts: [], styles: [] }),
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
  // loading the chunks would have put them.
  const chunks = [appModule, meta.layout, meta.module].filter((m) => m !== undefined).map(assetsFor);
  const styles = new Set(chunks.flatMap((chunk) => chunk.styles));
  // The app's and the page's chunks are not fetched with the page (they would compete with what its
  // first paint needs): the entry asks for them once the page is painted, all of them rather than
  // one level of imports after another (seven to nine levels: as many round trips; main.tsx).
  const scripts = new Set(chunks.flatMap((chunk) => chunk.scripts));
  const assets = [
    ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`),
    // A page the app does not take over asks for none of it (decision 050).
    meta.withoutApp
      ? '<meta name="app" content="none">'
      : `<script type="application/json" id="app-chunks">${scriptJson([...scripts])}</script>`,
    // A form the app takes over when the visitor first reaches for it (decision 051).
    ...(meta.appOnFirstUse ? ['<meta name="app" content="on-first-use">'] : []),
  ];
  return { head: tags.join('\n    '), assets: assets.join('\n    '), status: found ? 200 : 404 };
}
