import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SiteConfig } from '#shared/business';
import { todayIn } from '#shared/dates';
import { routeForPath, routeMeta } from '#shared/page-meta';
import { paths } from '#shared/paths';
import type { BusinessSettings } from '../lib/business';
import { criticalCss, pageShape } from './critical-css';
import { entryAfterLoad } from '../lib/entry-loader';
import { HERO_WIDTHS, heroSources, renderHero } from './hero-images';
import { renderPageHead, scriptJson, siteConfigOf, type ChunkAssets } from './page-head';
import { errorBody as body } from '../lib/http-errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const brotli = promisify(zlib.brotliCompress);
/** Where index.html receives each page's title, description, structured data and site settings. */
const HEAD_MARK = '<!--app-head-->';
/** Where index.html receives a page's server-rendered HTML (inside #root). */
const HTML_MARK = '<!--app-html-->';

/**
 * Serves the built React app: hashed assets cached for a year, every other GET path answered with
 * index.html so the client router takes over; unknown /api paths answer a JSON 404.
 */
export async function registerWeb(app: FastifyInstance, root: string): Promise<void> {
  const indexFile = path.join(root, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      wildcard: false,
      // The build's .br and .gz of each hashed asset (scripts/build.mjs), sent as they are when the
      // browser takes them; anything else is compressed on the way out (@fastify/compress).
      preCompressed: true,
      // Directories (and index.html itself) fall through to the page handler below.
      allowedPath: (pathName) =>
        !pathName.endsWith('/') && pathName !== '/index.html' && !pathName.startsWith('/.vite/'),
      setHeaders(reply, filePath) {
        const hashed = filePath.startsWith(path.join(root, 'assets') + path.sep);
        // The crew app's service worker is checked on every visit: a deploy reaches the phones at once.
        const worker = filePath === path.join(root, paths.crewApp.worker.slice(1));
        reply.header('cache-control', hashed ? IMMUTABLE : worker ? 'no-cache' : 'public, max-age=3600');
      },
    });
  } else {
    app.log.warn(`No web build in ${root}: run "npm run build" (npm start does it for you).`);
  }
  const indexHtml = built ? fs.readFileSync(indexFile, 'utf8') : undefined;
  if (indexHtml && !indexHtml.includes(HEAD_MARK)) throw new Error(`${indexFile} lacks the ${HEAD_MARK} marker`);

  const assetsFor = chunkAssets(root);
  const withCriticalCss = criticalCss(root, (error) =>
    app.log.error({ err: error }, "Picking a page's first-paint styles failed; it is sent with its stylesheets"),
  );
  const pageHtml = await pageRenderer(app, path.join(path.dirname(root), 'render', 'render-page.js'));

  /** The whole page for a path: its head, what the server rendered, and the data it was rendered with. */
  const pageDocument = async (pathname: string, business: BusinessSettings, request?: FastifyRequest) => {
    const site = siteConfigOf(app.config, business);
    const { head, assets, status } = renderPageHead(app.config, business, pathname, assetsFor);
    const route = routeForPath(pathname);
    const withData = route?.meta.withData && request ? await pageHtml.withData(request, site) : undefined;
    const rendered = withData?.html ?? (await pageHtml(pathname, site)) ?? '';
    // The answers the page was rendered with, for the browser's first render (app/start.tsx).
    const data = withData
      ? `\n    <script type="application/json" id="page-data">${scriptJson(withData.data)}</script>`
      : '';
    const page = indexHtml!
      .replace(HEAD_MARK, () => head + data)
      .replace('</head>', () => `  ${assets}\n  </head>`)
      .replace(HTML_MARK, () => rendered);
    // A public page the server rendered carries the styles of its first paint (critical-css.ts), and
    // asks for its entry once it is loaded and painted (lib/entry-loader.ts). So does a client's own
    // page, rendered with their data: its rules are picked once per shape (pageShape), not per client.
    const publicPage = Boolean(route?.meta.index && !withData && rendered && status === 200);
    const clientPage = Boolean(withData && rendered && status === 200);
    const key = `${route?.pattern} ${JSON.stringify(site)}${clientPage ? ` ${pageShape(rendered)}` : ''}`;
    const html = publicPage || clientPage ? entryAfterLoad(await withCriticalCss(key, page)) : page;
    // Kept compressed only as the page is spelled (not "/Get-A-Quote/"): a stranger cannot make the
    // server compress it again, at brotli's slow best, by asking under another spelling.
    return { html, status, withData: Boolean(withData), compressOnce: publicPage && route!.pattern === pathname };
  };

  const brotliOnce = compressedOnce();
  // Rendered once the server is up, with their first paint's styles picked, compressed, and the home
  // page's first photo scaled for each screen, so the first visitor after a restart waits for none of them.
  if (indexHtml)
    app.addHook('onListen', (done) => {
      setImmediate(() => {
        void app.settings
          .current()
          .then(async (business) => {
            for (const [pattern, meta] of routeMeta) {
              if (!meta.index) continue;
              const page = await pageDocument(pattern, business);
              if (page.compressOnce) await brotliOnce(page.html);
            }
            const [firstPhoto] = heroSources(app.config.HERO_IMAGES_DIR);
            for (const width of firstPhoto ? HERO_WIDTHS : [])
              await Promise.resolve()
                .then(() => renderHero(firstPhoto!, width, 'webp'))
                .catch(() => {}); // Its request will say why.
          })
          .catch(() => {}); // The first visitor's page renders it instead.
      });
      done();
    });
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const business = await app.settings.current();
    const { html, status, withData, compressOnce } = await pageDocument(request.url.split('?')[0]!, business, request);
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      // A client's own page carries their data: kept out of every cache, as the API's answers are.
      .header('cache-control', withData ? 'no-store' : 'no-cache');
    if (!compressOnce) return reply.send(html);
    // A public page is the same for every visitor: compressed once, at brotli's best, for all who take it.
    reply.header('vary', 'accept-encoding');
    if (negotiate(request.headers['accept-encoding'] ?? '', ['br']) !== 'br') return reply.send(html);
    return reply.header('content-encoding', 'br').send(await brotliOnce(html));
  };
  const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
  // Pages are a route rather than the not-found handler so that they are compressed like any answer.
  if (indexHtml)
    app.get('/*', { schema: { hide: true } }, (request, reply) =>
      isApi(request.url) ? reply.callNotFound() : sendPage(request, reply),
    );
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi(request.url);
    if (!isPage)
      return reply.code(404).send(body(404, `Route ${request.method}:${request.url.split('?')[0]} not found`));
    if (!indexHtml)
      return reply.code(503).type('text/plain').send('The web app has not been built yet. Run "npm run build".');
    return sendPage(request, reply);
  });
}

