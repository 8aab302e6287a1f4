import type { FastifyLoggerOptions, FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { safeError } from './safe-error';

/** Signed links carry their token in the query (a client's quote link, a staff photo link). */
const SECRET_QUERY = /([?&](?:token|sig)=)[^&#]*/gi;
/** Anything shaped like a JWT, wherever it appears in an address. */
const JWT_LIKE = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;

/** A text's short link to a client's page (decision 045): its code opens the page. */
const PAGE_CODE = /^\/p\/[^/?#]+/;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]').replace(JWT_LIKE, '[redacted]').replace(PAGE_CODE, '/p/[redacted]');
}

/**
 * The server's log: requests without the tokens in their addresses, errors without the values of
 * failed queries (safe-error.ts). Nothing a client sends in a body or header is logged.
 */
export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): FastifyLoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      err: (error: unknown) => ({ stack: '', ...safeError(error) }),
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
