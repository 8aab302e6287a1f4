import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config';
import { ENTRY_LOADER_SOURCE } from '../lib/entry-loader';

const shared = {
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
} as const;

/**
 * JSON answers load nothing and are shown in no frame: the strictest policy, and never cached. The
 * headers that only mean something for documents (or for old Internet Explorer and Flash) are left
 * off, as the OWASP REST security cheat sheet lists: smaller answers for the busiest routes.
 */
const applyApiHeaders = helmet({
  ...shared,
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/** The API's JSON (not its docs pages, which are HTML with scripts). */
function isApiAnswer(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/**
 * Security headers for pages and API: a CSP that allows no inline script but the entry loader (by its
 * hash), no framing, no sniffing.
 * Helmet's middleware is built once here and run on every request; @fastify/helmet rebuilt it (and
 * re-parsed the CSP) on each request, a fifth of a small answer's cost (decision 006).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const calendarOrigin = config.CALENDAR_EMBED_URL ? new URL(config.CALENDAR_EMBED_URL).origin : undefined;
  const applyPageHeaders = helmet({
    ...shared,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // One inline script, by its hash: the public pages' entry loader (lib/entry-loader.ts).
        scriptSrc: ["'self'", ENTRY_LOADER_SOURCE],
        // Mantine sets its theme variables in a <style> element and positions with style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: calendarOrigin ? [calendarOrigin] : ["'none'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        ...(config.PUBLIC_URL.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    const api = isApiAnswer(request.url);
    // Staff data and clients' addresses stay out of browser and proxy caches unless a route says otherwise.
    if (api) reply.header('cache-control', 'no-store');
    (api ? applyApiHeaders : applyPageHeaders)(request.raw, reply.raw, (error?: unknown) =>
      done(error instanceof Error ? error : undefined),
    );
  });
}