type RenderPage = (pathname: string, config: SiteConfig) => Promise<string>;
type RenderPageWithData = (
  url: string,
  config: SiteConfig,
  fetchApi: typeof fetch,
) => Promise<{ html: string; data: unknown }>;

interface PageRenderer {
  (pathname: string, site: SiteConfig): Promise<string | undefined>;
  /** A client's page rendered for this request with its data (`withData` in page-meta), or undefined (sent unrendered). */
  withData(request: FastifyRequest, site: SiteConfig): Promise<{ html: string; data: unknown } | undefined>;
}

/**
 * How a page rendered with its data reads the API: in-process (no network), as the visitor's request
 * would (their address, so rate limits count them, not the server), and only ever reading.
 */
function apiFor(app: FastifyInstance, request: FastifyRequest): typeof fetch {
  return async (input, init) => {
    if ((init?.method ?? 'GET') !== 'GET') throw new Error('A page is rendered with reads only');
    const answer = await app.inject({
      method: 'GET',
      url: String(input),
      headers: { accept: 'application/json', 'user-agent': request.headers['user-agent'] ?? '' },
      remoteAddress: request.ip,
    });
    return new Response(answer.statusCode === 204 ? null : answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': String(answer.headers['content-type'] ?? 'application/json') },
    });
  };
}

