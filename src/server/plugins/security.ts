import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/** Security headers for pages and API: a CSP that allows no inline script, no framing, no sniffing. */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const calendarOrigin = config.CALENDAR_EMBED_URL ? new URL(config.CALENDAR_EMBED_URL).origin : undefined;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}
