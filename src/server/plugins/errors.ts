import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { STATUS_CODES } from 'node:http';
import { errorBody, HttpError } from '../lib/http-errors';

/** Errors that mean the database cannot be reached right now (connection refused, reset, timed out). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '08000',
  '08003',
  '08006',
]);

function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown; message?: string } | undefined; e; e = e.cause as typeof e) {
    if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
    if (
      typeof e.message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection refused/i.test(e.message)
    )
      return true;
  }
  return false;
}

const body = errorBody;

/**
 * Every error answers `{ statusCode, error, message, code }`. Bad input names the field; a 5xx says no
 * more than its status, and the log keeps the detail with the request id.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'body';
      const details = error.validation.map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return field ? `${field}: ${issue.message}` : issue.message;
      });
      return reply.code(400).send({
        ...body(400, details.join('; '), 'VALIDATION_FAILED'),
        where,
        fields: error.validation.map((i) => i.instancePath.replace(/^\//, '').replaceAll('/', '.')),
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.code(500).send(body(500, 'Internal Server Error'));
    }
    // The visitor hung up before the body arrived (a phone losing signal mid-upload): nobody is
    // left to answer, and nothing is wrong with the server.
    if (request.raw.destroyed && (error as { code?: string }).code === 'ECONNRESET') {
      request.log.info('the client closed the connection before its request was complete');
      return reply.code(400).send(body(400, 'The request was not complete', 'REQUEST_INCOMPLETE'));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.code(503).send(body(503, 'The service is temporarily unavailable. Please try again in a moment.'));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(body(status, STATUS_CODES[status] ?? 'Internal Server Error'));
    }
    // Ours carry their code; 4xx raised by Fastify itself (malformed JSON, body too large, unsupported
    // media type, 429...) get the one for their status.
    if (error instanceof HttpError)
      return reply.code(status).send({ ...body(status, error.message, error.code), ...error.extra });
    return reply.code(status).send(body(status, error.message));
  });
}