/**
 * The pages search engines index (home, get a quote, contact, status lookup) are sent rendered, so
 * a phone paints them before the scripts arrive. Each is rendered once and kept until the business
 * details it shows change (hero photos dropped in) or the day does (the date picker's first day, the
 * footer's year). A client's own pages (`withData`: their quote, invoice, status) are rendered for
 * each request with their data (decision 021). Every other page is rendered by the browser alone,
 * as is any page when there is no renderer (no build) or it fails.
 */
async function pageRenderer(app: FastifyInstance, file: string): Promise<PageRenderer> {
  if (!fs.existsSync(file)) return Object.assign(async () => undefined, { withData: async () => undefined });
  const { renderPage, renderPageWithData } = (await import(pathToFileURL(file).href)) as {
    renderPage: RenderPage;
    renderPageWithData: RenderPageWithData;
  };
  const withData: PageRenderer['withData'] = async (request, site) => {
    try {
      return await renderPageWithData(request.url, site, apiFor(app, request));
    } catch (error) {
      // Each request renders anew (their data differs), so each failure is logged.
      app.log.error({ err: error, pathname: request.url.split('?')[0] }, 'Rendering the page failed; the browser will');
      return undefined;
    }
  };
  const rendered = new Map<string, Promise<string | undefined>>();
  let renderedFor = '';
  const cached = (pathname: string, site: SiteConfig) => {
    const route = routeForPath(pathname);
    if (!route?.meta.index) return Promise.resolve(undefined);
    // A new day where the business is renders them again: the Get a Quote date picker starts at today.
    const details = `${todayIn(site.timeZone)} ${JSON.stringify(site)}`;
    if (details !== renderedFor) {
      rendered.clear();
      renderedFor = details;
    }
    let html = rendered.get(route.pattern);
    if (!html) {
      html = renderPage(route.pattern, site).catch((error: unknown) => {
        // Kept as failed (not retried on every request) until the details change or a restart.
        app.log.error({ err: error, pathname }, 'Rendering the page failed; browsers will render it');
        return undefined;
      });
      rendered.set(route.pattern, html);
    }
    return html;
  };
  return Object.assign(cached, { withData });
}

interface ManifestChunk {
  file: string;
  /** The entry (main.tsx): the page loads it itself. */
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** From Vite's manifest: the scripts and stylesheets of a module's chunk and of every chunk it imports. */
function chunkAssets(root: string): (module: string) => ChunkAssets {
  const file = path.join(root, '.vite/manifest.json');
  const manifest: Record<string, ManifestChunk> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  const cache = new Map<string, ChunkAssets>();
  return (module) => {
    let assets = cache.get(module);
    if (!assets) {
      const scripts = new Set<string>();
      const styles = new Set<string>();
      const visit = (key: string) => {
        const chunk = manifest[key];
        if (!chunk || chunk.isEntry || scripts.has(chunk.file)) return;
        scripts.add(chunk.file);
        chunk.css?.forEach((css) => styles.add(css));
        chunk.imports?.forEach(visit);
      };
      visit(module);
      assets = { scripts: [...scripts], styles: [...styles] };
      cache.set(module, assets);
    }
    return assets;
  };
}

/** How many public pages' compressed forms are kept: a handful of pages, each once per change of the settings. */
const COMPRESSED_KEPT = 32;

/**
 * A public page compressed with brotli at its best quality, once per version of the page: 7.6 KB of the
 * home page instead of 9.0 at the quality @fastify/compress uses for every answer (4), which a phone on
 * a slow network waits for before it can ask for the page's photo (issue 34, decision 052). The page is
 * its own key; the oldest is dropped past COMPRESSED_KEPT.
 */
function compressedOnce(): (page: string) => Promise<Buffer> {
  const kept = new Map<string, Promise<Buffer>>();
  const best = {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  };
  return (page) => {
    let compressed = kept.get(page);
    if (!compressed) {
      if (kept.size >= COMPRESSED_KEPT) kept.delete(kept.keys().next().value!);
      compressed = brotli(page, best);
      compressed.catch(() => kept.delete(page));
      kept.set(page, compressed);
    }
    return compressed;
  };
}
