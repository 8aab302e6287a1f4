import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const found = findNul(inner, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * PostgreSQL cannot store the NUL character in text, and no form has a use for it: a request that
 * carries one anywhere (body, query, path) is refused before it reaches a handler.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const where = findNul(request.body, 'body') ?? findNul(request.query, 'query') ?? findNul(request.params, 'params');
    done(where ? badRequest(`${where}: text cannot contain the NUL character`) : undefined);
  });
}
